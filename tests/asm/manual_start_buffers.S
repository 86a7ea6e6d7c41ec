/* The print-buffer words that the manual's start.S (manual_start.S) stores
 * the metadata's print address and size into; upstream defines them in its
 * printf support library. */
        .data
        .align  2
        .globl  BUFFER_ADDR
        .globl  BUFFER_SIZE
BUFFER_ADDR:
        .word   0
BUFFER_SIZE:
        .word   0
