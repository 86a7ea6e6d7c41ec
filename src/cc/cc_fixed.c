/* The integer builtins whose result depends on the element width, as the
 * vector unit's fixed-point and high-half instructions
 * (docs/isa-extensions.md "Fixed point", "Element widths"): on an ISA
 * revision 2025 device hadd and rhadd of char, uchar, short, ushort, int
 * and uint are vaadd(u) with vxrm rdn and rnu, mul_hi of the narrow types
 * vmulh(u) at their SEW, and the saturating additions and subtractions
 * (llvm.{s,u}{add,sub}.sat, which the optimiser makes of add_sat,
 * sub_sat and clamp idioms; cc_lower_int.c leaves them) vsadd(u) and
 * vssub(u). mul_hi of int and uint is vmulh(u).vv at SEW 32, which the
 * baseline has too. A call is renamed to a __cy_vx_* primitive before
 * libclc is linked (keeping clang's attributes: a pure function), and the
 * back end selects it as one template with its vsetvli around it, so the
 * vtype is e32 between templates. A narrow value is held zero-extended,
 * which is what a SEW-8/16 write leaves. */
#include <string.h>

#include "cc_internal.h"

#define VXRM(m) "csrwi vxrm, " #m "\n        "
#define SEW(s, insn) "vsetvli zero, zero, e" #s ", m1, ta, ma\n        " insn "\n        vsetvli zero, zero, e32, m1, ta, ma"

static const struct {
  const char *builtin, *prim, *fmt;
  int base; /* the baseline has it too */
} prims[] = {
    {"_Z4haddcc", "__cy_vx_hadd_c", VXRM(2) SEW(8, "vaadd.vv %0, %1, %2"), 0},
    {"_Z4haddhh", "__cy_vx_hadd_h", VXRM(2) SEW(8, "vaaddu.vv %0, %1, %2"), 0},
    {"_Z4haddss", "__cy_vx_hadd_s", VXRM(2) SEW(16, "vaadd.vv %0, %1, %2"), 0},
    {"_Z4haddtt", "__cy_vx_hadd_t", VXRM(2) SEW(16, "vaaddu.vv %0, %1, %2"), 0},
    {"_Z4haddii", "__cy_vx_hadd_i", VXRM(2) "vaadd.vv %0, %1, %2", 0},
    {"_Z4haddjj", "__cy_vx_hadd_j", VXRM(2) "vaaddu.vv %0, %1, %2", 0},
    {"_Z5rhaddcc", "__cy_vx_rhadd_c", VXRM(0) SEW(8, "vaadd.vv %0, %1, %2"), 0},
    {"_Z5rhaddhh", "__cy_vx_rhadd_h", VXRM(0) SEW(8, "vaaddu.vv %0, %1, %2"), 0},
    {"_Z5rhaddss", "__cy_vx_rhadd_s", VXRM(0) SEW(16, "vaadd.vv %0, %1, %2"), 0},
    {"_Z5rhaddtt", "__cy_vx_rhadd_t", VXRM(0) SEW(16, "vaaddu.vv %0, %1, %2"), 0},
    {"_Z5rhaddii", "__cy_vx_rhadd_i", VXRM(0) "vaadd.vv %0, %1, %2", 0},
    {"_Z5rhaddjj", "__cy_vx_rhadd_j", VXRM(0) "vaaddu.vv %0, %1, %2", 0},
    {"_Z6mul_hicc", "__cy_vx_mulhi_c", SEW(8, "vmulh.vv %0, %1, %2"), 0},
    {"_Z6mul_hihh", "__cy_vx_mulhi_h", SEW(8, "vmulhu.vv %0, %1, %2"), 0},
    {"_Z6mul_hiss", "__cy_vx_mulhi_s", SEW(16, "vmulh.vv %0, %1, %2"), 0},
    {"_Z6mul_hitt", "__cy_vx_mulhi_t", SEW(16, "vmulhu.vv %0, %1, %2"), 0},
    {"_Z6mul_hiii", "__cy_vx_mulhi_i", "vmulh.vv %0, %1, %2", 1},
    {"_Z6mul_hijj", "__cy_vx_mulhi_j", "vmulhu.vv %0, %1, %2", 1},
    {"llvm.sadd.sat.i8", NULL, SEW(8, "vsadd.vv %0, %1, %2"), 0},
    {"llvm.uadd.sat.i8", NULL, SEW(8, "vsaddu.vv %0, %1, %2"), 0},
    {"llvm.ssub.sat.i8", NULL, SEW(8, "vssub.vv %0, %1, %2"), 0},
    {"llvm.usub.sat.i8", NULL, SEW(8, "vssubu.vv %0, %1, %2"), 0},
    {"llvm.sadd.sat.i16", NULL, SEW(16, "vsadd.vv %0, %1, %2"), 0},
    {"llvm.uadd.sat.i16", NULL, SEW(16, "vsaddu.vv %0, %1, %2"), 0},
    {"llvm.ssub.sat.i16", NULL, SEW(16, "vssub.vv %0, %1, %2"), 0},
    {"llvm.usub.sat.i16", NULL, SEW(16, "vssubu.vv %0, %1, %2"), 0},
    {"llvm.sadd.sat.i32", NULL, "vsadd.vv %0, %1, %2", 0},
    {"llvm.uadd.sat.i32", NULL, "vsaddu.vv %0, %1, %2", 0},
    {"llvm.ssub.sat.i32", NULL, "vssub.vv %0, %1, %2", 0},
    {"llvm.usub.sat.i32", NULL, "vssubu.vv %0, %1, %2", 0},
};
enum { NPRIM = sizeof prims / sizeof *prims };

int cc_fixed_known(const char *name) {
  for (int i = 0; i < NPRIM; i++)
    if (prims[i].prim && !strcmp(name, prims[i].builtin)) return 1;
  return 0;
}

int cc_fixed_keeps(const char *name, int isa) {
  if (isa != 2025) return 0;
  for (int i = 0; i < NPRIM; i++)
    if (!prims[i].prim && !strcmp(name, prims[i].builtin)) return 1;
  return 0;
}

void cc_map_fixed_builtins(LLVMModuleRef m, int isa) {
  for (int i = 0; i < NPRIM; i++) {
    if (!prims[i].prim || (isa != 2025 && !prims[i].base)) continue;
    LLVMValueRef fn = LLVMGetNamedFunction(m, prims[i].builtin);
    if (!fn || LLVMGetFirstBasicBlock(fn) || LLVMGetNamedFunction(m, prims[i].prim)) continue;
    LLVMSetValueName2(fn, prims[i].prim, strlen(prims[i].prim));
  }
}

int cc_select_fixed(cc_fn *f, LLVMValueRef call, const char *name) {
  if (strncmp(name, "__cy_vx_", 8) && strncmp(name, "llvm.", 5)) return -1;
  for (int i = 0; i < NPRIM; i++) {
    if (strcmp(name, prims[i].prim ? prims[i].prim : prims[i].builtin)) continue;
    int k = cc_val_num(f, call), a = cc_vec(f, LLVMGetOperand(call, 0)), b = cc_vec(f, LLVMGetOperand(call, 1));
    int d = a < 0 || b < 0 ? -1 : cc_new_vreg(f, CC_V);
    if (k < 0 || d < 0 || CC_EMIT(f, prims[i].fmt, 1, cc_r(d), cc_r(a), cc_r(b))) return -2;
    f->vreg[k] = d;
    return 0;
  }
  return -1;
}
