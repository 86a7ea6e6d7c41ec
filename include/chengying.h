/* chengying native embedding API: a simulated Ventus GPGPU in a C program.
 *
 *   cy_device *d = cy_create(NULL, NULL, 0, err, sizeof err);
 *   uint32_t a; cy_alloc(d, 4096, &a); cy_write(d, a, host, 4096);
 *   uint32_t slots[] = {a, 1024};
 *   cy_ndrange nd = {.work_dim = 1, .global = {1024, 1, 1}, .local = {32, 1, 1}, .threads = 8};
 *   cy_launch(d, "vecadd.elf", "vecadd", &nd, slots, 2);
 *   cy_read(d, a, host, 4096);
 *   cy_destroy(d);
 *
 * Every int function returns 0 or -1; cy_error() gives the message. A NULL
 * pointer where one is required is such an error, never a crash (with a NULL
 * device there is nowhere to keep a message: cy_error(NULL) says "no
 * device"); the void functions do nothing when given one. */
#ifndef CHENGYING_H
#define CHENGYING_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cy_device cy_device;

/* config_path: key = value file or NULL; overrides: "key=value" strings. */
cy_device *cy_create(const char *config_path, const char *const *overrides, size_t noverrides, char *err,
                     size_t errlen);
void cy_destroy(cy_device *d);
const char *cy_error(const cy_device *d);
/* "chengying X.Y" (defined in libventus_driver.so) */
const char *cy_version(void);

/* device memory from 0x90000000, 4 KiB granules */
int cy_alloc(cy_device *d, uint64_t size, uint32_t *addr);
int cy_free(cy_device *d, uint32_t addr);
int cy_write(cy_device *d, uint32_t addr, const void *src, uint32_t size);
int cy_read(cy_device *d, uint32_t addr, void *dst, uint32_t size);

typedef struct {
  uint32_t work_dim;
  uint32_t global[3], local[3], offset[3]; /* zeros are taken as 1 (offset: 0) */
  uint32_t threads;                        /* threads per warp; 0 = configured maximum */
} cy_ndrange;

/* Loads the ELF and launches `kernel`; arg_slots are the 32-bit argument
 * buffer words (buffer addresses from cy_alloc, scalar bits). */
int cy_launch(cy_device *d, const char *elf, const char *kernel, const cy_ndrange *nd,
              const uint32_t *arg_slots, size_t nargs);
/* Runs an upstream test-vector case: a .metadata file or a directory with kernels.txt. */
int cy_run_testvec(cy_device *d, const char *path);
/* Writes every commit of the following launches to f in the reference ISS format (NULL: off). */
int cy_trace(cy_device *d, FILE *f);

typedef struct {
  uint64_t warp_insns, thread_insns, divergent_branches, barriers, loads, stores, kernels, wgs;
} cy_stats;
void cy_get_stats(const cy_device *d, cy_stats *s);
/* Full statistics and the configuration as text or JSON. */
void cy_print_stats(const cy_device *d, FILE *f, int json);

#ifdef __cplusplus
}
#endif

#endif
