// Rodinia-style applications (simplified kernels of the Rodinia benchmark
// suite's OpenCL versions, written for this project): each is checked
// against plain C in tests/cc/test_cc_kernels.c; a*b+c is not contracted
// here, so the references are plain C float arithmetic.
#pragma OPENCL FP_CONTRACT OFF

// bfs: one level of a breadth-first search over a CSR graph
__kernel void bfs_level(__global const int *row, __global const int *col, __global int *cost,
                        __global const uchar *frontier, __global uchar *next, __global int *changed, int n) {
  int v = get_global_id(0);
  if (v >= n || !frontier[v]) return;
  for (int e = row[v]; e < row[v + 1]; e++) {
    int w = col[e];
    if (cost[w] < 0) {
      cost[w] = cost[v] + 1;
      next[w] = 1;
      *changed = 1;
    }
  }
}

// gaussian elimination, Rodinia's Fan1 and Fan2 for column t
__kernel void fan1(__global float *m, __global const float *a, int size, int t) {
  int i = get_global_id(0);
  if (i >= size - 1 - t) return;
  m[size * (i + t + 1) + t] = a[size * (i + t + 1) + t] / a[size * t + t];
}

__kernel void fan2(__global const float *m, __global float *a, __global float *b, int size, int t) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= size - 1 - t || y >= size - t) return;
  a[size * (x + 1 + t) + (y + t)] -= m[size * (x + 1 + t) + t] * a[size * t + (y + t)];
  if (y == 0) b[x + 1 + t] -= m[size * (x + 1 + t) + t] * b[t];
}

// nn: distance of every record to a query point
__kernel void nn_dist(__global const float2 *loc, __global float *dist, int n, float lat, float lng) {
  int i = get_global_id(0);
  if (i < n) {
    float2 p = loc[i];
    dist[i] = sqrt((lat - p.x) * (lat - p.x) + (lng - p.y) * (lng - p.y));
  }
}

// kmeans: nearest of k centres for each point (features in columns)
__kernel void kmeans_assign(__global const float *feat, __global const float *centres, __global int *member, int n,
                            int k, int nf) {
  int p = get_global_id(0);
  if (p >= n) return;
  int best = 0;
  float bestd = 3.0e38f;
  for (int c = 0; c < k; c++) {
    float d = 0.0f;
    for (int f = 0; f < nf; f++) {
      float diff = feat[f * n + p] - centres[c * nf + f];
      d += diff * diff;
    }
    if (d < bestd) {
      bestd = d;
      best = c;
    }
  }
  member[p] = best;
}

// backprop: one layer forward, sigmoid through the exponential unit
__kernel void bp_layer(__global const float *in, __global const float *w, __global float *out, int nin, int nout) {
  int j = get_global_id(0);
  if (j >= nout) return;
  float s = w[j];
  for (int i = 0; i < nin; i++) s += w[(i + 1) * nout + j] * in[i];
  out[j] = 1.0f / (1.0f + native_exp(-s));
}

// hotspot: one step of the thermal stencil (clamped borders)
__kernel void hotspot_step(__global const float *temp, __global const float *power, __global float *out, int w,
                           int h, float cap, float rx, float ry, float rz, float amb) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= w || y >= h) return;
  int c = y * w + x;
  float t = temp[c];
  float n = temp[(y > 0 ? y - 1 : y) * w + x], s = temp[(y < h - 1 ? y + 1 : y) * w + x];
  float e = temp[y * w + (x < w - 1 ? x + 1 : x)], wv = temp[y * w + (x > 0 ? x - 1 : x)];
  out[c] = t + cap * (power[c] + (n + s - 2.0f * t) * ry + (e + wv - 2.0f * t) * rx + (amb - t) * rz);
}

// pathfinder: one row of the minimum-cost path dynamic programme
__kernel void pathfinder_row(__global const int *wall, __global const int *prev, __global int *cur, int cols,
                             int row) {
  int x = get_global_id(0);
  if (x >= cols) return;
  int best = prev[x];
  if (x > 0) best = min(best, prev[x - 1]);
  if (x < cols - 1) best = min(best, prev[x + 1]);
  cur[x] = best + wall[row * cols + x];
}
