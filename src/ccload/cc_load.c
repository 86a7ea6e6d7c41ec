/* Finding and loading the compiler module (cc_load.h). */
#define _GNU_SOURCE
#include "cc_load.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CC_MODULE "libchengying-cc.so"

/* dir of `path` + "/" + rest into buf; 0 if it does not fit or has no dir */
static int beside(char *buf, size_t len, const char *path, const char *rest) {
  const char *slash = strrchr(path, '/');
  if (!slash) return 0;
  int n = snprintf(buf, len, "%.*s/%s", (int)(slash - path), path, rest);
  return n > 0 && (size_t)n < len;
}

static void *try_open(const char *path, char *why, size_t len) {
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (!h && !why[0]) {
    const char *d = dlerror();
    snprintf(why, len, "%.400s", d ? d : path);
  }
  return h;
}

static void *open_module(char *why, size_t len) {
  char path[PATH_MAX + 64];
  const char *env = getenv("CHENGYING_CC_MODULE");
  if (env && *env) return try_open(env, why, len);
  void *h = NULL;
  Dl_info info;
  if (dladdr((void *)cc_load, &info) && info.dli_fname && beside(path, sizeof path, info.dli_fname, CC_MODULE) &&
      access(path, F_OK) == 0)
    h = try_open(path, why, len);
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) exe[n] = 0;
  if (!h && n > 0 && beside(path, sizeof path, exe, CC_MODULE) && access(path, F_OK) == 0)
    h = try_open(path, why, len);
#ifdef VT_CC_INSTALL_RELDIR
  if (!h && n > 0 && beside(path, sizeof path, exe, VT_CC_INSTALL_RELDIR "/" CC_MODULE) && access(path, F_OK) == 0)
    h = try_open(path, why, len);
#endif
  if (!h) h = try_open(CC_MODULE, why, len);
  return h;
}

int cc_load(cc_api *api, vt_error *e) {
  memset(api, 0, sizeof *api);
#ifdef VT_CC_LINKED /* the sanitizer build (CMakeLists.txt says why) */
  (void)e;
  (void)open_module;
  api->compile = cc_compile;
  api->link_file = cc_link_file;
  api->build = cc_build;
  api->compile_object = cc_compile_object;
  api->link_objects = cc_link_objects;
  return 0;
#endif
  char why[512] = "";
  api->handle = open_module(why, sizeof why);
  if (!api->handle)
    return vt_fail(e, VT_ERR_IO, "cannot load the OpenCL C compiler module: %s", why);
  /* POSIX: a data pointer from dlsym converts to a function pointer */
  *(void **)&api->compile = dlsym(api->handle, "cc_compile");
  *(void **)&api->link_file = dlsym(api->handle, "cc_link_file");
  *(void **)&api->build = dlsym(api->handle, "cc_build");
  *(void **)&api->compile_object = dlsym(api->handle, "cc_compile_object");
  *(void **)&api->link_objects = dlsym(api->handle, "cc_link_objects");
  if (!api->compile || !api->link_file || !api->build || !api->compile_object || !api->link_objects) {
    cc_unload(api);
    return vt_fail(e, VT_ERR_IO, "the OpenCL C compiler module " CC_MODULE " lacks its entry points");
  }
  return 0;
}

void cc_unload(cc_api *api) {
  if (api->handle) dlclose(api->handle);
  memset(api, 0, sizeof *api);
}
