/* The kernels of the fuzz_clapi and fuzz_kmeta harnesses (fuzz/README.md):
 * small, with every kind of argument, and one that may run long. */
__kernel void add1(__global int *a, int n) {
  size_t i = get_global_id(0);
  if (i < (size_t)n) a[i] += 1;
}

__kernel __attribute__((reqd_work_group_size(4, 1, 1)))
void scan4(__global const int *in, __global int *out, __local int *tmp, int scale) {
  size_t l = get_local_id(0);
  tmp[l] = in[get_global_id(0)] * scale;
  barrier(CLK_LOCAL_MEM_FENCE);
  int s = 0;
  for (size_t k = 0; k <= l; k++) s += tmp[k];
  out[get_global_id(0)] = s;
}

typedef struct { int x; float y; char z[6]; } rec;

__kernel void byval(__global float *out, rec r, float4 v, __constant int *c, uchar u) {
  out[get_global_id(0)] = r.y + v.x + v.w + (float)(r.x + c[0] + r.z[5] + u);
}

/* runs until the step budget unless a[0] is non-zero */
__kernel void spin(__global volatile int *a) {
  while (a[0] == 0) {
  }
  a[1] = 1;
}
