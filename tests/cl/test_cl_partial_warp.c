/* Work-groups whose size no warp width divides within an SM's warp slots
 * (67 work-items: one-thread warps would need 67 warps) run in warps of
 * the widest width with the last warp partly idle. The hardware runs every
 * lane of a warp, so such a group once ran 96 "work-items": 29 phantom ones
 * with local ids 67..95 that counted in atomics and wrote where they should
 * not. Every work-item here counts itself once and records its ids; the
 * expected values are plain arithmetic on the NDRange. Also: a run-time
 * dimension past get_work_dim() gives ids 0 and sizes 1 (OpenCL 1.2 §6.12.1,
 * the CTS's work_item_functions_out_of_range). */
#include "cl_test.h"

#include <stdint.h>

static cl_context ctx;
static cl_device_id dev;
static cl_command_queue q;

static const char *src =
    "__kernel void ids(__global uint *out, __global uint *count, int d) {\n"
    "  uint i = get_global_id(0);\n"
    "  atomic_inc(count);\n"
    "  atomic_add(count + 1, (uint)get_local_id(0));\n"
    "  out[4 * i] = get_local_id(0) | get_group_id(0) << 16;\n"
    "  out[4 * i + 1] = get_global_id((uint)d) | get_local_id((uint)d) << 8 | get_group_id((uint)d) << 16;\n"
    "  out[4 * i + 2] = get_global_size((uint)d) | get_local_size((uint)d) << 8 | get_num_groups((uint)d) << 16;\n"
    "  out[4 * i + 3] = get_global_offset((uint)d);\n"
    "}\n";

static void run(cl_kernel k, size_t global, size_t local, int d) {
  cl_int err;
  cl_mem O = clCreateBuffer(ctx, CL_MEM_READ_WRITE, global * 16 + 64, NULL, &err);
  CHECK(err);
  cl_mem C = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 8, NULL, &err);
  CHECK(err);
  uint32_t zero[2] = {0, 0};
  CHECK(clEnqueueWriteBuffer(q, C, CL_TRUE, 0, sizeof zero, zero, 0, NULL, NULL));
  /* a sentinel past the NDRange: a phantom work-item would overwrite it */
  uint32_t sentinel[16];
  for (int j = 0; j < 16; j++) sentinel[j] = 0xdead0000u + (uint32_t)j;
  CHECK(clEnqueueWriteBuffer(q, O, CL_TRUE, global * 16, sizeof sentinel, sentinel, 0, NULL, NULL));
  CHECK(clSetKernelArg(k, 0, sizeof O, &O));
  CHECK(clSetKernelArg(k, 1, sizeof C, &C));
  CHECK(clSetKernelArg(k, 2, sizeof d, &d));
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
  uint32_t *out = malloc(global * 16 + 64), cnt[2];
  CHECK(clEnqueueReadBuffer(q, O, CL_TRUE, 0, global * 16 + 64, out, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, C, CL_TRUE, 0, sizeof cnt, cnt, 0, NULL, NULL));
  uint64_t lidsum = (uint64_t)(global / local) * (local * (local - 1) / 2);
  if (cnt[0] != global || cnt[1] != (uint32_t)lidsum) {
    fprintf(stderr, "global %zu local %zu: %u work-items counted (want %zu), local ids sum %u (want %u)\n", global,
            local, cnt[0], global, cnt[1], (uint32_t)lidsum);
    cy_failures++;
  }
  for (size_t i = 0; i < global; i++) {
    uint32_t w0 = (uint32_t)(i % local) | (uint32_t)(i / local) << 16;
    /* d == 0: the real ids; d >= work_dim: ids and offset 0, sizes 1 */
    uint32_t w1 = d == 0 ? (uint32_t)i | (uint32_t)(i % local) << 8 | (uint32_t)(i / local) << 16 : 0;
    uint32_t w2 = d == 0 ? (uint32_t)global | (uint32_t)local << 8 | (uint32_t)(global / local) << 16
                         : 1u | 1u << 8 | 1u << 16;
    if (out[4 * i] != w0 || out[4 * i + 1] != w1 || out[4 * i + 2] != w2 || out[4 * i + 3] != 0) {
      fprintf(stderr, "global %zu local %zu d %d: work-item %zu wrote %08x %08x %08x %08x, want %08x %08x %08x 0\n",
              global, local, d, i, out[4 * i], out[4 * i + 1], out[4 * i + 2], out[4 * i + 3], w0, w1, w2);
      cy_failures++;
      break;
    }
  }
  for (int j = 0; j < 16; j++)
    if (out[global * 4 + (size_t)j] != sentinel[j]) {
      fprintf(stderr, "global %zu local %zu: word %d past the NDRange overwritten (0x%08x)\n", global, local, j,
              out[global * 4 + (size_t)j]);
      cy_failures++;
      break;
    }
  free(out);
  CHECK(clReleaseMemObject(O));
  CHECK(clReleaseMemObject(C));
}

int main(void) {
  if (!cy_test_cc_setup(CL_DEVICE_COMPILER_AVAILABLE, &dev, &ctx, &q)) return 0;
  cl_int err;
  cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  CHECK(err);
  CHECK(clBuildProgram(p, 1, &dev, NULL, NULL, NULL));
  cl_kernel k = clCreateKernel(p, "ids", &err);
  CHECK(err);
  static const size_t shapes[][2] = {{134, 67}, {37, 37}, {2 * 97, 97}, {64, 64}, {8, 4}, {3 * 33, 33}};
  for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
    run(k, shapes[s][0], shapes[s][1], 0);
    for (int d = 1; d <= 4; d++) run(k, shapes[s][0], shapes[s][1], d);
  }
  CHECK(clReleaseKernel(k));
  CHECK(clReleaseProgram(p));
  CHECK(clReleaseCommandQueue(q));
  CHECK(clReleaseContext(ctx));
  return cy_test_end("test_cl_partial_warp");
}
