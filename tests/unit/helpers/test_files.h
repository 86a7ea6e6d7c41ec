/* File helpers shared by the unit tests (tests/unit/helpers/ is compiled
 * into every test). */
#ifndef VT_TEST_FILES_H
#define VT_TEST_FILES_H

#include <stddef.h>
#include <stdint.h>

/* The whole file at path in a new malloc'd buffer (one spare byte past the
 * end, so an empty file still gets a buffer); its size in *n. A missing or
 * unreadable file fails the current test. */
uint8_t *slurp(const char *path, size_t *n);

#endif
