/* Separate compilation (OpenCL 1.2 §5.6.3): clCompileProgram turns a
 * program's source, with its input headers, into a compiled object (the
 * front end's LLVM bitcode), clLinkProgram links objects and libraries
 * with LLVM's linker into an executable (the back end runs on the linked
 * module) or, with -create-library, into a library. Objects and libraries
 * are what CL_PROGRAM_BINARIES returns for them (tagged with their type,
 * cl_bitcode.c), and clCreateProgramWithBinary takes them back. */
#define _XOPEN_SOURCE 700 /* nftw */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cl_api.h"
#ifdef VT_HAVE_CC
#include "cc_load.h"
#endif

static int is_object(cl_program p) {
  return p->btype == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT || p->btype == CL_PROGRAM_BINARY_TYPE_LIBRARY;
}

static cl_int check_devices(cl_uint n, const cl_device_id *devs) {
  if ((!devs && n) || (devs && !n)) return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < n; i++)
    if (!cy_is_device(devs[i])) return CL_INVALID_DEVICE;
  return CL_SUCCESS;
}

/* a header name the program may #include: relative, without "..", so it
 * stays inside the directory the headers are written to */
static int good_name(const char *s) {
  return s && *s && *s != '/' && !strstr(s, "..") && strlen(s) < 1024;
}

#ifdef VT_HAVE_CC
cl_int cy_cc_error(const vt_error *e) {
  return e->kind == VT_ERR_USAGE ? CL_INVALID_BUILD_OPTIONS
         : e->kind == VT_ERR_NOMEM ? CL_OUT_OF_HOST_MEMORY
                                   : CL_BUILD_PROGRAM_FAILURE;
}

static char *dup_str(const char *s) {
  char *d = malloc(strlen(s) + 1);
  if (d) strcpy(d, s);
  return d;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st;
  (void)flag;
  (void)ftw;
  return remove(path);
}

/* the input headers as files under a new temporary directory (dir) */
static int write_headers(char *dir, size_t cap, cl_uint n, const cl_program *hdrs, const char **names) {
  const char *t = getenv("TMPDIR");
  snprintf(dir, cap, "%s/ventus-cl-XXXXXX", t && *t ? t : "/tmp");
  if (!mkdtemp(dir)) return -1;
  for (cl_uint i = 0; i < n; i++) {
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    for (char *s = path + strlen(dir) + 1; (s = strchr(s, '/')); s++) { /* its directories first */
      *s = 0;
      int bad = mkdir(path, 0700) && errno != EEXIST;
      *s = '/';
      if (bad) return -1;
    }
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    size_t len = strlen(hdrs[i]->source);
    int bad = fwrite(hdrs[i]->source, 1, len, f) != len;
    if (fclose(f) || bad) return -1;
  }
  return 0;
}
#endif

cl_int CL_API_CALL clCompileProgram(cl_program p, cl_uint num_devices, const cl_device_id *device_list,
                                    const char *options, cl_uint num_input_headers, const cl_program *input_headers,
                                    const char **header_include_names,
                                    void(CL_CALLBACK *notify)(cl_program, void *), void *user_data) {
  if (!cy_is_program(p)) return CL_INVALID_PROGRAM;
  cl_int rc = check_devices(num_devices, device_list);
  if (rc) return rc;
  if ((!notify && user_data) || (num_input_headers && (!input_headers || !header_include_names)) ||
      (!num_input_headers && (input_headers || header_include_names)))
    return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num_input_headers; i++) {
    if (!cy_is_program(input_headers[i]) || !input_headers[i]->source) return CL_INVALID_VALUE;
    if (!good_name(header_include_names[i])) return CL_INVALID_VALUE;
  }
  if (!p->source || atomic_load(&p->kernels)) return CL_INVALID_OPERATION;
#ifndef VT_HAVE_CC
  (void)options;
  return CL_COMPILER_NOT_AVAILABLE;
