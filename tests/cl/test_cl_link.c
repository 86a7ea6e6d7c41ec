/* Separate compilation through the OpenCL API: clCompileProgram with an
 * input header (in a subdirectory name) and per-unit options,
 * clLinkProgram resolving a function defined in another unit while each
 * unit keeps its own static function of the same name, libraries
 * (-create-library), the binary types, compiled objects and libraries
 * through CL_PROGRAM_BINARIES and back (each keeps its type), the failures
 * and their logs, and the
 * context's build cache (a second clBuildProgram of the same source and
 * options does not run the compiler: with clang made unreachable it still
 * succeeds, with other options it fails). */
#include "cl_test.h"

#include <stdint.h>

static cl_context ctx;
static cl_device_id dev;
static cl_command_queue q;

static const char *hdr = "#define SCALE 3\nint helper(int x);\n";
static const char *src_a =
    "#include \"inc/util.h\"\n"
    "static int twice(int x) { return x * 2; }\n"
    "__kernel void run(__global int *out) {\n"
    "  int i = get_global_id(0);\n"
    "  out[i] = helper(i) * SCALE + twice(i) + OFF;\n"
    "}\n";
static const char *src_b = "static int twice(int x) { return x * 5; }\nint helper(int x) { return twice(x) + BASE; }\n";

enum { N = 64 };

static cl_program from_source(const char *s) {
  cl_int err;
  cl_program p = clCreateProgramWithSource(ctx, 1, &s, NULL, &err);
  CHECK(err);
  return p;
}

static cl_program_binary_type btype(cl_program p) {
  cl_program_binary_type t = 0;
  CHECK(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BINARY_TYPE, sizeof t, &t, NULL));
  return t;
}

static int log_has(cl_program p, const char *what) {
  static char log[8192];
  log[0] = 0;
  CHECK(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL));
  if (strstr(log, what)) return 1;
  fprintf(stderr, "build log without '%s':\n%s\n", what, log);
  return 0;
}

