/* The instructions PREFIX/PREFIXI pair = 1 makes 64-bit (revision 2025,
 * docs/isa-extensions.md): the ordinary integer operations whose 64-bit
 * meaning is the same formula at any width, scalar and RVV. */
#include "isa.h"

#define V3(n, op)                                                                                  \
  {ISA_##n##_vv, op, ISA_PF_VV}, {ISA_##n##_vx, op, ISA_PF_VX}, { ISA_##n##_vi, op, ISA_PF_VI }
#define V2(n, op)                                                                                  \
  {ISA_##n##_vv, op, ISA_PF_VV}, { ISA_##n##_vx, op, ISA_PF_VX }
#define VXI(n, op)                                                                                 \
  {ISA_##n##_vx, op, ISA_PF_VX}, { ISA_##n##_vi, op, ISA_PF_VI }
static const isa_pair_op ops[] = {
    {ISA_add, ISA_PO_ADD, ISA_PF_RR},
    {ISA_sub, ISA_PO_SUB, ISA_PF_RR},
    {ISA_and, ISA_PO_AND, ISA_PF_RR},
    {ISA_or, ISA_PO_OR, ISA_PF_RR},
    {ISA_xor, ISA_PO_XOR, ISA_PF_RR},
    {ISA_sll, ISA_PO_SLL, ISA_PF_RR},
    {ISA_srl, ISA_PO_SRL, ISA_PF_RR},
    {ISA_sra, ISA_PO_SRA, ISA_PF_RR},
    {ISA_slt, ISA_PO_SLT, ISA_PF_RR},
    {ISA_sltu, ISA_PO_SLTU, ISA_PF_RR},
    {ISA_mul, ISA_PO_MUL, ISA_PF_RR},
    {ISA_addi, ISA_PO_ADD, ISA_PF_RI},
    {ISA_andi, ISA_PO_AND, ISA_PF_RI},
    {ISA_ori, ISA_PO_OR, ISA_PF_RI},
    {ISA_xori, ISA_PO_XOR, ISA_PF_RI},
    {ISA_slli, ISA_PO_SLL, ISA_PF_RI},
    {ISA_srli, ISA_PO_SRL, ISA_PF_RI},
    {ISA_srai, ISA_PO_SRA, ISA_PF_RI},
    {ISA_slti, ISA_PO_SLT, ISA_PF_RI},
    {ISA_sltiu, ISA_PO_SLTU, ISA_PF_RI},
    V3(vadd, ISA_PO_ADD),
    V2(vsub, ISA_PO_SUB),
    VXI(vrsub, ISA_PO_RSUB),
    V3(vand, ISA_PO_AND),
    V3(vor, ISA_PO_OR),
    V3(vxor, ISA_PO_XOR),
    V3(vsll, ISA_PO_SLL),
    V3(vsrl, ISA_PO_SRL),
    V3(vsra, ISA_PO_SRA),
    V2(vmul, ISA_PO_MUL),
    V2(vmin, ISA_PO_MIN),
    V2(vminu, ISA_PO_MINU),
    V2(vmax, ISA_PO_MAX),
    V2(vmaxu, ISA_PO_MAXU),
    V3(vmseq, ISA_PO_SEQ),
    V3(vmsne, ISA_PO_SNE),
    V2(vmslt, ISA_PO_SLT),
    V2(vmsltu, ISA_PO_SLTU),
    V3(vmsle, ISA_PO_SLE),
    V3(vmsleu, ISA_PO_SLEU),
    VXI(vmsgt, ISA_PO_SGT),
    VXI(vmsgtu, ISA_PO_SGTU),
};

const isa_pair_op *isa_pair_op_of(isa_id id) {
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
    if (ops[i].id == id) return &ops[i];
  return NULL;
}
