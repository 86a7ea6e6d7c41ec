/* Output files that never destroy what the user did not ask us to write:
 * a regular file (or a new one) is written to a temporary file beside it and
 * renamed over it only on success (keeping its permissions), so a failed
 * write leaves the old file (or nothing); anything else (device, FIFO, a
 * symlink and what it points at, a file with several hard links, a file in
 * a directory we cannot write) is written in place and never removed. */
#ifndef VT_OUTFILE_H
#define VT_OUTFILE_H

#include <stdio.h>

#include "vt_error.h"

typedef struct {
  char *path; /* as given */
  char *tmp;  /* the temporary file renamed to path on success, or NULL */
} vt_outfile;

/* Opens path for writing (new_mode: permissions of a new file, before the
 * umask); returns a descriptor, or -1 with VT_ERR_IO. */
int vt_outfile_open(vt_outfile *o, const char *path, unsigned new_mode, vt_error *e);
/* The same as a stdio stream ("w"); NULL with VT_ERR_IO or VT_ERR_NOMEM. */
FILE *vt_outfile_fopen(vt_outfile *o, const char *path, vt_error *e);
/* After the caller closed the descriptor/stream: on success (failed == 0)
 * renames the temporary file to path, otherwise removes only the temporary
 * file. Frees o. Returns -1 with VT_ERR_IO when the rename fails. */
int vt_outfile_finish(vt_outfile *o, int failed, vt_error *e);

#endif
