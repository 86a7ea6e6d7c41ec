/* Whole-file reading shared by every layer that reads text or binaries. */
#ifndef VT_FILE_H
#define VT_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "vt_error.h"

/* Input files are at most 1 GiB: enough for any log or ELF we read, and a
 * bound on the memory a mistaken input (a pipe that never ends) can take. */
#define VT_READ_MAX (1u << 30)

/* Reads all of `path` ("-" = standard input) into a malloc'ed buffer with a
 * NUL after the last byte; *len (may be NULL) gets the byte count. A
 * directory, device or socket and input over VT_READ_MAX are refused.
 * Returns NULL with VT_ERR_IO or VT_ERR_NOMEM in e. */
char *vt_read_file(const char *path, size_t *len, vt_error *e);

#endif
