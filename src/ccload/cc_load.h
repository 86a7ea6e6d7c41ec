/* The OpenCL C compiler lives in a module of its own, libchengying-cc.so,
 * which links libLLVM; `ventus cc` and clBuildProgram load it on first use,
 * so that every other program (ventus run, as, the OpenCL host programs
 * that never compile) starts without loading LLVM. */
#ifndef VT_CC_LOAD_H
#define VT_CC_LOAD_H

#include "cc.h"

typedef struct {
  void *handle;
  int (*compile)(const char *path, const char *text, const cc_options *o, char **asm_out, char **log,
                 vt_error *e);
  int (*link_file)(const char *asm_text, int relocatable, int isa, const char *out_path, vt_error *e);
  int (*build)(const char *source, const char *options, uint8_t **elf, size_t *elf_size, char **log,
               vt_error *e);
  int (*compile_object)(const char *source, const char *options, const char *incdir, uint8_t **obj,
                        size_t *obj_size, char **log, vt_error *e);
  int (*link_objects)(const uint8_t *const *objs, const size_t *sizes, int n, const char *options, int library,
                      uint8_t **out, size_t *out_size, char **log, vt_error *e);
} cc_api;

/* Loads the module: $CHENGYING_CC_MODULE if set, else libchengying-cc.so
 * next to the object holding this code (the OpenCL library or the ventus
 * program), next to the running program, in the installed library
 * directory relative to it, and last through the dynamic loader's search
 * path. Returns 0, or -1 with e (VT_ERR_IO) naming what failed. The module
 * stays loaded for the life of the process (RTLD_NODELETE). */
int cc_load(cc_api *api, vt_error *e);
void cc_unload(cc_api *api);

#endif
