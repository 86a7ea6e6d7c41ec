/* The F-register instructions the reference ISS executes (it runs as
 * rv32gc): flw, fsw, fmv.x.w, fmv.w.x. Their f registers mirror the x
 * registers of the same number (set_x/set_f in core.h, docs/isa.md §2), so
 * moving a value through f gives what the ISS gives. Like every F
 * instruction of the ISS (require_fp) they need mstatus.FS on. */
#include "exec.h"

static int need_fs(vt_exec *x) {
  if (likely(x->w->mstatus & MSTATUS_FS)) return 0;
  vt_fail(x->e, VT_ERR_ILLEGAL,
          "f-register instruction while mstatus.FS is off (the start-up code sets it)");
  return -1;
}

HANDLER(flw) {
  uint32_t v;
  if (need_fs(x) || scalar_load(x, XR(in->rs1) + (uint32_t)in->imm, 4, 0, &v)) return -1;
  set_f(x, in->rd, v);
  return 0;
}

/* the low 32 bits of the f register, boxed or not (spike: FRS2.v[0]) */
HANDLER(fsw) {
  if (need_fs(x)) return -1;
  return scalar_store(x, XR(in->rs1) + (uint32_t)in->imm, 4, (uint32_t)x->w->f[in->rs2]);
}

HANDLER(fmv_x_w) {
  if (need_fs(x)) return -1;
  set_x(x, in->rd, (uint32_t)x->w->f[in->rs1]);
  return 0;
}

HANDLER(fmv_w_x) {
  if (need_fs(x)) return -1;
  set_f(x, in->rd, XR(in->rs1));
  return 0;
}
