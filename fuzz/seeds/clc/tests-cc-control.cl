// Control-flow kernels of the compiler's test suite: divergent if/else,
// loops with per-work-item trip counts, uniform loops, 3-D ids.

__kernel void diverge_ifelse(__global const int *in, __global int *out, uint n) {
  uint i = get_global_id(0);
  if (i < n) {
    int x = in[i], y;
    if (x & 1)
      y = 3 * x + 1;
    else
      y = x >> 1;
    if (y > 100)
      y -= 100;
    else if (y < 10)
      y *= 2;
    else
      y = -y;
    out[i] = y;
  }
}

__kernel void loop_trip(__global const uint *in, __global uint *out, uint n) {
  uint i = get_global_id(0);
  if (i >= n) return;
  uint sum = 0;
  for (uint k = 0; k < in[i]; k++) sum += (k * k) ^ i;
  out[i] = sum;
}

__kernel void collatz(__global const uint *in, __global uint *out, uint n) {
  uint i = get_global_id(0);
  if (i >= n) return;
  uint x = in[i], steps = 0;
  while (x > 1) {
    if (x & 1)
      x = 3 * x + 1;
    else
      x >>= 1;
    steps++;
  }
  out[i] = steps;
}

__kernel void uniform_loop(__global const int *in, __global int *out, uint n, uint m) {
  uint i = get_global_id(0);
  int acc = 0;
  for (uint j = 0; j < m; j++) {
    int v = in[(i + j) % n];
    if (v > 0)
      acc += v * (int)(j + 1);
    else
      acc -= v;
  }
  if (i < n) out[i] = acc;
}

// every work-item writes its ids, packed, at its global linear position
__kernel void ids3d(__global uint *out) {
  uint gx = get_global_id(0), gy = get_global_id(1), gz = get_global_id(2);
  uint w = get_global_size(0), h = get_global_size(1);
  uint lin = (gz * h + gy) * w + gx;
  __global uint *o = out + 4 * lin;
  o[0] = gx | gy << 8 | gz << 16 | get_work_dim() << 24;
  o[1] = get_local_id(0) | get_local_id(1) << 8 | get_local_id(2) << 16;
  o[2] = get_group_id(0) | get_group_id(1) << 8 | get_group_id(2) << 16;
  o[3] = get_local_size(0) | get_local_size(1) << 4 | get_local_size(2) << 8 | get_num_groups(0) << 12 |
         get_num_groups(1) << 16 | get_num_groups(2) << 20;
}

__kernel void nested_loops(__global const uint *in, __global uint *out, uint n) {
  uint i = get_global_id(0);
  if (i >= n) return;
  uint r = 0, lim = in[i] % 9u;
  for (uint a = 0; a < lim; a++)
    for (uint b = a; b < lim; b++)
      if ((a + b + i) % 3u == 0) r += a * 10u + b;
      else r ^= b;
  out[i] = r;
}

// early returns on per-work-item conditions, one inside a loop
__kernel void early_return(__global const int *in, __global int *out, uint n) {
  uint i = get_global_id(0);
  if (i >= n) return;
  int x = in[i];
  out[i] = -1;
  if (x < 0) return;
  for (int k = 0; k < x; k++) {
    if (k * k > x) {
      out[i] = k;
      return;
    }
  }
  out[i] = 1000 + x;
}

__kernel void break_continue(__global const uint *in, __global uint *out, uint n) {
  uint i = get_global_id(0);
  if (i >= n) return;
  uint limit = in[i], sum = 0, j;
  for (j = 0; j < 64; j++) {
    if ((j + i) % 5 == 0) continue;
    if (sum > limit) break;
    sum += j * 3 + 1;
  }
  out[i] = sum * 100 + j;
}

__kernel void switch_case(__global const int *in, __global int *out, uint n) {
  uint i = get_global_id(0);
  if (i >= n) return;
  int x = in[i], r = 0;
  switch (x % 7) {
  case 0: r = 10; break;
  case 1: r = x * 2;
  case 2: r += 5; break;
  case 3:
  case 4: r = -x; break;
  case -1: r = 77; break;
  default: r = x + 1000;
  }
  out[i] = r;
}

// a while(1) with two exits, the loop nested in a divergent if
__kernel void loop_exits(__global const uint *in, __global uint *out, uint n) {
  uint i = get_global_id(0);
  uint r = 0;
  if (i < n && (in[i] & 1)) {
    uint x = in[i];
    while (1) {
      x = x * 1103515245u + 12345u;
      r++;
      if ((x >> 16) % 13 == 0) break;
      if (r >= 40) {
        r += 1000;
        break;
      }
    }
  }
  if (i < n) out[i] = r;
}

// work-item functions with a dimension known only at run time (including 3)
__kernel void dims_runtime(__global uint *out) {
  uint lin = get_global_id(0) + get_global_size(0) * get_global_id(1);
  for (uint d = 0; d < 4; d++) {
    out[lin * 8 + d] = get_global_id(d);
    out[lin * 8 + 4 + d] = get_local_size(d) * 100 + get_num_groups(d);
  }
}