#else
  cy_ctx_enter(p->ctx);
  cy_program_reset(p, options);
  vt_error e = {0};
  uint8_t *obj = NULL;
  size_t n = 0;
  char *log = NULL, dir[1100] = "";
  int bad = 0;
  if (num_input_headers && write_headers(dir, sizeof dir, num_input_headers, input_headers, header_include_names))
    bad = vt_fail(&e, VT_ERR_IO, "cannot write the input headers to a temporary directory: %s", VT_STRERROR(errno));
  cc_api cc = {0};
  if (!bad) bad = cc_load(&cc, &e);
  if (!bad) bad = cc.compile_object(p->source, options, *dir ? dir : NULL, &obj, &n, &log, &e);
  cc_unload(&cc);
  if (!bad && cy_bitcode_wrap(&obj, &n, CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT)) {
    free(obj);
    bad = vt_fail(&e, VT_ERR_NOMEM, "out of memory");
  }
  if (*dir) nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
  rc = bad ? cy_cc_error(&e) : CL_SUCCESS;
  if (rc == CL_BUILD_PROGRAM_FAILURE) rc = CL_COMPILE_PROGRAM_FAILURE;
  if (rc == CL_INVALID_BUILD_OPTIONS) rc = CL_INVALID_COMPILER_OPTIONS;
  if (!bad) {
    p->binary = obj;
    p->binary_size = n;
    p->btype = CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
    p->arg_info = cy_wants_arg_info(options);
  }
  if (!log && rc) log = dup_str(e.msg);
  p->log = log ? log : dup_str("");
  p->status = rc ? CL_BUILD_ERROR : CL_BUILD_SUCCESS;
  cy_ctx_leave(p->ctx);
  if (!p->options || !p->log) rc = CL_OUT_OF_HOST_MEMORY;
  if (notify) notify(p, user_data);
  return rc;
#endif
}

#ifdef VT_HAVE_CC
/* Links objects (bitcode) into p: an executable, or a library. Options:
 * -create-library and -enable-link-options are ours, the rest go to the
 * compiler, which refuses what it does not know. */
static cl_int link_into(cl_program p, cl_uint n, const uint8_t *const *objs, const size_t *sizes, const char *options,
                        int *library) {
  vt_error e = {0};
  char *opts = cy_cc_options(options), *log = NULL; /* the device's revision too */
  if (!opts) return CL_OUT_OF_HOST_MEMORY;
  *library = 0;
  for (char *w; (w = strstr(opts, "-create-library")) || (w = strstr(opts, "-enable-link-options"));) {
    if (w[1] == 'c') *library = 1;
    memset(w, ' ', w[1] == 'c' ? strlen("-create-library") : strlen("-enable-link-options"));
  }
  uint8_t *out = NULL;
  size_t len = 0;
  cc_api cc = {0};
  int bad = cc_load(&cc, &e);
  if (!bad) bad = cc.link_objects(objs, sizes, (int)n, opts, *library, &out, &len, &log, &e);
  cc_unload(&cc);
  free(opts);
  cl_int rc;
  if (bad) {
    rc = e.kind == VT_ERR_USAGE ? CL_INVALID_LINKER_OPTIONS : e.kind == VT_ERR_NOMEM ? CL_OUT_OF_HOST_MEMORY
                                                                                   : CL_LINK_PROGRAM_FAILURE;
  } else if (*library && cy_bitcode_wrap(&out, &len, CL_PROGRAM_BINARY_TYPE_LIBRARY)) {
    free(out);
    rc = CL_OUT_OF_HOST_MEMORY;
  } else if (*library) {
    p->binary = out;
    p->binary_size = len;
    p->btype = CL_PROGRAM_BINARY_TYPE_LIBRARY;
    rc = CL_SUCCESS;
  } else {
    rc = cy_program_take_image(p, out, len);
    if (rc) rc = CL_LINK_PROGRAM_FAILURE;
  }
  if (!log && rc) log = dup_str(e.msg);
  p->log = log ? log : dup_str("");
  p->built = rc == CL_SUCCESS && !*library;
  p->status = rc ? CL_BUILD_ERROR : CL_BUILD_SUCCESS;
  return rc;
}
#endif

