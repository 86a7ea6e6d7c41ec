/* OpenCL's explicit conversions, convert_<type>[_sat][_<rounding>](x), on
 * scalars and vectors (element by element): float to integer with the
 * asked rounding mode (rtz by default) through fcvt (the scalar form names
 * the mode, the vector form reads frm, which is set around it), integer to
 * float (rte by default), integer to integer; _sat clamps to the
 * destination's range, and NaN becomes 0 (the ISA's conversions already
 * saturate to 32 bits). 64-bit integers: cc_isel_convert64.c; doubles and
 * halves are refused. */
#include <stdlib.h>
#include <string.h>

#include "cc_internal.h"

typedef struct {
  int fl, sgn, w; /* float; signed; width in bits */
} ty;

static const struct {
  const char *name;
  ty t;
} types[] = {{"char", {0, 1, 8}},   {"uchar", {0, 0, 8}}, {"short", {0, 1, 16}}, {"ushort", {0, 0, 16}},
             {"int", {0, 1, 32}},   {"uint", {0, 0, 32}}, {"float", {1, 1, 32}}, {"long", {0, 1, 64}},
             {"ulong", {0, 0, 64}}};

/* the mangled letter of a scalar parameter type */
static int param_type(char c, ty *t) {
  switch (c) {
  case 'c':
  case 'a': *t = (ty){0, 1, 8}; return 0;
  case 'h': *t = (ty){0, 0, 8}; return 0;
  case 's': *t = (ty){0, 1, 16}; return 0;
  case 't': *t = (ty){0, 0, 16}; return 0;
  case 'i': *t = (ty){0, 1, 32}; return 0;
  case 'j': *t = (ty){0, 0, 32}; return 0;
  case 'f': *t = (ty){1, 1, 32}; return 0;
  case 'l': *t = (ty){0, 1, 64}; return 0;
  case 'm': *t = (ty){0, 0, 64}; return 0;
  default: return -1; /* double, half, bool */
  }
}

enum { RM_DEFAULT = -1, RM_RNE = 0, RM_RTZ = 1, RM_RDN = 2, RM_RUP = 3 };

/* convert_<dst>[_sat][_rXX](<src>): 0 parsed, -1 not a conversion, -2 a form we refuse */
static int parse(const char *name, ty *dst, ty *src, int *sat, int *rm) {
  if (strncmp(name, "_Z", 2)) return -1;
  char *end;
  long len = strtol(name + 2, &end, 10);
  if (len < 8 || strncmp(end, "convert_", 8) || (long)strlen(end) <= len) return -1;
  char fn[64];
  if (len >= (long)sizeof fn) return -1;
  memcpy(fn, end + 8, (size_t)len - 8);
  fn[len - 8] = 0;
  const char *params = end + len;
  *sat = 0;
  *rm = RM_DEFAULT;
  static const char *const rms[] = {"_rte", "_rtz", "_rtn", "_rtp"};
  static const int rmv[] = {RM_RNE, RM_RTZ, RM_RDN, RM_RUP};
  size_t l = strlen(fn);
  for (int i = 0; i < 4; i++)
    if (l > 4 && !strcmp(fn + l - 4, rms[i])) {
      *rm = rmv[i];
      fn[l -= 4] = 0;
    }
  if (l > 4 && !strcmp(fn + l - 4, "_sat")) {
    *sat = 1;
    fn[l -= 4] = 0;
  }
  while (l && fn[l - 1] >= '0' && fn[l - 1] <= '9') fn[--l] = 0; /* the vector width */
  int found = 0;
  for (size_t i = 0; i < sizeof types / sizeof *types; i++)
    if (!strcmp(fn, types[i].name)) {
      *dst = types[i].t;
      found = 1;
    }
  if (!strncmp(params, "Dv", 2)) { /* Dv<n>_<letter> */
    params = strchr(params, '_');
    if (!params) return -1;
    params++;
  }
  if (!found || param_type(params[0], src)) return -2;
  return 0;
}

static int csr_frm(cc_fn *f, int m) { /* old frm */
  int old = cc_new_vreg(f, CC_S);
  return old < 0 || CC_EMIT(f, "csrrwi %0, frm, %1", 1, cc_r(old), cc_imm(m)) ? -1 : old;
}

/* x < y or y < x, then the bound where it is exceeded */
static int clamp(cc_fn *f, int vec, int x, int32_t k, int sgn, int upper) {
  int kr = cc_xk(f, vec, k);
  int c = upper ? cc_x3(f, vec, sgn ? CC_XSLT : CC_XSLTU, -1, kr, x) : cc_x3(f, vec, sgn ? CC_XSLT : CC_XSLTU, -1, x, kr);
  return cc_xpick(f, vec, cc_xneg(f, vec, c), kr, x);
}

