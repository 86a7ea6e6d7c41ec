// OpenCL C kernels of the RTL reference suite (bench/rtl/suite.txt; the
// tiled transpose is tests/cc/kernels/memory.cl's): the
// patterns of real programs the timing model is held to, small enough for a
// Verilated RTL run of seconds. Each is checked on the RTL against the
// functional simulator's final memory (ventus-rtl check).

// 5-point stencil on a W x H grid (border cells copied), as in Jacobi and
// hotspot solvers.
__kernel void stencil(__global const float *src, __global float *dst, uint w, uint h) {
  uint x = get_global_id(0), y = get_global_id(1);
  if (x >= w || y >= h) return;
  uint i = y * w + x;
  if (x == 0 || y == 0 || x == w - 1 || y == h - 1) {
    dst[i] = src[i];
    return;
  }
  dst[i] = 0.2f * (src[i] + src[i - 1] + src[i + 1] + src[i - w] + src[i + w]);
}

// Work-group sum (up to 64 items) by a tree in __local memory with a barrier
// at every step.
__kernel void reduce(__global const int *in, __global int *out) {
  __local int tmp[64];
  uint l = get_local_id(0), n = get_local_size(0);
  tmp[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = n / 2; s > 0; s >>= 1) {
    if (l < s) tmp[l] += tmp[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) out[get_group_id(0)] = tmp[0];
}

// Bitonic sort of each work-group's slice (up to 64) in __local memory.
__kernel void bitonic(__global uint *data) {
  __local uint s[64];
  uint l = get_local_id(0), n = get_local_size(0), base = get_group_id(0) * n;
  s[l] = data[base + l];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint k = 2; k <= n; k <<= 1)
    for (uint j = k >> 1; j > 0; j >>= 1) {
      uint p = l ^ j;
      if (p > l) {
        uint a = s[l], b = s[p];
        bool up = (l & k) == 0;
        if ((a > b) == up) {
          s[l] = b;
          s[p] = a;
        }
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  data[base + l] = s[l];
}

// Divergent search: each work-item scans for its key and stops at the first
// match, so lanes leave the loop at very different trip counts.
__kernel void search(__global const uint *hay, uint n, __global const uint *keys, __global int *pos) {
  uint i = get_global_id(0);
  uint key = keys[i];
  int found = -1;
  for (uint j = 0; j < n; j++)
    if (hay[j] == key) {
      found = (int)j;
      break;
    }
  pos[i] = found;
}
