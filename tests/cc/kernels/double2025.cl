// double on an ISA revision 2025 device, where the vector unit computes it
// at SEW 64 (tests/cc/test_cc_double2025.c): every operation the compiler
// lowers natively, over the host's operands
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void arith(__global const double *a, __global const double *b, __global const double *c,
                    __global double *o) {
  int i = get_global_id(0);
  double x = a[i], y = b[i], z = c[i];
  __global double *r = o + 12 * i;
  r[0] = x + y;
  r[1] = x - y;
  r[2] = x * y;
  r[3] = x / y;
  r[4] = sqrt(x);
  r[5] = fma(x, y, z);
  r[6] = fmin(x, y);
  r[7] = fmax(x, y);
  r[8] = -x;
  r[9] = fabs(x);
  r[10] = copysign(x, y);
  r[11] = x * y + z; // contracted (llvm.fmuladd, computed fused) or not
}

// every predicate: bit k of the result is comparison k
__kernel void compare(__global const double *a, __global const double *b, __global int *o) {
  int i = get_global_id(0);
  double x = a[i], y = b[i];
  int r = 0;
  r |= (x == y) << 0;                 // oeq
  r |= (x != y) << 1;                 // une
  r |= (x < y) << 2;                  // olt
  r |= (x <= y) << 3;                 // ole
  r |= (x > y) << 4;                  // ogt
  r |= (x >= y) << 5;                 // oge
  r |= !(x < y) << 6;                 // uge
  r |= !(x <= y) << 7;                // ugt
  r |= !(x > y) << 8;                 // ule
  r |= !(x >= y) << 9;                // ult
  r |= islessgreater(x, y) << 10;     // one
  r |= !islessgreater(x, y) << 11;    // ueq
  r |= isordered(x, y) << 12;         // ord
  r |= isunordered(x, y) << 13;       // uno
  r |= (x == y ? 1 : 0) << 14;        // a compare that feeds a select
  o[i] = r;
}

// double -> integers and float; integers and float -> double
__kernel void convert(__global const double *a, __global const float *f, __global const long *l,
                      __global long *oi, __global double *od, __global float *of) {
  int i = get_global_id(0);
  double x = a[i];
  long v = l[i];
  __global long *ri = oi + 6 * i;
  ri[0] = (long)x;
  ri[1] = (long)(ulong)x;
  ri[2] = (int)x;
  ri[3] = (long)(uint)x;
  ri[4] = (short)x;
  ri[5] = (long)(uchar)x;
  __global double *rd = od + 7 * i;
  rd[0] = (double)v;
  rd[1] = (double)(ulong)v;
  rd[2] = (double)(int)v;
  rd[3] = (double)(uint)v;
  rd[4] = (double)(short)v;
  rd[5] = (double)(uchar)v;
  rd[6] = (double)f[i];
  of[i] = (float)x;
}

// warp instructions per operation: a chain of 16 dependent operations
// against none (test_cc_double2025.c measures both revisions)
__kernel void chain_add(__global double *p) {
  int i = get_global_id(0);
  double x = p[i], y = p[i + 32];
  for (int k = 0; k < 16; k++) x = x + y;
  p[i] = x;
}

__kernel void chain_mul(__global double *p) {
  int i = get_global_id(0);
  double x = p[i], y = p[i + 32];
  for (int k = 0; k < 16; k++) x = x * y;
  p[i] = x;
}

__kernel void chain_div(__global double *p) {
  int i = get_global_id(0);
  double x = p[i], y = p[i + 32];
  for (int k = 0; k < 16; k++) x = x / y;
  p[i] = x;
}

__kernel void chain_none(__global double *p) {
  int i = get_global_id(0);
  double x = p[i], y = p[i + 32];
  p[i] = as_double(as_long(x) ^ as_long(y));
}
