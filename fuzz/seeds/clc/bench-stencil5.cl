/* 5-point stencil (one Jacobi sweep): each work-group stages its 16x16 tile
 * and a one-cell halo in __local memory, then every work-item combines its
 * cell with its four neighbours. Cells past the grid's edge repeat the edge
 * cell. The host runs several sweeps, ping-ponging two buffers. */
#pragma OPENCL FP_CONTRACT OFF /* the host's C reference rounds every step */
#define TILE 16

kernel void stencil5(global const float *in, global float *out, int w, int h, float c0, float c1) {
  local float tile[TILE + 2][TILE + 2];
  int lx = get_local_id(0), ly = get_local_id(1);
  int x = get_global_id(0), y = get_global_id(1);
  tile[ly + 1][lx + 1] = in[y * w + x];
  if (lx == 0) tile[ly + 1][0] = in[y * w + max(x - 1, 0)];
  if (lx == TILE - 1) tile[ly + 1][TILE + 1] = in[y * w + min(x + 1, w - 1)];
  if (ly == 0) tile[0][lx + 1] = in[max(y - 1, 0) * w + x];
  if (ly == TILE - 1) tile[TILE + 1][lx + 1] = in[min(y + 1, h - 1) * w + x];
  barrier(CLK_LOCAL_MEM_FENCE);
  float around = tile[ly][lx + 1] + tile[ly + 2][lx + 1] + tile[ly + 1][lx] + tile[ly + 1][lx + 2];
  out[y * w + x] = c0 * tile[ly + 1][lx + 1] + c1 * around;
}
