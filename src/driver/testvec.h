/* Upstream test vectors (pocl's PRINT_CHISEL_TESTCODE output): `.metadata`
 * launch descriptors, `.data` memory images, `kernels.txt` launch
 * sequences, and the `<address> <word>` expected-result files.
 * Formats: docs/corpora.md §2.1-2.2 (shared docs). */
#ifndef VT_TESTVEC_H
#define VT_TESTVEC_H

#include <stdint.h>
#include <stdio.h>

#include "device.h"
#include "vt_error.h"

typedef struct {
  uint32_t base, size, allocsize;
} vt_tv_buffer;

/* One launch: a parsed .metadata plus its .data image. */
typedef struct {
  uint32_t start_pc, kernel_id, grid[3], wf_size, wg_size, knl;
  uint32_t lds_size, pds_size, sgpr_usage, vgpr_usage, pds_base;
  uint32_t nbuf;
  vt_tv_buffer *bufs;
  uint32_t *words;   /* .data words, buffers concatenated in metadata order */
  size_t nwords;
} vt_testvec;

/* Parses `meta_path` and `data_path` (data_path NULL: only the metadata).
 * Errors are VT_ERR_IO / VT_ERR_FORMAT naming the file and line. */
int vt_testvec_load(const char *meta_path, const char *data_path, vt_testvec *tv, vt_error *e);
void vt_testvec_free(vt_testvec *tv);
/* Maps every buffer of the launch as a device region (base, allocsize) --
 * regions already mapped by an earlier launch of the sequence are kept,
 * with their contents, and only the parts of the range they leave free are
 * mapped -- and writes the .data words. */
int vt_testvec_install(vt_device *d, const vt_testvec *tv, vt_error *e);
/* The vt_launch of the test vector (the print buffer comes from word +48
 * of the kernel block in device memory, when mapped). */
void vt_testvec_launch(vt_device *d, const vt_testvec *tv, vt_launch *l);

/* ---- launch sequences ------------------------------------------------------ */
/* A case: a directory with kernels.txt (several launches, memory kept
 * between them) or one `.metadata` file (its `.data` beside it). */
typedef struct {
  char **stems;      /* path without extension of each launch, in order */
  char **names;      /* launch names as kernels.txt gives them */
  size_t n;
  char *dir;         /* directory of the case */
  vt_tv_buffer *dump;/* buffers to dump (size > 0, outside the code window), union of all launches */
  size_t ndump;
} vt_case;

int vt_case_open(const char *path, vt_case *c, vt_error *e);
void vt_case_free(vt_case *c);
/* Loads launch i, installs it in memory and runs it. `before` (may be
 * NULL) is called with the launch just before vt_device_launch, `after`
 * just after it returns successfully (tracing per launch). */
typedef int (*vt_case_hook)(void *user, size_t i, const vt_launch *l, vt_error *e);
int vt_case_run(vt_case *c, vt_device *d, size_t i, vt_case_hook before, vt_case_hook after,
                void *user, vt_error *e);

/* ---- expected files: `<address> <word>` lines ----------------------------- */
typedef struct {
  uint32_t addr, word;
} vt_memword;

typedef struct {
  vt_memword *w;
  size_t n, cap;
} vt_memwords;

int vt_memwords_read(const char *path, vt_memwords *out, vt_error *e);
void vt_memwords_free(vt_memwords *m);
/* Writes `0xAAAAAAAA 0xWWWWWWWW` lines of [addr, addr+size) (size rounded up to words). */
int vt_memwords_dump_range(vt_device *d, FILE *f, uint32_t addr, uint32_t size, vt_error *e);
/* Compares device memory with the expected words: 0 if equal; -1 with a
 * VT_ERR_MISMATCH naming the first differing words (and the count). */
int vt_memwords_compare(vt_device *d, const vt_memwords *m, const char *what, vt_error *e);

#endif
