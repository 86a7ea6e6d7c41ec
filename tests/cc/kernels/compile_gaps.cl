/* The compile gaps of issue 21, each a kernel checked against plain C
 * (tests/cc/test_cc_compile_gaps.c): double-precision constants in float
 * code that never names double, C99 inline functions without an external
 * definition, fills and copies of any and of run-time length, the
 * asynchronous work-group copies, ctz in OpenCL C 1.2, and a kernel of
 * 201 arguments. */

/* float code that never names double: clang compiles it as for a device
 * without fp64 (cc_front_fp64.c), so unsuffixed constants and M_PI are
 * float. (The `#ifdef cl_khr_fp64` guard of portable kernels now takes the
 * double path: tests/cc/kernels/double.cl.) */
typedef float real;

kernel void fp_consts(global float *out, global const float *in) {
  uint i = get_global_id(0);
  real x = in[i];
  out[6 * i + 0] = 0.5 * x;
  out[6 * i + 1] = x * (1.0 / 16.0);
  out[6 * i + 2] = M_PI * x;
  out[6 * i + 3] = 1.e18 * x;
  out[6 * i + 4] = sizeof(x) + sizeof(M_PI) + sizeof(0.5);
  out[6 * i + 5] = x * 0.1 + 2.5;
}

/* C99 inline: no external definition, too big for clang to inline at its
 * four calls, so clang used to leave calls to a missing body */
#define MIX(k, c, m) r = rotate(r, (uint)k) ^ (b + c) ^ (r * m);
inline uint mix(uint r, uint b) {
  MIX(1, 0x9e3779b9u, 3u)
  MIX(2, 0x3c6ef372u, 5u)
  MIX(3, 0xdaa66d2bu, 7u)
  MIX(4, 0x78dde6e4u, 9u)
  MIX(5, 0x1715609du, 11u)
  MIX(6, 0xb54cda56u, 13u)
  MIX(7, 0x5384540fu, 15u)
  MIX(8, 0xf1bbcdc8u, 17u)
  MIX(9, 0x8ff34781u, 19u)
  MIX(10, 0x2e2ac13au, 21u)
  MIX(11, 0xcc623af3u, 23u)
  MIX(12, 0x6a99b4acu, 25u)
  MIX(13, 0x08d12e65u, 27u)
  MIX(14, 0xa708a81eu, 29u)
  MIX(15, 0x454021d7u, 31u)
  MIX(16, 0xe3779b90u, 33u)
  MIX(17, 0x81af1549u, 35u)
  MIX(18, 0x1fe68f02u, 37u)
  MIX(19, 0xbe1e08bbu, 39u)
  MIX(20, 0x5c558274u, 41u)
  MIX(21, 0xfa8cfc2du, 43u)
  MIX(22, 0x98c475e6u, 45u)
  MIX(23, 0x36fbef9fu, 47u)
  MIX(24, 0xd5336958u, 49u)
  MIX(25, 0x736ae311u, 51u)
  MIX(26, 0x11a25ccau, 53u)
  MIX(27, 0xafd9d683u, 55u)
  MIX(28, 0x4e11503cu, 57u)
  MIX(29, 0xec48c9f5u, 59u)
  MIX(30, 0x8a8043aeu, 61u)
  MIX(31, 0x28b7bd67u, 63u)
  MIX(1, 0xc6ef3720u, 65u)
  MIX(2, 0x6526b0d9u, 67u)
  MIX(3, 0x035e2a92u, 69u)
  MIX(4, 0xa195a44bu, 71u)
  MIX(5, 0x3fcd1e04u, 73u)
  MIX(6, 0xde0497bdu, 75u)
  MIX(7, 0x7c3c1176u, 77u)
  MIX(8, 0x1a738b2fu, 79u)
  MIX(9, 0xb8ab04e8u, 81u)
  MIX(10, 0x56e27ea1u, 83u)
  MIX(11, 0xf519f85au, 85u)
  MIX(12, 0x93517213u, 87u)
  MIX(13, 0x3188ebccu, 89u)
  MIX(14, 0xcfc06585u, 91u)
  MIX(15, 0x6df7df3eu, 93u)
  MIX(16, 0x0c2f58f7u, 95u)
  MIX(17, 0xaa66d2b0u, 97u)
  MIX(18, 0x489e4c69u, 99u)
  MIX(19, 0xe6d5c622u, 101u)
  MIX(20, 0x850d3fdbu, 103u)
  MIX(21, 0x2344b994u, 105u)
  MIX(22, 0xc17c334du, 107u)
  MIX(23, 0x5fb3ad06u, 109u)
  MIX(24, 0xfdeb26bfu, 111u)
  MIX(25, 0x9c22a078u, 113u)
  MIX(26, 0x3a5a1a31u, 115u)
  MIX(27, 0xd89193eau, 117u)
  MIX(28, 0x76c90da3u, 119u)
  MIX(29, 0x1500875cu, 121u)
  MIX(30, 0xb3380115u, 123u)
  MIX(31, 0x516f7aceu, 125u)
  MIX(1, 0xefa6f487u, 127u)
  MIX(2, 0x8dde6e40u, 129u)
  return r;
}
extern inline uint twice(uint x) { return 2 * x; }