/* runs kernel "run" of p and checks out[i] == 17 i + base*3 + off */
static void check_run(cl_program p, int base, int off) {
  cl_int err;
  cl_kernel k = clCreateKernel(p, "run", &err);
  CHECK(err);
  cl_mem O = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, N * 4, NULL, &err);
  CHECK(err);
  CHECK(clSetKernelArg(k, 0, sizeof O, &O));
  size_t g = N;
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
  int out[N];
  CHECK(clEnqueueReadBuffer(q, O, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
  int bad = 0;
  for (int i = 0; i < N; i++) bad += out[i] != (5 * i + base) * 3 + 2 * i + off;
  EXPECT(!bad);
  if (bad) fprintf(stderr, "out[1] = %d, expected %d\n", out[1], (5 + base) * 3 + 2 + off);
  CHECK(clReleaseMemObject(O));
  CHECK(clReleaseKernel(k));
}

static void separate_compilation(void) {
  cl_int err;
  cl_program h = from_source(hdr), a = from_source(src_a), b = from_source(src_b);
  const char *name = "inc/util.h";
  EXPECT(btype(a) == CL_PROGRAM_BINARY_TYPE_NONE);
  /* without the header the front end fails, and says why */
  EXPECT_ERR(clCompileProgram(a, 1, &dev, "-D OFF=7", 0, NULL, NULL, NULL, NULL), CL_COMPILE_PROGRAM_FAILURE);
  EXPECT(log_has(a, "inc/util.h"));
  const char *abs = "/tmp/util.h";
  EXPECT_ERR(clCompileProgram(a, 1, &dev, "", 1, &h, &abs, NULL, NULL), CL_INVALID_VALUE);
  EXPECT_ERR(clCompileProgram(a, 1, &dev, "", 1, &h, NULL, NULL, NULL), CL_INVALID_VALUE);
  EXPECT_ERR(clCompileProgram(a, 1, &dev, "-bogus", 1, &h, &name, NULL, NULL), CL_INVALID_COMPILER_OPTIONS);
  CHECK(clCompileProgram(a, 1, &dev, "-D OFF=7", 1, &h, &name, NULL, NULL));
  CHECK(clCompileProgram(b, 0, NULL, "-D BASE=100", 0, NULL, NULL, NULL, NULL));
  EXPECT(btype(a) == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
  cl_build_status st;
  CHECK(clGetProgramBuildInfo(a, dev, CL_PROGRAM_BUILD_STATUS, sizeof st, &st, NULL));
  EXPECT(st == CL_BUILD_SUCCESS);

  /* a source program that was not compiled is no object */
  cl_program ab[2] = {a, b}, raw = from_source(src_b);
  cl_program mixed[2] = {a, raw};
  EXPECT(!clLinkProgram(ctx, 1, &dev, "", 2, mixed, NULL, NULL, &err) && err == CL_INVALID_OPERATION);
  EXPECT(!clLinkProgram(ctx, 1, &dev, "-bogus", 2, ab, NULL, NULL, &err) && err == CL_INVALID_LINKER_OPTIONS);
  EXPECT(!clLinkProgram(ctx, 1, &dev, "", 0, ab, NULL, NULL, &err) && err == CL_INVALID_VALUE);

  cl_program exe = clLinkProgram(ctx, 1, &dev, "", 2, ab, NULL, NULL, &err);
  CHECK(err);
  EXPECT(btype(exe) == CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
  check_run(exe, 100, 7);

  /* b as a library, linked with a */
  cl_program lib = clLinkProgram(ctx, 1, &dev, "-create-library", 1, &b, NULL, NULL, &err);
  CHECK(err);
  EXPECT(btype(lib) == CL_PROGRAM_BINARY_TYPE_LIBRARY);
  EXPECT_ERR(clCreateKernel(lib, "run", &err) ? CL_SUCCESS : err, CL_INVALID_PROGRAM_EXECUTABLE);
  cl_program alib[2] = {a, lib};
  cl_program exe2 = clLinkProgram(ctx, 1, &dev, "-enable-link-options -cl-fast-relaxed-math", 2, alib, NULL, NULL, &err);
  CHECK(err);
  check_run(exe2, 100, 7);

  /* helper defined twice: the link fails, the program carries the log */
  cl_program b2 = from_source(src_b);
  CHECK(clCompileProgram(b2, 1, &dev, "-D BASE=1", 0, NULL, NULL, NULL, NULL));
  cl_program twice[3] = {a, b, b2};
  cl_program bad = clLinkProgram(ctx, 1, &dev, "", 3, twice, NULL, NULL, &err);
  EXPECT(err == CL_LINK_PROGRAM_FAILURE && bad);
  if (bad) {
    EXPECT(log_has(bad, "helper"));
    CHECK(clGetProgramBuildInfo(bad, dev, CL_PROGRAM_BUILD_STATUS, sizeof st, &st, NULL));
    EXPECT(st == CL_BUILD_ERROR);
    CHECK(clReleaseProgram(bad));
  }

  /* an object through CL_PROGRAM_BINARIES and clCreateProgramWithBinary */
  size_t len = 0;
  CHECK(clGetProgramInfo(a, CL_PROGRAM_BINARY_SIZES, sizeof len, &len, NULL));
  unsigned char *bin = malloc(len);
  EXPECT(bin && len > 4);
  CHECK(clGetProgramInfo(a, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL));
  cl_int bs;
  cl_program a2 = clCreateProgramWithBinary(ctx, 1, &dev, &len, (const unsigned char **)&bin, &bs, &err);
  CHECK(err);
  EXPECT(btype(a2) == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
  cl_program a2b[2] = {a2, b};
  cl_program exe3 = clLinkProgram(ctx, 1, &dev, "", 2, a2b, NULL, NULL, &err);
  CHECK(err);
  check_run(exe3, 100, 7);
  /* clBuildProgram of an object alone: helper stays undefined */
  EXPECT_ERR(clBuildProgram(a2, 1, &dev, "", NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
  EXPECT(log_has(a2, "helper"));
  EXPECT(btype(a2) == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
  free(bin);

  /* a library through CL_PROGRAM_BINARIES and back stays a library (the
   * CTS's program_binary_type), and links with a */
  CHECK(clGetProgramInfo(lib, CL_PROGRAM_BINARY_SIZES, sizeof len, &len, NULL));
  bin = malloc(len);
  EXPECT(bin && len > 4);
  CHECK(clGetProgramInfo(lib, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL));
  cl_program lib2 = clCreateProgramWithBinary(ctx, 1, &dev, &len, (const unsigned char **)&bin, &bs, &err);
  CHECK(err);
  EXPECT(btype(lib2) == CL_PROGRAM_BINARY_TYPE_LIBRARY);
  cl_program alib2[2] = {a, lib2};
  cl_program exe4 = clLinkProgram(ctx, 1, &dev, "", 2, alib2, NULL, NULL, &err);
  CHECK(err);
  EXPECT(btype(exe4) == CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
  check_run(exe4, 100, 7);
  /* plain LLVM bitcode (the library's, unwrapped by the wrapper header's
   * offset and size words) is taken as a compiled object */
  uint32_t off, size;
  memcpy(&off, bin + 8, 4), memcpy(&size, bin + 12, 4);
  int wrapped = bin[0] == 0xde && bin[1] == 0xc0 && bin[2] == 0x17 && bin[3] == 0x0b && off < len && size == len - off;
  EXPECT(wrapped);
  const unsigned char *plain = wrapped ? bin + off : bin;
  size_t plen = wrapped ? size : len;
  cl_program obj = clCreateProgramWithBinary(ctx, 1, &dev, &plen, &plain, &bs, &err);
  CHECK(err);
  EXPECT(plain[0] == 'B' && plain[1] == 'C' && btype(obj) == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
  free(bin);

  cl_program rel[] = {h, a, b, raw, exe, lib, exe2, b2, a2, exe3, lib2, exe4, obj};
  for (size_t i = 0; i < sizeof rel / sizeof *rel; i++) CHECK(clReleaseProgram(rel[i]));
}

static void build_cache(void) {
  static const char *s = "__kernel void run(__global int *out) {\n"
                         "  int i = get_global_id(0);\n"
                         "  out[i] = (5 * i + BASE) * 3 + 2 * i + OFF;\n"
                         "}\n";
  cl_program p1 = from_source(s), p2 = from_source(s), p3 = from_source(s);
  CHECK(clBuildProgram(p1, 1, &dev, "-D BASE=4 -D OFF=1", NULL, NULL));
  check_run(p1, 4, 1);
  /* the front end cannot run now: only the cached build can succeed */
  setenv("CHENGYING_CLANG", "/nonexistent/clang-19", 1);
  CHECK(clBuildProgram(p2, 1, &dev, "-D BASE=4 -D OFF=1", NULL, NULL));
  check_run(p2, 4, 1);
  EXPECT_ERR(clBuildProgram(p3, 1, &dev, "-D BASE=4 -D OFF=2", NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
  EXPECT(log_has(p3, "/nonexistent/clang-19"));
  unsetenv("CHENGYING_CLANG");
  CHECK(clBuildProgram(p3, 1, &dev, "-D BASE=4 -D OFF=2", NULL, NULL));
  check_run(p3, 4, 2);
  CHECK(clReleaseProgram(p1));
  CHECK(clReleaseProgram(p2));
  CHECK(clReleaseProgram(p3));
}

int main(void) {
  if (!cy_test_cc_setup(CL_DEVICE_LINKER_AVAILABLE, &dev, &ctx, &q)) return 0;
  separate_compilation();
  build_cache();
  CHECK(clReleaseCommandQueue(q));
  CHECK(clReleaseContext(ctx));
  if (cy_failures) return 1;
  printf("separate compilation, linking, libraries and the build cache work\n");
  return 0;
}
