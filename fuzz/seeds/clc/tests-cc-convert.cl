/* convert_<type>[_sat][_<rounding>]: every rounding mode, saturation from
 * float and from integers, integer to float with each rounding mode,
 * vectors element by element. */
#define NC 22
kernel void conv(global const float *x, global const int *iv, global int *out, global float *of) {
  int i = get_global_id(0);
  float v = x[i], z = fmin(fmax(v * 1e-4f, -1e6f), 1e6f);
  int n = iv[i];
  global int *o = out + NC * i;
  o[0] = convert_int(z);
  o[1] = convert_int_rte(z);
  o[2] = convert_int_rtp(z);
  o[3] = convert_int_rtn(z);
  o[4] = convert_int_sat(v);
  o[5] = (int)convert_uint_sat(v);
  o[6] = convert_char_sat(v);
  o[7] = convert_uchar_sat_rte(v);
  o[8] = convert_short_sat(v);
  o[9] = convert_ushort_sat_rtn(v);
  o[10] = convert_char_sat(n);
  o[11] = convert_uchar_sat(n);
  o[12] = convert_short_sat(n);
  o[13] = convert_ushort_sat(n);
  o[14] = (int)convert_uint_sat(n);
  o[15] = convert_int_sat((uint)n);
  o[16] = convert_char_sat((uint)n);
  o[17] = convert_uchar_sat((short)n);
  o[18] = convert_short((char)n) + convert_ushort_sat((char)n);
  int4 q = convert_int4_sat_rte((float4)(v, -v, z, v * 0.5f));
  o[19] = q.x ^ q.y;
  o[20] = q.z + q.w;
  uchar3 b = (uchar3)((uchar)n, (uchar)(n >> 8), (uchar)(n >> 16));
  float3 fb = convert_float3(b);
  o[21] = as_int(fb.x + fb.y * 2.0f + fb.z * 4.0f);
  of[4 * i] = convert_float(n);
  of[4 * i + 1] = convert_float_rtz(n);
  of[4 * i + 2] = convert_float_rtp((uint)n);
  of[4 * i + 3] = convert_float_rtn(n);
}
