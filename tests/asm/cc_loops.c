/* Small C functions for the assembler's compiler-output test. */
int sum(const int *a, int n) {
  int s = 0;
  for (int i = 0; i < n; i++) s += a[i] * (i & 3);
  return s;
}
float dot(const float *a, const float *b, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}
static int helper(int x) { return x * x + 7; }
int __attribute__((noinline)) callee(int x, int y) { return helper(x) / (y | 1); }
int caller(int *out, int n) {
  int t = 0;
  for (int i = 0; i < n; i++) { out[i] = callee(i, n - i); t ^= out[i]; }
  return t;
}
float scale(float x) { return x * 1.5f + 0.25f; }
unsigned table_lookup(unsigned i) {
  static const unsigned tab[8] = {3, 1, 4, 1, 5, 9, 2, 6};
  return tab[i & 7];
}
int counter;
int bump(void) { return ++counter; }
int sw(int k) {
  switch (k) {
  case 0: return 10; case 1: return 22; case 2: return 31; case 3: return 47;
  case 4: return 59; case 5: return 61; default: return -1;
  }
}
