/* Seeds of fuzz_kmeta besides clapi.cl's: the 56-byte resource form (more
 * than 64 KiB of __local data), many arguments and qualifiers, hints. */
__kernel __attribute__((work_group_size_hint(8, 2, 1))) __attribute__((vec_type_hint(float4)))
void big(__global int *a) {
  __local int tmp[20000];
  tmp[get_local_id(0)] = a[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  a[get_global_id(0)] = tmp[19999 - get_local_id(0)];
}

__kernel void many(__global int *restrict a, __global const volatile int *b, __constant float *c, __local short *d,
                   char e, short f, int g, long h, float i, double j, int2 k, uint3 l, float8 m, ulong16 n) {
  a[0] = b[0] + (int)c[0] + d[0] + e + f + g + (int)h + (int)i + (int)j + k.y + (int)l.z + (int)m.s7 + (int)n.sf;
}
