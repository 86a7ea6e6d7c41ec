/* Shared helpers of the fuzz harnesses: a private scratch directory for the
 * readers that only take a path, and splitting one input into parts. */
#ifndef FUZZ_UTIL_H
#define FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* One part of an input split at NUL bytes. */
typedef struct {
  const uint8_t *p;
  size_t n;
} fz_part;

/* Splits data at NUL bytes into at most max parts (the last one keeps any
 * further NULs); returns the part count (at least 1). */
size_t fz_split(const uint8_t *data, size_t size, fz_part *parts, size_t max);

/* The scratch directory (created on first use, in /dev/shm when possible,
 * removed with its files at exit); aborts if it cannot be made, since a
 * harness without it would test nothing. */
const char *fz_dir(void);

/* fz_dir()/name, in a buffer of the caller. */
void fz_path(char *buf, size_t len, const char *name);

/* Writes n bytes to fz_dir()/name (replacing it); aborts on failure. */
void fz_write(const char *name, const void *p, size_t n);

/* Removes fz_dir()/name if present. */
void fz_remove(const char *name);

#endif
