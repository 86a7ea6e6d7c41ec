// The hand-written examples of kernels/examples/*.S in OpenCL C, same
// arguments and results: docs/compiler.md compares the compiled code with
// the hand-written code, and the suite checks both against
// tests/kernels/ref_kernels.c.

__kernel void vecadd(__global const float *A, __global const float *B, __global float *C, uint n) {
  uint i = get_global_id(0);
  if (i < n) C[i] = A[i] + B[i];
}

__kernel void matmul(__global const int *A, __global const int *B, __global int *C, uint M, uint K, uint N) {
  uint j = get_global_id(0), i = get_global_id(1);
  if (i < M && j < N) {
    int acc = 0;
    for (uint k = 0; k < K; k++) acc += A[i * K + k] * B[k * N + j];
    C[i * N + j] = acc;
  }
}

__kernel void diverge(__global const uint *in, __global uint *out, uint n) {
  uint i = get_global_id(0);
  if (i < n) {
    uint x = in[i], steps = 0, cls;
    while (x > 1) {
      if (x & 1)
        x = 3 * x + 1;
      else
        x = x >> 1;
      steps++;
    }
    if (steps < 8)
      cls = (i & 1) ? 1 : 2;
    else
      cls = (steps >= 32) ? 3 : 0;
    out[i] = steps * 4 + cls;
  }
}

// reduce.S: one sum per work-group through __local memory (local size a
// power of two, at most 256)
__kernel void reduce(__global const int *in, __global int *out, uint n) {
  __local int part[256];
  uint l = get_local_id(0), gid = get_global_id(0);
  part[l] = gid < n ? in[gid] : 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (l < s) part[l] += part[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) out[get_group_id(0)] = part[0];
}
