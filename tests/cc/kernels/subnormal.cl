/* float builtins at subnormal operands and results (test_cc_subnormal.c):
 * libclc's bodies flush these, ours (src/cc/lib/subnormal.cl) do not */
__kernel void subn(__global const float *x, __global const float *y, __global const int *n, __global float *o,
                   __global int *q) {
  int i = get_global_id(0);
  o[5 * i] = exp(x[i]);
  o[5 * i + 1] = exp2(x[i]);
  o[5 * i + 2] = ldexp(y[i], n[i]);
  o[5 * i + 3] = fmod(x[i], y[i]);
  o[5 * i + 4] = remquo(x[i], y[i], q + i);
}

/* the vector forms and remquo's quotient into private and local memory */
__kernel void subnv(__global const float4 *x, __global const float4 *y, __global const int4 *n, __global float4 *o,
                    __global int *q) {
  __local int lq[64];
  int i = get_global_id(0), l = get_local_id(0);
  int pq;
  o[4 * i] = ldexp(y[i], n[i]);
  o[4 * i + 1] = fmod(x[i], y[i]);
  o[4 * i + 2] = exp(x[i]);
  float r = remquo(x[i].x, y[i].x, &pq);
  float s = remquo(x[i].y, y[i].y, lq + l);
  o[4 * i + 3] = (float4)(r, s, exp2(x[i].z), 0.0f);
  q[2 * i] = pq;
  q[2 * i + 1] = lq[l];
}

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
/* the double forms of ldexp, fmod and remquo (ours too: libclc's turned
 * NaN into infinity in ldexp and looped for billions of instructions in
 * fmod and remquo on operands far apart) */
__kernel void subnd(__global const double *x, __global const double *y, __global const int *n, __global double *o,
                    __global int *q) {
  int i = get_global_id(0);
  o[3 * i] = ldexp(y[i], n[i]);
  o[3 * i + 1] = fmod(x[i], y[i]);
  o[3 * i + 2] = remquo(x[i], y[i], q + i);
}
