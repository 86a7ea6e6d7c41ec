/* Limits of the machine: 80 uniform values (54 scalar
 * registers) and 300 per-lane values (255 vector registers) live at once,
 * each combined in the reverse order of its computation. */
#define NU 80
#define NV 300

kernel void spill_uniform(global const int *in, global int *out) {
  int i = get_global_id(0), u[NU];
#pragma unroll
  for (int k = 0; k < NU; k++) u[k] = in[k] * (k + 3);
  int acc = i;
#pragma unroll
  for (int k = NU - 1; k >= 0; k--) acc = acc * 31 + u[k];
  out[i] = acc;
}

kernel void spill_lanes(global const int *in, global int *out) {
  int i = get_global_id(0), w[NV];
#pragma unroll
  for (int k = 0; k < NV; k++) w[k] = in[i * NV + k] ^ (k * 7919);
  int acc = 0;
#pragma unroll
  for (int k = NV - 1; k >= 0; k--) acc = acc * 31 + w[k];
  if (i & 1) /* spilled values read inside a divergent branch */
    acc += w[7] * w[290];
  out[i] = acc;
}

/* a uniform loop whose body is longer than a branch reaches (4 KiB): the
 * branch that skips it becomes an inverted branch over a jump */
kernel void long_body(global uint *out, int n) {
  int i = get_global_id(0);
  uint acc = (uint)i;
  for (int k = 0; k < n; k++) {
    if (k == 1) continue;
#pragma unroll
    for (uint j = 0; j < 600; j++) acc = (acc ^ (j * 2654435761u)) * 3u + (uint)k;
  }
  out[i] = acc;
}