kernel void inline_mix(global uint *out, global const uint *in) {
  uint i = get_global_id(0);
  out[i] = mix(in[i], 1) + mix(in[i + 1], 2) + mix(i, 3) + twice(mix(in[i + 2], 4));
}

/* an 8.5 KiB __local array zeroed by one work-item: a memset at -O2 */
#define NL 2176
kernel void zero_local(global uint *out) {
  local uint big[NL];
  uint lid = get_local_id(0), n = get_local_size(0);
  for (uint i = lid; i < NL; i += n) big[i] = 0xdeadbeefu; /* not zero before the fill */
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0)
    for (int i = 0; i < NL; i++) big[i] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  big[lid * 67] = lid + 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint s = 0;
  for (uint i = lid; i < NL; i += 7) s += big[i] * (i + 1);
  out[get_global_id(0)] = s;
}

/* a fill of bytes of a length per work-item: memset of a run-time length */
kernel void fill_var(global uchar *buf, uint n, uchar v) {
  global uchar *p = buf + get_global_id(0) * 64;
  uint len = n + get_global_id(0) % 13;
  for (uint i = 0; i < len; i++) p[i] = v;
}

/* a copy of words of a run-time length: memcpy */
kernel void copy_var(global uint *restrict dst, global const uint *restrict src, uint n) {
  uint g = get_global_id(0), len = n + g % 5;
  for (uint i = 0; i < len; i++) dst[g * 100 + i] = src[g * 100 + i];
}

/* overlapping moves both ways, of bytes and of words: memmove */
kernel void move_var(global uchar *bytes, global uint *words, uint n, int d) {
  global uchar *p = bytes + get_global_id(0) * 64 + 8;
  global uint *q = words + get_global_id(0) * 64 + 8;
  __builtin_memmove(p + d, p, n);
  __builtin_memmove(q + d, q, n * 4);
}

/* 400 constant bytes from global to local memory: memcpy over 256 bytes */
kernel void copy_to_local(global const uint *src, global uint *out) {
  local uint t[100];
  if (get_local_id(0) == 0)
    for (int i = 0; i < 100; i++) t[i] = src[i];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = t[(get_global_id(0) * 7) % 100];
}

/* byte loops the optimiser merges into one i32 or i16 access with align 1,
 * at addresses of every alignment, private and global */
kernel void unaligned(global const uchar *src, global uchar *dst) {
  uint g = get_global_id(0);
  uchar p[16];
  for (int i = 0; i < 16; i++) p[i] = src[g * 16 + i];
  private uchar *s = p + 1 + g % 5;
  global uchar *d = dst + g * 16 + 1 + g % 3;
  for (int i = 0; i < 4; i++) d[i] = s[i];
  global uchar *d2 = dst + 1024 + g * 8 + g % 2;
  for (int i = 0; i < 2; i++) d2[i] = s[6 + i];
}

/* async copies in and out, contiguous and strided, of float4 and uchar */
kernel void async_copies(global const float4 *src, global float4 *dst, global const uchar *bsrc, global uchar *bdst) {
  local float4 tile[64];
  local uchar bt[96];
  uint g = get_group_id(0), l = get_local_id(0), n = get_local_size(0);
  prefetch(src + g * 64, 64);
  event_t e = async_work_group_copy(tile, src + g * 64, 64, 0);
  e = async_work_group_strided_copy(bt, bsrc + g, 96, 3, e);
  wait_group_events(1, &e);
  for (uint i = l; i < 64; i += n) tile[i] = tile[i] * 2.0f + (float4)(g, l, i, 1.0f);
  for (uint i = l; i < 96; i += n) bt[i] += (uchar)i;
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t f[2];
  f[0] = async_work_group_strided_copy(dst + g, tile, 64, get_num_groups(0), 0);
  f[1] = async_work_group_copy(bdst + g * 96, bt, 96, 0);
  wait_group_events(2, f);
}

