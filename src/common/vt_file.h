/* Whole-file reading shared by every layer that reads text or binaries. */
#ifndef VT_FILE_H
#define VT_FILE_H

#include <stddef.h>

#include "vt_error.h"

/* Reads all of `path` ("-" = standard input) into a malloc'ed buffer with a
 * NUL after the last byte; *len (may be NULL) gets the byte count. Returns
 * NULL with VT_ERR_IO or VT_ERR_NOMEM in e. */
char *vt_read_file(const char *path, size_t *len, vt_error *e);

#endif