static int conv1(cc_fn *f, int vec, int x, ty s, ty d, int sat, int rm) {
  int r = -1, cls = vec ? CC_V : CC_S;
  if (s.fl && d.fl) return x;
  if (!s.fl && d.fl) { /* integer to float: round to nearest even unless asked */
    static const char *const sm[] = {"fcvt.s.w %0, %1, rne", "fcvt.s.w %0, %1, rtz", "fcvt.s.w %0, %1, rdn",
                                     "fcvt.s.w %0, %1, rup"};
    static const char *const um[] = {"fcvt.s.wu %0, %1, rne", "fcvt.s.wu %0, %1, rtz", "fcvt.s.wu %0, %1, rdn",
                                     "fcvt.s.wu %0, %1, rup"};
    int m = rm == RM_DEFAULT ? RM_RNE : rm, sg = s.sgn;
    if ((r = cc_new_vreg(f, cls)) < 0) return -1;
    if (!vec) return CC_EMIT(f, sg ? sm[m] : um[m], 1, cc_r(r), cc_r(x)) ? -1 : r;
    int old = csr_frm(f, m);
    if (old < 0 || CC_EMIT(f, sg ? "vfcvt.f.x.v %0, %1" : "vfcvt.f.xu.v %0, %1", 1, cc_r(r), cc_r(x)) ||
        CC_EMIT(f, "csrw frm, %0", 0, cc_r(old)))
      return -1;
    return r;
  }
  if (s.fl) { /* float to integer: toward zero unless asked */
    static const char *const sm[] = {"fcvt.w.s %0, %1, rne", "fcvt.w.s %0, %1, rtz", "fcvt.w.s %0, %1, rdn",
                                     "fcvt.w.s %0, %1, rup"};
    static const char *const um[] = {"fcvt.wu.s %0, %1, rne", "fcvt.wu.s %0, %1, rtz", "fcvt.wu.s %0, %1, rdn",
                                     "fcvt.wu.s %0, %1, rup"};
    int m = rm == RM_DEFAULT ? RM_RTZ : rm;
    if ((r = cc_new_vreg(f, cls)) < 0) return -1;
    if (!vec) {
      if (CC_EMIT(f, d.sgn ? sm[m] : um[m], 1, cc_r(r), cc_r(x))) return -1;
    } else if (m == RM_RTZ) {
      if (CC_EMIT(f, d.sgn ? "vfcvt.rtz.x.f.v %0, %1" : "vfcvt.rtz.xu.f.v %0, %1", 1, cc_r(r), cc_r(x))) return -1;
    } else {
      int old = csr_frm(f, m);
      if (old < 0 || CC_EMIT(f, d.sgn ? "vfcvt.x.f.v %0, %1" : "vfcvt.xu.f.v %0, %1", 1, cc_r(r), cc_r(x)) ||
          CC_EMIT(f, "csrw frm, %0", 0, cc_r(old)))
        return -1;
    }
    if (sat) {
      if (d.w < 32) {
        r = clamp(f, vec, r, d.sgn ? (int32_t)((1u << (d.w - 1)) - 1) : (int32_t)((1u << d.w) - 1), d.sgn, 1);
        if (d.sgn) r = clamp(f, vec, r, -(int32_t)(1u << (d.w - 1)), 1, 0);
      }
      /* NaN converts to 0 */
      int ok = cc_new_vreg(f, cls);
      if (ok < 0 || r < 0 || CC_EMIT(f, vec ? "vmfeq.vv %0, %1, %1" : "feq.s %0, %1, %1", 1, cc_r(ok), cc_r(x))) return -1;
      r = cc_x3(f, vec, CC_XAND, -1, r, cc_xneg(f, vec, ok));
    }
    return r < 0 ? -1 : cc_mask_to(f, r, vec, d.w);
  }
  /* integer to integer: the source as a 32-bit value (sign-extended if signed) */
  r = x;
  if (sat) {
    if (s.sgn && d.sgn && d.w < s.w) {
      r = clamp(f, vec, r, (int32_t)((1u << (d.w - 1)) - 1), 1, 1);
      r = clamp(f, vec, r, -(int32_t)(1u << (d.w - 1)), 1, 0);
    } else if (s.sgn && !d.sgn) {
      r = clamp(f, vec, r, 0, 1, 0);
      if (d.w < 32 && d.w < s.w + 1) r = clamp(f, vec, r, (int32_t)((1u << d.w) - 1), 1, 1);
    } else if (!s.sgn && (d.sgn ? d.w <= s.w : d.w < s.w)) {
      uint32_t max = d.sgn ? (1u << (d.w - 1)) - 1 : (1u << d.w) - 1;
      r = clamp(f, vec, r, (int32_t)max, 0, 1);
    }
  }
  return r < 0 ? -1 : cc_mask_to(f, r, vec, d.w);
}

int cc_select_convert_call(cc_fn *f, LLVMValueRef call, const char *name) {
  ty d, s;
  int sat, rm, p = parse(name, &d, &s, &sat, &rm);
  if (p == -1) return -1;
  if (p == -2) {
    cc_unsupported(f, call, "the conversion '%s' (doubles and halves are not supported)", name);
    return -2;
  }
  if (d.w == 64 || s.w == 64) return cc_select_convert64(f, call, d.fl, d.sgn, d.w, s.fl, s.sgn, s.w, sat, rm) ? -2 : 0;
  int k = cc_val_num(f, call), vec = f->div[k];
  LLVMValueRef a = LLVMGetOperand(call, 0);
  if (LLVMGetTypeKind(LLVMTypeOf(call)) != LLVMVectorTypeKind) {
    int x = cc_operand(f, a, vec, !s.fl && s.sgn), r = x < 0 ? -1 : conv1(f, vec, x, s, d, sat, rm);
    if (r < 0) return -2;
    f->vreg[k] = r;
    return 0;
  }
  int n = (int)LLVMGetVectorSize(LLVMTypeOf(call)), *g = cc_group_of(f, a, vec);
  if (!g) return -2;
  for (int i = 0; i < n; i++) {
    int x = g[i];
    if (!s.fl && s.sgn && s.w < 32) { /* elements are kept zero-extended */
      int t = cc_xi(f, vec, CC_XSLL, -1, x, 32 - s.w);
      x = cc_xi(f, vec, CC_XSRA, -1, t, 32 - s.w);
    }
    if (x < 0 || (g[i] = conv1(f, vec, x, s, d, sat, rm)) < 0) {
      free(g);
      return -2;
    }
  }
  return cc_set_group(f, call, g) ? -2 : 0;
}
