/* RV32I and M: scalar integer ops, branches and jumps (once per warp). */
#include <stdio.h>

#include "exec.h"
#include "exec_ops.h"

#define ALU_RR(id, expr)                                                                   \
  HANDLER(id) {                                                                            \
    uint32_t a = XR(in->rs1), b = XR(in->rs2);                                             \
    (void)a;                                                                               \
    (void)b;                                                                               \
    set_x(x, in->rd, (expr));                                                              \
    return 0;                                                                              \
  }
#define ALU_RI(id, expr)                                                                   \
  HANDLER(id) {                                                                            \
    uint32_t a = XR(in->rs1), b = (uint32_t)in->imm;                                       \
    set_x(x, in->rd, (expr));                                                              \
    return 0;                                                                              \
  }

HANDLER(lui) {
  set_x(x, in->rd, (uint32_t)in->imm << 12);
  return 0;
}
HANDLER(auipc) {
  set_x(x, in->rd, x->pc + ((uint32_t)in->imm << 12));
  return 0;
}
HANDLER(jal) {
  if (jump_to(x, x->pc + (uint32_t)in->imm)) return -1;
  set_x(x, in->rd, x->pc + 4);
  return 0;
}
HANDLER(jalr) {
  if (jump_to(x, (XR(in->rs1) + (uint32_t)in->imm) & ~1u)) return -1;
  set_x(x, in->rd, x->pc + 4);
  return 0;
}

int exec_misaligned_target(vt_exec *x, uint32_t target) {
  char msg[80];
  snprintf(msg, sizeof msg, "jump or branch to misaligned address 0x%08x", target);
  return exec_fault(x, VT_ERR_MISALIGNED, -1, target, msg);
}

#define BRANCH(id, cond)                                                                   \
  HANDLER(id) {                                                                            \
    uint32_t a = XR(in->rs1), b = XR(in->rs2);                                             \
    return (cond) ? jump_to(x, x->pc + (uint32_t)in->imm) : 0;                             \
  }
BRANCH(beq, a == b)
BRANCH(bne, a != b)
BRANCH(blt, (int32_t)a < (int32_t)b)
BRANCH(bge, (int32_t)a >= (int32_t)b)
BRANCH(bltu, a < b)
BRANCH(bgeu, a >= b)

VT_SCALAR_OPS(ALU_RR, ALU_RI)

HANDLER(fence) {
  (void)x;
  (void)in;
  return 0; /* memory is coherent: every access completes in program order */
}

/* ---- M: the RISC-V results for division by zero and overflow ----------- */
uint32_t rv_div(uint32_t a, uint32_t b) {
  if (b == 0) return 0xffffffffu;
  if (a == 0x80000000u && b == 0xffffffffu) return a;
  return (uint32_t)((int32_t)a / (int32_t)b);
}
uint32_t rv_divu(uint32_t a, uint32_t b) { return b ? a / b : 0xffffffffu; }
uint32_t rv_rem(uint32_t a, uint32_t b) {
  if (b == 0) return a;
  if (a == 0x80000000u && b == 0xffffffffu) return 0;
  return (uint32_t)((int32_t)a % (int32_t)b);
}
uint32_t rv_remu(uint32_t a, uint32_t b) { return b ? a % b : a; }
uint32_t rv_mulh(uint32_t a, uint32_t b) {
  return (uint32_t)((uint64_t)((int64_t)(int32_t)a * (int64_t)(int32_t)b) >> 32);
}
uint32_t rv_mulhu(uint32_t a, uint32_t b) { return (uint32_t)(((uint64_t)a * b) >> 32); }
uint32_t rv_mulhsu(uint32_t a, uint32_t b) {
  return (uint32_t)((uint64_t)((int64_t)(int32_t)a * (int64_t)(uint64_t)b) >> 32);
}
