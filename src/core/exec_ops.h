/* The element-wise integer ops as lists, expanded twice: into their
 * handlers (exec_vector.c, exec_scalar.c) and into the lean forms the
 * run-ahead loop calls for a whole warp (exec_lean.c), so each result is
 * written once.
 *
 * Vector ops: a = vs2[i], b = vs1[i], x[rs1] or the immediate, d = vd[i];
 * OP3 has .vv, .vx and .vi forms, OP2 .vv and .vx, OPXI .vx and .vi.
 * Scalar ops: a = x[rs1], b = x[rs2] (RR) or the immediate (RI). */
#ifndef VT_EXEC_OPS_H
#define VT_EXEC_OPS_H

#define S(v) ((int32_t)(v))

#define VT_VECTOR_OPS(OP3, OP2, OPXI)                                                      \
  OP3(vadd, a + b)                                                                         \
  OP2(vsub, a - b)                                                                         \
  OPXI(vrsub, b - a)                                                                       \
  OP2(vminu, a < b ? a : b)                                                                \
  OP2(vmin, S(a) < S(b) ? a : b)                                                           \
  OP2(vmaxu, a > b ? a : b)                                                                \
  OP2(vmax, S(a) > S(b) ? a : b)                                                           \
  OP3(vand, a & b)                                                                         \
  OP3(vor, a | b)                                                                          \
  OP3(vxor, a ^ b)                                                                         \
  OP3(vmseq, a == b)                                                                       \
  OP3(vmsne, a != b)                                                                       \
  OP2(vmsltu, a < b)                                                                       \
  OP2(vmslt, S(a) < S(b))                                                                  \
  OP3(vmsleu, a <= b)                                                                      \
  OP3(vmsle, S(a) <= S(b))                                                                 \
  OPXI(vmsgtu, a > b)                                                                      \
  OPXI(vmsgt, S(a) > S(b))                                                                 \
  OP3(vsll, a << (b & 31))                                                                 \
  OP3(vsrl, a >> (b & 31))                                                                 \
  OP3(vsra, (uint32_t)(S(a) >> (b & 31)))                                                  \
  OP2(vdiv, rv_div(a, b))                                                                  \
  OP2(vrem, rv_rem(a, b))                                                                  \
  OP2(vmulhu, rv_mulhu(a, b))                                                              \
  OP2(vmul, a * b)                                                                         \
  OP2(vmulhsu, rv_mulhsu(a, b))                                                            \
  OP2(vmulh, rv_mulh(a, b))                                                                \
  /* multiply-add */                                                                       \
  OP2(vmacc, b * a + d)                                                                    \
  OP2(vnmsac, d - b * a)                                                                   \
  OP2(vmadd, b * d + a)                                                                    \
  OP2(vnmsub, a - b * d)

#define VT_SCALAR_OPS(RR, RI)                                                              \
  RI(addi, a + b)                                                                          \
  RI(slti, (int32_t)a < (int32_t)b)                                                        \
  RI(sltiu, a < b)                                                                         \
  RI(xori, a ^ b)                                                                          \
  RI(ori, a | b)                                                                           \
  RI(andi, a & b)                                                                          \
  RI(slli, a << (b & 31))                                                                  \
  RI(srli, a >> (b & 31))                                                                  \
  RI(srai, (uint32_t)((int32_t)a >> (b & 31)))                                             \
  RR(add, a + b)                                                                           \
  RR(sub, a - b)                                                                           \
  RR(sll, a << (b & 31))                                                                   \
  RR(slt, (int32_t)a < (int32_t)b)                                                         \
  RR(sltu, a < b)                                                                          \
  RR(xor, a ^ b)                                                                           \
  RR(srl, a >> (b & 31))                                                                   \
  RR(sra, (uint32_t)((int32_t)a >> (b & 31)))                                              \
  RR(or, a | b)                                                                            \
  RR(and, a & b)                                                                           \
  RR(mul, a * b)                                                                           \
  RR(mulh, rv_mulh(a, b))                                                                  \
  RR(mulhsu, rv_mulhsu(a, b))                                                              \
  RR(mulhu, rv_mulhu(a, b))                                                                \
  RR(div, rv_div(a, b))                                                                    \
  RR(divu, rv_divu(a, b))                                                                  \
  RR(rem, rv_rem(a, b))                                                                    \
  RR(remu, rv_remu(a, b))

#endif
