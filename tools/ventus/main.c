#include <stdio.h>
int main(void) { puts("ventus"); return 0; }
