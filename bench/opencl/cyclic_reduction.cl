/* Cyclic reduction: one tridiagonal system of n = 2 * local size unknowns per
 * work-group, solved in __local memory with a barrier at every step (the
 * pattern of the GPU tridiagonal solvers of Zhang, Cohen and Owens, 2010).
 * a: sub-diagonal, b: diagonal, c: super-diagonal, d: right-hand side. */
#pragma OPENCL FP_CONTRACT OFF /* the host's C reference rounds every step */

kernel void cyclic_reduction(global const float *a, global const float *b, global const float *c,
                             global const float *d, global float *x, local float *la, local float *lb,
                             local float *lc, local float *ld, local float *lx) {
  int t = get_local_id(0);
  int pairs = get_local_size(0);
  int n = 2 * pairs;
  int base = get_group_id(0) * n;
  la[t] = a[base + t], la[t + pairs] = a[base + t + pairs];
  lb[t] = b[base + t], lb[t + pairs] = b[base + t + pairs];
  lc[t] = c[base + t], lc[t + pairs] = c[base + t + pairs];
  ld[t] = d[base + t], ld[t + pairs] = d[base + t + pairs];

  /* forward reduction: each step halves the system; the even-numbered
   * equations of the previous step are eliminated from the odd ones */
  int stride = 1;
  for (int active = pairs; active > 1; active /= 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
    stride *= 2;
    int delta = stride / 2;
    if (t < active) {
      int i = stride * t + stride - 1;
      float k1 = la[i] / lb[i - delta];
      if (i == n - 1) { /* the last equation has no right neighbour */
        lb[i] = lb[i] - lc[i - delta] * k1;
        ld[i] = ld[i] - ld[i - delta] * k1;
        la[i] = -la[i - delta] * k1;
        lc[i] = 0.0f;
      } else {
        float k2 = lc[i] / lb[i + delta];
        lb[i] = lb[i] - lc[i - delta] * k1 - la[i + delta] * k2;
        ld[i] = ld[i] - ld[i - delta] * k1 - ld[i + delta] * k2;
        la[i] = -la[i - delta] * k1;
        lc[i] = -lc[i + delta] * k2;
      }
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (t == 0) { /* the two equations left */
    int i1 = stride - 1, i2 = 2 * stride - 1;
    float det = lb[i2] * lb[i1] - lc[i1] * la[i2];
    lx[i1] = (lb[i2] * ld[i1] - lc[i1] * ld[i2]) / det;
    lx[i2] = (ld[i2] * lb[i1] - ld[i1] * la[i2]) / det;
  }
  /* backward substitution: the eliminated unknowns, coarsest level first */
  for (int active = 2; active <= pairs; active *= 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
    int delta = stride / 2;
    if (t < active) {
      int i = stride * t + delta - 1;
      if (i == delta - 1)
        lx[i] = (ld[i] - lc[i] * lx[i + delta]) / lb[i];
      else
        lx[i] = (ld[i] - la[i] * lx[i - delta] - lc[i] * lx[i + delta]) / lb[i];
    }
    stride /= 2;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  x[base + t] = lx[t];
  x[base + t + pairs] = lx[t + pairs];
}
