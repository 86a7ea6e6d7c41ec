/* Included by the assembler tests (#include and -I). */
#ifndef CONSTS_H
#define CONSTS_H
#define STEP 3
#define TWICE(x) ((x) * 2)
#endif
