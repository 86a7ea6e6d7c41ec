/* Bitonic sort in __local memory: each work-group sorts one block of
 * 2 * local size unsigned keys ascending with the full sorting network,
 * one compare-exchange per work-item and a barrier per step. */
kernel void bitonic_sort(global const uint *in, global uint *out, local uint *s) {
  uint t = get_local_id(0);
  uint pairs = get_local_size(0);
  uint n = 2 * pairs;
  uint base = get_group_id(0) * n;
  s[t] = in[base + t];
  s[t + pairs] = in[base + t + pairs];
  for (uint size = 2; size <= n; size <<= 1) {
    for (uint stride = size / 2; stride > 0; stride >>= 1) {
      barrier(CLK_LOCAL_MEM_FENCE);
      uint i = 2 * t - (t & (stride - 1)); /* the lower element of this item's pair */
      bool up = (i & size) == 0;            /* sub-sequences alternate; the last merge is ascending */
      uint p = s[i], q = s[i + stride];
      if ((p > q) == up) {
        s[i] = q;
        s[i + stride] = p;
      }
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[base + t] = s[t];
  out[base + t + pairs] = s[t + pairs];
}
