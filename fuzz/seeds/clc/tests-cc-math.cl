/* The float math library linked from Debian's libclc (nvptx bitcode):
 * each function over a spread of inputs, checked against the OpenCL 1.2
 * ULP bounds on the host. */
#define NM 24
kernel void math_fns(global const float *xs, global const float *ys, global float *out) {
  int i = get_global_id(0);
  float x = xs[i], y = ys[i];
  global float *o = out + NM * i;
  o[0] = sin(x * 100.0f);
  o[1] = cos(x * 100.0f);
  o[2] = tan(x * 1.5f);
  o[3] = exp(x * 80.0f);
  o[4] = exp2(x * 100.0f);
  o[5] = log(y * 1000.0f);
  o[6] = log2(y * 1000.0f);
  o[7] = log10(y);
  o[8] = pow(y * 10.0f, x * 5.0f);
  o[9] = atan(x * 50.0f);
  o[10] = asin(x);
  o[11] = acos(x);
  o[12] = atan2(x, y - 0.5f);
  o[13] = sinh(x * 10.0f);
  o[14] = cosh(x * 10.0f);
  o[15] = tanh(x * 5.0f);
  o[16] = cbrt(x * 1000.0f);
  o[17] = hypot(x * 1000.0f, y * 1000.0f);
  o[18] = fmod(x * 100.0f, y + 0.5f); /* no a*b+c: it may be contracted */
  o[19] = expm1(x);
  o[20] = log1p(y * 10.0f);
  /* native_*: libclc's use LLVM's intrinsics, taken from its accurate functions */
  o[21] = native_powr(y * 10.0f, x * 5.0f);
  o[22] = native_sin(x * 100.0f);
  o[23] = native_log2(y * 1000.0f);
}
