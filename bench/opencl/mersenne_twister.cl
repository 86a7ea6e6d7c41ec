/* Mersenne twister: every work-item runs its own small twister (19 words of
 * state in a private array indexed at run time, recurrence offset 9, the
 * shape of the CUDA/OpenCL SDK sample's dcmt generators) with its own
 * parameters, and writes count numbers as floats in (0, 1], interleaved
 * with the other generators' (out[i * generators + id]).
 * params: matrix_a, mask_b, mask_c, seed per generator. */
#define NN 19
#define MM 9
#define UPPER 0xfffffffeu
#define LOWER 0x1u

kernel void mersenne_twister(global const uint *params, global float *out, int count) {
  int id = get_global_id(0);
  int generators = get_global_size(0);
  uint matrix_a = params[4 * id], mask_b = params[4 * id + 1], mask_c = params[4 * id + 2];
  uint mt[NN];
  mt[0] = params[4 * id + 3];
  for (int i = 1; i < NN; i++) mt[i] = 1812433253u * (mt[i - 1] ^ (mt[i - 1] >> 30)) + (uint)i;
  int s = 0;
  uint next = mt[0];
  for (int n = 0; n < count; n++) {
    int s1 = s + 1 < NN ? s + 1 : s + 1 - NN;
    int sm = s + MM < NN ? s + MM : s + MM - NN;
    uint cur = next;
    next = mt[s1];
    uint y = (cur & UPPER) | (next & LOWER);
    y = mt[sm] ^ (y >> 1) ^ ((y & 1u) ? matrix_a : 0u);
    mt[s] = y;
    s = s1;
    y ^= y >> 12; /* tempering */
    y ^= (y << 7) & mask_b;
    y ^= (y << 15) & mask_c;
    y ^= y >> 18;
    out[n * generators + id] = ((float)y + 1.0f) / 4294967296.0f;
  }
}
