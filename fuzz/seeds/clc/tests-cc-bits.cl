/* Bit builtins without bit-counting instructions: clz, ctz, popcount,
 * rotate, bitselect and byte swaps on every integer width. */
#define NB 18
static inline void bit_ops(uint x, uint y, ulong l, global uint *o, global ulong *o64) {
  o[0] = clz(x);
  o[1] = clz((ushort)x);
  o[2] = clz((uchar)x);
  o[3] = popcount(x);
  o[4] = popcount((uchar)y);
  o[5] = rotate(x, y);
  o[6] = rotate((ushort)x, (ushort)y);
  o[7] = rotate((uchar)x, (uchar)y);
  o[8] = bitselect(x, y, x ^ (y * 3u));
  o[9] = as_uint(bitselect(as_float(x), as_float(y), as_float(y << 3)));
  o[10] = __builtin_ctz(x | 0x80000000u);
  o[11] = __builtin_ctz(x | 0x100u) + (uint)__builtin_ctzs((ushort)(x | 0x8000u));
  o[12] = __builtin_bswap32(x);
  o[13] = __builtin_bswap16((ushort)y);
  o[14] = rotate((int)x, (int)(y & 7u) - 3);
  o[15] = (x << (y & 31)) | (x >> ((32 - (y & 31)) & 31)); /* the idiom LLVM turns into fshl */
  o[16] = clz((short)y) + popcount((short)y) * 64u;
  o[17] = clz(0u) + clz((uchar)0) * 64u + popcount(0u) * 4096u;
  o64[0] = popcount(l);
  o64[1] = clz(l);
  o64[2] = __builtin_bswap64(l);
  o64[3] = rotate(l, (ulong)y);
  o64[4] = bitselect(l, (ulong)x * 0x9e3779b97f4a7c15UL, l ^ (ulong)y << 17);
  o64[5] = __builtin_ctzll(l | 0x8000000000000000UL) + clz(l >> 40) * 256;
}

kernel void bits_lanes(global const uint *a, global const ulong *l, global uint *out, global ulong *out64) {
  int i = get_global_id(0);
  bit_ops(a[2 * i], a[2 * i + 1], l[i], out + i * NB, out64 + i * 6);
}

kernel void bits_uniform(global uint *out, global ulong *out64, uint x, uint y, ulong l) {
  bit_ops(x, y, l, out, out64);
}
