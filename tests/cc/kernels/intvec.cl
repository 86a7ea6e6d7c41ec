/* vloadN/vstoreN over global, local and private pointers, and the integer
 * builtins of char/short/int the optimiser turns into llvm.{s,u}{min,max},
 * llvm.abs and llvm.*.sat, and hadd, rhadd, mul_hi at every width, scalar
 * and vector (on revision 2025 the fixed-point instructions, cc_fixed.c;
 * checked by tests/cc/test_cc_kernels.c) */
#define NI 45

void int_ops(int x, int y, int z, global int *o) {
  char cx = (char)x, cy = (char)y, cz = (char)z;
  short sx = (short)x, sy = (short)y, sz = (short)z;
  uchar ux = (uchar)x, uy = (uchar)y;
  ushort wx = (ushort)x, wy = (ushort)y;
  o[0] = abs(cx);
  o[1] = abs(sx);
  o[2] = abs_diff(cx, cy);
  o[3] = abs_diff(sx, sy);
  o[4] = abs_diff(x, y);
  o[5] = clamp(cx, (char)-20, (char)(cz & 0x3f));
  o[6] = clamp(sx, (short)-300, (short)(sz & 0x3fff));
  o[7] = min(cx, cy) * 1000 + max(cx, cy);
  o[8] = min(ux, uy) * 1000 + max(ux, uy);
  o[9] = min(sx, sy) + max(wx, wy) * 3;
  o[10] = add_sat(cx, cy);
  o[11] = sub_sat(cx, cy);
  o[12] = add_sat(sx, sy);
  o[13] = sub_sat(sx, sy);
  o[14] = add_sat(x, y);
  o[15] = sub_sat(x, y);
  o[16] = add_sat(ux, uy);
  o[17] = sub_sat(ux, uy);
  o[18] = add_sat((uint)x, (uint)y);
  o[19] = sub_sat((uint)x, (uint)y);
  o[20] = mad_hi(x, y, z);
  o[21] = mad_sat(cx, cy, cz);
  o[22] = mad_sat(sx, sy, sz);
  o[23] = mad_sat(x, y, z);
  o[24] = hadd(cx, cy);
  o[25] = rhadd(cx, cy);
  o[26] = hadd(ux, uy);
  o[27] = rhadd(ux, uy);
  o[28] = hadd(sx, sy);
  o[29] = rhadd(sx, sy);
  o[30] = hadd(wx, wy);
  o[31] = rhadd(wx, wy);
  o[32] = hadd(x, y);
  o[33] = rhadd(x, y);
  o[34] = hadd((uint)x, (uint)y);
  o[35] = rhadd((uint)x, (uint)y);
  o[36] = mul_hi(cx, cy);
  o[37] = mul_hi(ux, uy);
  o[38] = mul_hi(sx, sy);
  o[39] = mul_hi(wx, wy);
  o[40] = mul_hi(x, y);
  o[41] = mul_hi((uint)x, (uint)y);
  o[42] = as_int(rhadd((char4)(cx, cy, cz, cx), (char4)(cz, cx, cy, cy)));
  o[43] = as_int(mul_hi((short2)(sx, sy), (short2)(sz, sx)));
  o[44] = as_int(add_sat((uchar4)(ux, uy, ux, uy), (uchar4)(uy, uy, ux, ux)));
}

kernel void int_lanes(global const int *a, global int *out) {
  int i = get_global_id(0);
  int_ops(a[3 * i], a[3 * i + 1], a[3 * i + 2], out + NI * i);
}

/* out[16 i ..]: vload2/3/4/8 of global data, vload16 of a local copy,
 * vload3 of a private array and of constant memory, then stored back
 * with vstore2/3/4 */
kernel void vec_moves(global const float *g, global const int *gi, global float *out, global int *outi,
                      constant float *cg) {
  local float lds[16 * 32];
  int i = get_global_id(0), l = get_local_id(0);
  float2 a = vload2(i, g);
  float3 b = vload3(i, g + 1);
  float4 c = vload4(i, g + 2);
  float8 d = vload8(i, g);
  for (int k = 0; k < 16; k++) lds[16 * l + k] = g[16 * i + k] * 2.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  float16 e = vload16(l, lds);
  float p[5] = {a.y, b.z, c.w, d.s7, e.sf};
  float3 q = vload3(0, p + (i & 1));
  global float *o = out + 16 * i;
  vstore2(a + (float2)(b.x, c.x), 0, o);
  vstore3(q, 0, o + 2);
  vstore4(c * d.lo, 1, o + 1);
  o[9] = e.s3 + d.s5;
  o[10] = e.s9;
  float3 k = vload3(i, cg + 3);
  o[11] = k.x + k.z;
  o[12] = k.y;
  int4 v = vload4(i, gi);
  short2 s = vload2(i, (global const short *)gi);
  vstore4(v + (int4)(s.x, s.y, 1, 2), i, outi);
}
