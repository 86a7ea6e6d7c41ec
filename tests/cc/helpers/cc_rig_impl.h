/* Inside the tests/cc rig: the operations each back end supplies. */
#ifndef CC_RIG_IMPL_H
#define CC_RIG_IMPL_H

#include "cc_rig.h"

typedef struct {
  const char *name;
  void *(*open)(void);
  void (*close)(void *be);
  int (*load)(void *be, const char *name); /* program index, -1 failed, -2 clang-19 missing */
  int (*fresh)(void *be);
  uint32_t (*buf)(void *be, size_t bytes);
  void (*put)(void *be, uint32_t buf, const void *src, size_t bytes);
  void (*get)(void *be, uint32_t buf, void *dst, size_t bytes);
  void (*launch)(void *be, int prog, const char *kernel, const cy_ndrange *nd, const uint32_t *slots, size_t n);
} cc_rig_backend;

extern const cc_rig_backend cc_rig_native;
#ifdef CC_RIG_HAVE_OPENCL
extern const cc_rig_backend cc_rig_opencl;
#endif

/* Whether clang-19 is on PATH (a failed build without it is a skip, not a failure). */
int cc_rig_have_clang(void);

#endif
