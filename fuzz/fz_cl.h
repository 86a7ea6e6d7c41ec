/* Shared by the OpenCL harnesses (kmeta, clapi, clc): our platform's
 * functions called directly, on a device configured for fuzzing. */
#ifndef FZ_CL_H
#define FZ_CL_H

#include <stddef.h>
#include <stdint.h>

#include "cl_api.h"

/* The step budget of every launch: a spinning kernel ends in milliseconds
 * (CL_OUT_OF_RESOURCES) instead of at the platform's default of seconds. */
#define FZ_CL_MAX_STEPS 20000

/* The device, after pointing CHENGYING_CONFIG at a configuration of one SM
 * (no parallel-launch threads) and FZ_CL_MAX_STEPS; aborts if unusable. */
cl_device_id fz_cl_device(void);

/* A new context on it whose notify callback keeps the platform's messages
 * (kernel faults, the step budget) off stderr; aborts on failure. */
cl_context fz_cl_context(void);

/* The committed file fuzz/seeds/NAME (malloc'd, *n bytes); aborts if absent. */
uint8_t *fz_cl_seed(const char *name, size_t *n);

/* A program of the binary, built; NULL if the platform refused it (*rc
 * says how; a refused build has a non-empty log, else this aborts). */
cl_program fz_cl_program(cl_context ctx, const uint8_t *bin, size_t n, cl_int *rc);

#endif
