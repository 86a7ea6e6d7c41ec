/* The kernel metadata our OpenCL platform reads from a program binary
 * (cl_kernel_meta.c: `.ventus.args.<k>`, `.ventus.resource.<k>`,
 * `.ventus.attrs.<k>`), through clCreateProgramWithBinary and
 * clBuildProgram. An input starting with the ELF magic is the whole binary;
 * any other is one section's new contents: byte 0 picks a metadata section
 * of the template (seeds/kmeta/clapi.elf, four kernels), the rest replaces
 * it (appended to the file, the section header pointed at it), so the
 * fuzzer reaches the parser without first having to build an ELF.
 * The platform must accept the binary or refuse it with a message in the
 * build log; an accepted kernel's arguments are bounded and consistent
 * (a pointer 4 bytes, a value 1..128, every query answered), take values
 * of their declared sizes and launch under the step budget. */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "fz_cl.h"

#define MAX_IMAGE (1u << 20)

static uint8_t *tmpl;
static size_t ntmpl;
static uint16_t meta[32]; /* section indices of the template's metadata */
static size_t nmeta;

static void init(void) {
  tmpl = fz_cl_seed("kmeta/clapi.elf", &ntmpl);
  const Elf32_Ehdr *h = (const Elf32_Ehdr *)tmpl;
  const Elf32_Shdr *sh = (const Elf32_Shdr *)(tmpl + h->e_shoff);
  const char *names = (const char *)tmpl + sh[h->e_shstrndx].sh_offset;
  for (uint16_t i = 1; i < h->e_shnum && nmeta < 32; i++)
    if (!strncmp(names + sh[i].sh_name, ".ventus.", 8)) meta[nmeta++] = i;
  if (!nmeta) abort();
}

static _Noreturn void fail(const char *what, cl_int rc) {
  fprintf(stderr, "fuzz_kmeta: %s (%d)\n", what, rc);
  abort();
}

static void check_arg(cl_kernel k, cl_uint i, cl_mem buf) {
  cl_kernel_arg_address_qualifier aq;
  cl_kernel_arg_access_qualifier acc;
  cl_kernel_arg_type_qualifier tq;
  char name[128], type[128];
  if (clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL) ||
      clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof acc, &acc, NULL) ||
      clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof tq, &tq, NULL) ||
      clGetKernelArgInfo(k, i, CL_KERNEL_ARG_NAME, sizeof name, name, NULL) ||
      clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_NAME, sizeof type, type, NULL))
    fail("an argument of an accepted kernel without its info", 0);
  uint32_t size = k->info.args[i].size; /* what clSetKernelArg will insist on */
  cl_int rc;
  switch (aq) {
  case CL_KERNEL_ARG_ADDRESS_GLOBAL:
  case CL_KERNEL_ARG_ADDRESS_CONSTANT:
    if (size != 4) fail("a pointer argument not of 4 bytes", (cl_int)size);
    rc = clSetKernelArg(k, i, sizeof buf, &buf);
    break;
  case CL_KERNEL_ARG_ADDRESS_LOCAL:
    if (size != 4) fail("a __local argument not of 4 bytes", (cl_int)size);
    rc = clSetKernelArg(k, i, 16, NULL);
    break;
  case CL_KERNEL_ARG_ADDRESS_PRIVATE: {
    if (!size || size > 128) fail("a by-value argument of 0 or over 128 bytes", (cl_int)size);
    uint8_t v[128] = {0};
    rc = clSetKernelArg(k, i, size, v);
    if (!rc && clSetKernelArg(k, i, size + 1, v) != CL_INVALID_ARG_SIZE) fail("a value of the wrong size taken", 0);
    break;
  }
  default: fail("an unknown address qualifier", (cl_int)aq);
  }
  if (rc) fail("clSetKernelArg with the declared size", rc);
}

static void check_kernel(cl_kernel k, cl_command_queue q, cl_mem buf) {
  cl_uint nargs;
  size_t reqd[3], wg;
  if (clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL) ||
      clGetKernelWorkGroupInfo(k, fz_cl_device(), CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof reqd, reqd, NULL) ||
      clGetKernelWorkGroupInfo(k, fz_cl_device(), CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL))
    fail("an accepted kernel without its info", 0);
  /* each argument record is at least 16 bytes of a section in the image */
  if (nargs > MAX_IMAGE / 16 || nargs != k->info.nargs) fail("an argument count out of bounds", (cl_int)nargs);
  size_t len = 0;
  if (clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, 0, NULL, &len) || !len) fail("no CL_KERNEL_ATTRIBUTES", 0);
  if (!k->info.has_args) { /* a kernel without argument metadata takes arguments as they come */
    if (nargs || clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_NAME, 0, NULL, &len) != CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
      fail("a kernel without argument metadata has arguments", (cl_int)nargs);
  } else {
    for (cl_uint i = 0; i < nargs; i++) check_arg(k, i, buf);
    if (clGetKernelArgInfo(k, nargs, CL_KERNEL_ARG_NAME, 0, NULL, &len) != CL_INVALID_ARG_INDEX)
      fail("an argument past the count has info", 0);
  }
  size_t global[3] = {4, 1, 1}, *local = reqd[0] ? reqd : NULL;
  if (local)
    for (int d = 0; d < 3; d++) global[d] = reqd[d];
  /* the code is the template's: whatever it does with these arguments
   * ends as a fault or at the step budget */
  (void)clEnqueueNDRangeKernel(q, k, 3, NULL, global, local, 0, NULL, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static cl_context ctx;
  static cl_command_queue q;
  static cl_mem buf;
  if (!tmpl) {
    init();
    ctx = fz_cl_context();
    q = clCreateCommandQueue(ctx, fz_cl_device(), 0, NULL);
    buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4096, NULL, NULL);
    if (!q || !buf) abort();
  }
  if (size > MAX_IMAGE) return 0;
  uint8_t *img;
  size_t n;
  if (size >= 4 && !memcmp(data, ELFMAG, SELFMAG)) {
    img = malloc(size ? size : 1);
    if (!img) abort();
    memcpy(img, data, size);
    n = size;
  } else {
    if (!size) return 0;
    size_t at = (ntmpl + 7) & ~(size_t)7, len = size - 1;
    n = at + len;
    img = calloc(1, n ? n : 1);
    if (!img) abort();
    memcpy(img, tmpl, ntmpl);
    memcpy(img + at, data + 1, len);
    const Elf32_Ehdr *h = (const Elf32_Ehdr *)img;
    Elf32_Shdr *s = (Elf32_Shdr *)(img + h->e_shoff) + meta[data[0] % nmeta];
    s->sh_offset = (Elf32_Off)at;
    s->sh_size = (Elf32_Word)len;
  }
  cl_int rc;
  cl_program p = fz_cl_program(ctx, img, n, &rc);
  free(img);
  if (!p) return 0;
  cl_uint nk = 0;
  cl_kernel ks[8];
  rc = clCreateKernelsInProgram(p, 8, ks, &nk);
  if (rc == CL_INVALID_VALUE) { /* more than 8: by name they still must work */
    nk = 0;
  } else if (rc) {
    fail("clCreateKernelsInProgram of an accepted binary", rc);
  }
  for (cl_uint i = 0; i < nk; i++) {
    check_kernel(ks[i], q, buf);
    clReleaseKernel(ks[i]);
  }
  if (clFinish(q)) fail("clFinish", 0);
  clReleaseProgram(p);
  return 0;
}
