/* Calls that stay calls (noinline): arguments in v0.., results in v0 (v0,
 * v1 for a long), uniform and per-lane arguments, a call inside a
 * divergent region, a divergent branch inside the callee, a callee that
 * calls, and one with a private array (its own frame at tp). */
__attribute__((noinline)) int mix(int a, int b) { return a * 31 + (b ^ 7); }

__attribute__((noinline)) ulong wide(ulong x, int s) { return (x << s) + (ulong)(long)mix((int)x, s); }

__attribute__((noinline)) float fsel(float x, int i) {
  if (i & 1) return x * 2.0f;
  return x - 1.0f;
}

__attribute__((noinline)) int table(int i, int x) {
  int t[8];
  for (int k = 0; k < 8; k++) t[k] = x + k * k;
  return t[i & 7];
}

kernel void calls(global const int *a, global int *out, global ulong *o64, global float *of, int u) {
  int i = get_global_id(0);
  int x = a[i];
  int r = mix(x, u);
  if (x & 4) r += mix(u, i);
  out[2 * i] = r;
  out[2 * i + 1] = table(i + x, x) + table(3, u);
  o64[i] = wide((ulong)(long)x * 1000003UL, i & 31);
  of[i] = fsel((float)x, i);
}

/* 9 int4 arguments: 36 words, the last ones on the stack (the callee's frame) */
__attribute__((noinline)) int4 vsum(int4 a, int4 b, int4 c, int4 d, int4 e, int4 f, int4 g, int4 h, int4 k) {
  return a + b * 2 + c * 3 + d * 4 + e * 5 + f * 6 + g * 7 + h * 8 + k * 9;
}

/* a structure by value: the callee changes its own copy only */
typedef struct {
  int a[5];
  char c;
} S5;

__attribute__((noinline)) int sfun(S5 s) {
  s.a[0] += 100;
  return s.a[0] + s.a[4] * 3 + s.c;
}

kernel void calls_stack(global const int *in, global int *out) {
  int i = get_global_id(0);
  int x = in[i];
  int4 v = (int4)(x, x + 1, i, -x);
  int4 r = vsum(v, v + 1, v + 2, v + 3, v + 4, v + 5, v + 6, v + 7, v * 3);
  S5 s = {{x, 2, 3, 4, i}, (char)5};
  int q = sfun(s);
  out[6 * i] = r.x;
  out[6 * i + 1] = r.y;
  out[6 * i + 2] = r.z;
  out[6 * i + 3] = r.w;
  out[6 * i + 4] = q;
  out[6 * i + 5] = s.a[0];
}
