/* Separable convolution: a row pass then a column pass of a (2R+1)-tap
 * filter, each staging its tile and the filter's apron in __local memory.
 * Samples past the image's edge repeat the edge sample. Tiles are 16 wide
 * and 8 high (row pass: 16 + 2R columns; column pass: 8 + 2R rows). */
#pragma OPENCL FP_CONTRACT OFF /* the host's C reference rounds every step */
#define R 8
#define TX 16
#define TY 8

kernel void conv_rows(global const float *in, global float *out, constant float *f, int w, int h) {
  local float tile[TY][TX + 2 * R];
  int lx = get_local_id(0), ly = get_local_id(1);
  int x = get_global_id(0), y = get_global_id(1);
  global const float *row = in + y * w;
  tile[ly][lx + R] = row[x];
  if (lx < R) { /* the aprons left and right, R samples each */
    tile[ly][lx] = row[max(x - R, 0)];
    tile[ly][lx + TX + R] = row[min(x + TX, w - 1)];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  float s = 0.0f;
  for (int k = -R; k <= R; k++) s += f[k + R] * tile[ly][lx + R + k];
  out[y * w + x] = s;
}

kernel void conv_cols(global const float *in, global float *out, constant float *f, int w, int h) {
  local float tile[TY + 2 * R][TX];
  int lx = get_local_id(0), ly = get_local_id(1);
  int x = get_global_id(0), y = get_global_id(1);
  tile[ly + R][lx] = in[y * w + x];
  for (int k = ly; k < R; k += TY) { /* the aprons above and below, R rows each */
    tile[k][lx] = in[max(y - ly - R + k, 0) * w + x];
    tile[k + TY + R][lx] = in[min(y - ly + TY + k, h - 1) * w + x];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  float s = 0.0f;
  for (int k = -R; k <= R; k++) s += f[k + R] * tile[ly + R + k][lx];
  out[y * w + x] = s;
}
