/* Tiled transpose: each work-group reads a 16x16 tile row by row into
 * __local memory (one column of padding so that the column reads do not
 * fall into one bank), and writes it out transposed, again row by row.
 * in is h rows of w, out w rows of h; w and h are multiples of 16. */
#define TILE 16

kernel void transpose(global const float *in, global float *out, int w, int h) {
  local float tile[TILE][TILE + 1];
  int lx = get_local_id(0), ly = get_local_id(1);
  int gx = get_group_id(0) * TILE, gy = get_group_id(1) * TILE;
  tile[ly][lx] = in[(gy + ly) * w + gx + lx];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[(gx + ly) * h + gy + lx] = tile[lx][ly];
}
