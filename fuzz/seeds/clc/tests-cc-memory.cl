// Memory kernels of the compiler's test suite: __local data and barriers,
// 2-D matrix multiply, 8/16-bit data, __constant tables.

__kernel void reduce_local(__global const int *in, __global int *out) {
  __local int tmp[64];
  uint l = get_local_id(0);
  tmp[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (l < s) tmp[l] += tmp[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) out[get_group_id(0)] = tmp[0];
}

// C (M x N) = A (M x K) * B (K x N); x = column, y = row
__kernel void matmul(__global const float *A, __global const float *B, __global float *C, uint M, uint K, uint N) {
  uint col = get_global_id(0), row = get_global_id(1);
  if (row >= M || col >= N) return;
  float acc = 0.0f;
  for (uint k = 0; k < K; k++) acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc;
}

// transpose through a __local tile: 8x8 work-groups
__kernel void transpose(__global const uint *in, __global uint *out, uint w, uint h) {
  __local uint tile[8][9];
  uint lx = get_local_id(0), ly = get_local_id(1);
  uint x = get_global_id(0), y = get_global_id(1);
  tile[ly][lx] = in[y * w + x];
  barrier(CLK_LOCAL_MEM_FENCE);
  uint ox = get_group_id(1) * 8 + lx, oy = get_group_id(0) * 8 + ly;
  out[oy * h + ox] = tile[lx][ly];
}

__kernel void bytes(__global const uchar *in, __global uchar *out, __global const short *s, __global short *so,
                    uint n) {
  uint i = get_global_id(0);
  if (i >= n) return;
  out[i] = (uchar)(in[i] * 3 + 1);
  short v = s[i];
  so[i] = (short)((v >> 1) + (v < 0 ? -7 : 7));
}

__constant uint table[16] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3};

__kernel void ctable(__global const uint *in, __global uint *out, uint n) {
  uint i = get_global_id(0);
  if (i < n) out[i] = table[in[i] & 15] * 100 + table[(in[i] >> 4) & 15];
}

// private arrays (indexed at run time) and an array of structs: the
// work-item's own frame at tp, reached with vlw.v/vsw.v
typedef struct {
  int a;
  float b;
  short c[3];
} rec;

__kernel void private_mem(__global const int *in, __global int *out, uint n) {
  uint i = get_global_id(0);
  if (i >= n) return;
  int hist[8] = {0};
  int primes[6] = {2, 3, 5, 7, 11, 13};
  for (int k = 0; k < 16; k++) hist[(in[i] >> k) & 7]++;
  rec r[4];
  for (int k = 0; k < 4; k++) {
    r[k].a = in[(i + k) % n];
    r[k].b = (float)k * 0.5f;
    r[k].c[k % 3] = (short)(k - 2);
  }
  int acc = 0;
  for (int k = 0; k < 8; k++) acc += hist[k] * primes[(k + in[i]) % 6];
  out[i] = acc + r[in[i] & 3].a + (int)(4.0f * r[i & 3].b) + r[i & 3].c[(i & 3) % 3];
}

// global atomics: a histogram; every work-item records the count it saw
__kernel void atomics_global(__global const uint *in, __global uint *bins, __global uint *seen, __global int *misc,
                             uint n) {
  uint i = get_global_id(0);
  if (i >= n) return;
  seen[i] = atomic_inc(&bins[in[i] % 8]);
  atomic_sub(&misc[0], (int)i);
  atomic_or(&misc[1], 1 << (i % 31));
  atomic_and(&misc[2], ~(1 << (i % 29)));
  atomic_xor(&misc[3], (int)in[i]);
  atomic_min(&misc[4], (int)in[i] - 5000);
  atomic_max((__global uint *)&misc[5], in[i]);
}

// __local atomics per work-group, and one winner of a compare-and-swap
__kernel void atomics_local(__global const int *in, __global int *out, __global int *won) {
  __local int c[5];
  uint l = get_local_id(0), g = get_group_id(0);
  if (l < 5) c[l] = l == 2 ? 1 << 30 : 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  int x = in[get_global_id(0)];
  if (x > 0) atomic_inc(&c[0]);
  atomic_max(&c[1], x);
  atomic_min(&c[2], x);
  atomic_add(&c[3], x);
  won[get_global_id(0)] = atomic_cmpxchg(&c[4], 0, (int)l + 1);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l < 5) out[g * 5 + l] = c[l];
}