/* ctz, OpenCL C 2.0's, called by OpenCL C 1.2 code (as the CTS does) */
kernel void ctz_all(global const uint *in, global uint *out) {
  uint i = get_global_id(0), x = in[i];
  int4 v = (int4)(x, x >> 3, x << 5, -(int)x);
  int4 c = ctz(v);
  out[8 * i + 0] = ctz(x);
  out[8 * i + 1] = ctz((uchar)x);
  out[8 * i + 2] = ctz((ushort)(x >> 16));
  out[8 * i + 3] = (uint)ctz(((ulong)x << 32) | (x >> 7));
  out[8 * i + 4] = c.x;
  out[8 * i + 5] = c.y;
  out[8 * i + 6] = c.z;
  out[8 * i + 7] = c.w;
}

/* 201 arguments: 804 bytes of the 1024 the device takes */
kernel void many_args(global uint *out,
    uint a0, uint a1, uint a2, uint a3, uint a4, uint a5, uint a6, uint a7, uint a8, uint a9,
    uint a10, uint a11, uint a12, uint a13, uint a14, uint a15, uint a16, uint a17, uint a18, uint a19,
    uint a20, uint a21, uint a22, uint a23, uint a24, uint a25, uint a26, uint a27, uint a28, uint a29,
    uint a30, uint a31, uint a32, uint a33, uint a34, uint a35, uint a36, uint a37, uint a38, uint a39,
    uint a40, uint a41, uint a42, uint a43, uint a44, uint a45, uint a46, uint a47, uint a48, uint a49,
    uint a50, uint a51, uint a52, uint a53, uint a54, uint a55, uint a56, uint a57, uint a58, uint a59,
    uint a60, uint a61, uint a62, uint a63, uint a64, uint a65, uint a66, uint a67, uint a68, uint a69,
    uint a70, uint a71, uint a72, uint a73, uint a74, uint a75, uint a76, uint a77, uint a78, uint a79,
    uint a80, uint a81, uint a82, uint a83, uint a84, uint a85, uint a86, uint a87, uint a88, uint a89,
    uint a90, uint a91, uint a92, uint a93, uint a94, uint a95, uint a96, uint a97, uint a98, uint a99,
    uint a100, uint a101, uint a102, uint a103, uint a104, uint a105, uint a106, uint a107, uint a108, uint a109,
    uint a110, uint a111, uint a112, uint a113, uint a114, uint a115, uint a116, uint a117, uint a118, uint a119,
    uint a120, uint a121, uint a122, uint a123, uint a124, uint a125, uint a126, uint a127, uint a128, uint a129,
    uint a130, uint a131, uint a132, uint a133, uint a134, uint a135, uint a136, uint a137, uint a138, uint a139,
    uint a140, uint a141, uint a142, uint a143, uint a144, uint a145, uint a146, uint a147, uint a148, uint a149,
    uint a150, uint a151, uint a152, uint a153, uint a154, uint a155, uint a156, uint a157, uint a158, uint a159,
    uint a160, uint a161, uint a162, uint a163, uint a164, uint a165, uint a166, uint a167, uint a168, uint a169,
    uint a170, uint a171, uint a172, uint a173, uint a174, uint a175, uint a176, uint a177, uint a178, uint a179,
    uint a180, uint a181, uint a182, uint a183, uint a184, uint a185, uint a186, uint a187, uint a188, uint a189,
    uint a190, uint a191, uint a192, uint a193, uint a194, uint a195, uint a196, uint a197, uint a198, uint a199) {
  out[get_global_id(0)] = get_global_id(0) +
         a0 * 1u + a1 * 2u + a2 * 3u + a3 * 4u + a4 * 5u + a5 * 6u + a6 * 7u + a7 * 8u + a8 * 9u + a9 * 10u +
         a10 * 11u + a11 * 12u + a12 * 13u + a13 * 14u + a14 * 15u + a15 * 16u + a16 * 17u + a17 * 18u + a18 * 19u + a19 * 20u +
         a20 * 21u + a21 * 22u + a22 * 23u + a23 * 24u + a24 * 25u + a25 * 26u + a26 * 27u + a27 * 28u + a28 * 29u + a29 * 30u +
         a30 * 31u + a31 * 32u + a32 * 33u + a33 * 34u + a34 * 35u + a35 * 36u + a36 * 37u + a37 * 38u + a38 * 39u + a39 * 40u +
         a40 * 41u + a41 * 42u + a42 * 43u + a43 * 44u + a44 * 45u + a45 * 46u + a46 * 47u + a47 * 48u + a48 * 49u + a49 * 50u +
         a50 * 51u + a51 * 52u + a52 * 53u + a53 * 54u + a54 * 55u + a55 * 56u + a56 * 57u + a57 * 58u + a58 * 59u + a59 * 60u +
         a60 * 61u + a61 * 62u + a62 * 63u + a63 * 64u + a64 * 65u + a65 * 66u + a66 * 67u + a67 * 68u + a68 * 69u + a69 * 70u +
         a70 * 71u + a71 * 72u + a72 * 73u + a73 * 74u + a74 * 75u + a75 * 76u + a76 * 77u + a77 * 78u + a78 * 79u + a79 * 80u +
         a80 * 81u + a81 * 82u + a82 * 83u + a83 * 84u + a84 * 85u + a85 * 86u + a86 * 87u + a87 * 88u + a88 * 89u + a89 * 90u +
         a90 * 91u + a91 * 92u + a92 * 93u + a93 * 94u + a94 * 95u + a95 * 96u + a96 * 97u + a97 * 98u + a98 * 99u + a99 * 100u +
         a100 * 101u + a101 * 102u + a102 * 103u + a103 * 104u + a104 * 105u + a105 * 106u + a106 * 107u + a107 * 108u + a108 * 109u + a109 * 110u +
         a110 * 111u + a111 * 112u + a112 * 113u + a113 * 114u + a114 * 115u + a115 * 116u + a116 * 117u + a117 * 118u + a118 * 119u + a119 * 120u +
         a120 * 121u + a121 * 122u + a122 * 123u + a123 * 124u + a124 * 125u + a125 * 126u + a126 * 127u + a127 * 128u + a128 * 129u + a129 * 130u +
         a130 * 131u + a131 * 132u + a132 * 133u + a133 * 134u + a134 * 135u + a135 * 136u + a136 * 137u + a137 * 138u + a138 * 139u + a139 * 140u +
         a140 * 141u + a141 * 142u + a142 * 143u + a143 * 144u + a144 * 145u + a145 * 146u + a146 * 147u + a147 * 148u + a148 * 149u + a149 * 150u +
         a150 * 151u + a151 * 152u + a152 * 153u + a153 * 154u + a154 * 155u + a155 * 156u + a156 * 157u + a157 * 158u + a158 * 159u + a159 * 160u +
         a160 * 161u + a161 * 162u + a162 * 163u + a163 * 164u + a164 * 165u + a165 * 166u + a166 * 167u + a167 * 168u + a168 * 169u + a169 * 170u +
         a170 * 171u + a171 * 172u + a172 * 173u + a173 * 174u + a174 * 175u + a175 * 176u + a176 * 177u + a177 * 178u + a178 * 179u + a179 * 180u +
         a180 * 181u + a181 * 182u + a182 * 183u + a183 * 184u + a184 * 185u + a185 * 186u + a186 * 187u + a187 * 188u + a188 * 189u + a189 * 190u +
         a190 * 191u + a191 * 192u + a192 * 193u + a193 * 194u + a194 * 195u + a195 * 196u + a196 * 197u + a197 * 198u + a198 * 199u + a199 * 200u;
}

/* more than 1 KiB of private variables: a 10,000-byte array (offsets past
 * addi's reach) beside a struct; indices chosen at run time */
typedef struct { int w[40]; } wide;
__kernel void big_private(__global int *o, __global const int *in, int n) {
  int a[2500];
  wide s;
  int i = get_global_id(0);
  for (int j = 0; j < 40; j++) s.w[j] = in[(i + j) & 63] - j;
  for (int j = 0; j < 2500; j++) a[j] = in[(i * 3 + j) & 63] * (j + 1) + s.w[j % 40];
  int acc = 0;
  for (int j = 0; j < n; j++) acc += a[(j * 37 + i) % 2500] ^ a[2499 - (j % 2500)];
  o[i] = acc + a[2499] + s.w[39];
}
