/* Includes itself without a guard: a recursive #include. */
#include "self.h"
