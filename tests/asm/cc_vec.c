/* An auto-vectorised loop (RVV unit-stride loads/stores) for the
 * assembler's compiler-output test. */
void axpy3(int *restrict c, const int *restrict a, const int *restrict b, int n) {
  for (int i = 0; i < n; i++) c[i] = a[i] + 3 * b[i];
}
void shift_mask(unsigned *restrict d, const unsigned *restrict s, int n) {
  for (int i = 0; i < n; i++) d[i] = (s[i] >> 2) & 0xff;
}