cl_program CL_API_CALL clLinkProgram(cl_context ctx, cl_uint num_devices, const cl_device_id *device_list,
                                     const char *options, cl_uint num_input_programs,
                                     const cl_program *input_programs,
                                     void(CL_CALLBACK *notify)(cl_program, void *), void *user_data,
                                     cl_int *errcode_ret) {
  cl_int rc = CL_SUCCESS;
  cl_program p = NULL;
  if (!cy_is_context(ctx)) {
    rc = CL_INVALID_CONTEXT;
    goto out;
  }
  if ((rc = check_devices(num_devices, device_list))) goto out;
  if (!num_input_programs || !input_programs || (!notify && user_data)) {
    rc = CL_INVALID_VALUE;
    goto out;
  }
  for (cl_uint i = 0; i < num_input_programs; i++) {
    if (!cy_is_program(input_programs[i]) || input_programs[i]->ctx != ctx) {
      rc = CL_INVALID_PROGRAM;
      goto out;
    }
    if (!is_object(input_programs[i])) {
      rc = CL_INVALID_OPERATION;
      goto out;
    }
  }
#ifndef VT_HAVE_CC
  (void)options;
  rc = CL_LINKER_NOT_AVAILABLE;
#else
  const uint8_t **objs = calloc(num_input_programs, sizeof *objs);
  size_t *sizes = calloc(num_input_programs, sizeof *sizes);
  if (!objs || !sizes || !(p = cy_program_new(ctx))) {
    free(objs);
    free(sizes);
    rc = CL_OUT_OF_HOST_MEMORY;
    goto out;
  }
  for (cl_uint i = 0; i < num_input_programs; i++) {
    cy_bitcode_type(input_programs[i]->binary, input_programs[i]->binary_size, &objs[i], &sizes[i]);
    p->arg_info &= input_programs[i]->arg_info; /* each compiled with -cl-kernel-arg-info, or a binary */
  }
  cy_ctx_enter(ctx);
  p->options = dup_str(options ? options : "");
  int library;
  rc = p->options ? link_into(p, num_input_programs, objs, sizes, options, &library) : CL_OUT_OF_HOST_MEMORY;
  cy_ctx_leave(ctx);
  free(objs);
  free(sizes);
  if (rc == CL_INVALID_LINKER_OPTIONS || rc == CL_OUT_OF_HOST_MEMORY) { /* no program for these */
    cy_program_free(p);
    p = NULL;
  }
  if (p && notify) notify(p, user_data); /* a failed link still gives the program and its log */
#endif
out:
  if (errcode_ret) *errcode_ret = rc;
  return p;
}

cl_int cy_build_from_objects(cl_program p, const char *options, void(CL_CALLBACK *notify)(cl_program, void *),
                             void *user_data) {
  if (p->btype == CL_PROGRAM_BINARY_TYPE_NONE) return CL_INVALID_BINARY; /* a failed link: nothing to build */
  if (options && strstr(options, "-create-library")) return CL_INVALID_BUILD_OPTIONS;
#ifndef VT_HAVE_CC
  (void)options;
  (void)notify;
  (void)user_data;
  return CL_COMPILER_NOT_AVAILABLE;
#else
  cy_ctx_enter(p->ctx);
  uint8_t *obj = p->binary;
  size_t n = p->binary_size, bcn = 0;
  cl_program_binary_type type = p->btype;
  p->binary = NULL; /* kept out of the reset: it is the input */
  cy_program_reset(p, options);
  int library;
  const uint8_t *objs[1] = {NULL};
  cy_bitcode_type(obj, n, &objs[0], &bcn);
  cl_int rc = p->options ? link_into(p, 1, objs, &bcn, options, &library) : CL_OUT_OF_HOST_MEMORY;
  if (rc) { /* the object stays the program's binary */
    vt_elf_free(&p->elf);
    memset(&p->elf, 0, sizeof p->elf);
    free(p->binary);
    p->binary = obj;
    p->binary_size = n;
    p->btype = type;
    p->built = 0;
  } else {
    free(obj);
  }
  if (rc == CL_LINK_PROGRAM_FAILURE) rc = CL_BUILD_PROGRAM_FAILURE;
  if (rc == CL_INVALID_LINKER_OPTIONS) rc = CL_INVALID_BUILD_OPTIONS;
  cy_ctx_leave(p->ctx);
  if (notify) notify(p, user_data);
  return rc;
#endif
}
