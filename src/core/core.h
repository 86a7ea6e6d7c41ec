/* Internal state of the functional core: device, SMs, work-groups, warps,
 * and the execution context the instruction handlers receive. Only
 * core sources include this; the public interface is device.h. */
#ifndef VT_CORE_H
#define VT_CORE_H

#include <stdint.h>
#include <string.h>

#include "device.h"
#include "mem.h"
#include "vt_alloc.h"

#define VT_NUM_XREGS 256 /* regext reaches x0..x255 (ISS NXPR = 256) */
#define VT_NUM_VREGS 256

#if defined(__GNUC__)
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#else
#define likely(x) (x)
#define unlikely(x) (x)
#endif

/* mstatus bits the reference ISS shows in its commit log */
#define MSTATUS_VS 0x00000600u
#define MSTATUS_FS 0x00006000u
#define MSTATUS_SD 0x80000000u
#define MSTATUS_RESET 0x00000200u /* VS = initial: the first vector op logs 0x80000600 */

/* vtype.vill: set by vsetvl* for a vtype the executor does not implement
 * (anything but SEW = 32, LMUL = 1; in revision 2025 SEW = 8, 16, 32 or 64,
 * LMUL = 1); vector instructions are then illegal */
#define VTYPE_VILL 0x80000000u

/* Custom CSRs 0x800..0x80c are plain read-write registers, as in the ISS. */
#define VT_NUM_CUSTOM_CSRS 13

typedef struct vt_wg vt_wg;

typedef struct vt_warp {
  /* hot state first */
  uint32_t pc;
  uint32_t mask;    /* SIMT thread mask */
  uint32_t prefix;  /* pending regext/regexti word, 0 if none */
  uint32_t vl;
  uint32_t x[VT_NUM_XREGS];
  uint32_t (*v)[VT_MAX_LANES]; /* VT_NUM_VREGS registers, one element per lane */
  void *v_mem;                 /* the allocation v lies in (warp_alloc) */
  /* f registers as the ISS keeps them (FLEN = 64, f0 hard-wired to 0): the
   * low 64 bits; a single-precision value is NaN-boxed (upper half all
   * ones). Reset leaves 0, which is not a boxed single (docs/isa.md §2). */
  uint64_t f[VT_NUM_XREGS];

  int active;       /* slot holds a running warp */
  int ended;        /* executed endprg */
  int bar_wait;     /* arrived at a barrier, re-executing it */
  uint32_t bar_gen; /* generation of the work-group barrier it waits for */
  int mbar_wait;     /* arrived at a cp_dma_mbarrier, re-executing it */
  uint32_t mbar_gen; /* generation of its group's mbarrier it waits for */

  uint32_t slot;    /* index inside its SM */
  uint32_t wid;     /* warp index inside the work-group */
  vt_wg *wg;

  /* SIMT stack (bottom first) */
  vt_simt_entry *stack;
  uint32_t depth;
  uint32_t simt_npc; /* "current npc" the ISS prints: last vbranch/join target */

  /* CSRs */
  uint32_t csr_custom[VT_NUM_CUSTOM_CSRS];
  uint32_t mstatus, fflags, frm, vtype, vstart;
  uint32_t vxrm, vxsat; /* fixed-point rounding mode and sticky saturation (revision 2025) */
  uint32_t mtvec, mscratch, mepc, mcause, mtval, mie, mip;
  uint64_t instret;
  uint64_t park_round; /* parked at a barrier (dispatch.c): the round of its last re-check */

  /* LR/SC reservation: host address of the reserved word, NULL = none;
   * counted in its group's nresv when on its local memory, else in the
   * device's (resv_local) */
  const uint8_t *resv;
  int resv_local;

  /* per pc slot: the last unit-stride vector access and its step from the
   * one before (exec_mem.c stride_hint; a host prefetch hint, no state of
   * the simulated machine) */
  uint32_t pf_addr[8], pf_step[8];
  /* the bytes of its last run ahead's instructions lie in [ahead_lo,
   * ahead_hi], an aligned block around them (stores into code are checked
   * against it) */
  uint32_t ahead_lo, ahead_hi;
} vt_warp;

/* The cp_dma_mbarrier state of one group of 4 warps (wid / 4). */
typedef struct {
  uint32_t arrived, gen;
} vt_mbar;

struct vt_wg {
  int active;
  uint32_t id;          /* linear work-group id */
  uint32_t sm;
  uint32_t slot;        /* index among the SM's work-group slots */
  uint32_t nwarps, ended, arrived;
  uint32_t bar_gen;
  uint32_t nparked;     /* warps parked at the barrier of generation park_gen (dispatch.c) */
  uint32_t park_gen;
  uint32_t nresv;       /* LR reservations its warps hold on its local memory (exec_mem.c) */
  vt_warp **warps;      /* [num_warps] */
  vt_mbar *mbar;        /* [(num_warps + 3) / 4] */
  /* local store of this work-group (the window at lds_base) */
  uint8_t *lds;
  void *lds_mem;        /* the allocation lds lies in (wg_place) */
  uint32_t lds_alloc;   /* flat part: [lds_base, lds_base + lds_alloc) */
  uint32_t vgprs, sgprs; /* registers it holds of its SM's budget */
  vt_sparse lds_far;    /* rest of the window, sparse, zero-filled */
};

/* One cache line per SM at least: the host threads of a parallel launch
 * own different SMs and update their counters at every group turnover. */
typedef struct vt_sm {
  _Alignas(64) vt_warp *warps; /* [warps_per_sm] */
  void *warps_mem;      /* the allocation warps lies in (vt_device_create) */
  vt_wg *wgs;           /* [wg_slots_per_sm] */
  uint32_t free_warps, free_wgs, lds_used;
  uint32_t vgprs_used, sgprs_used;
} vt_sm;

/* One predecoded static instruction (keyed by pc and the prefix word). */
struct vt_exec;
typedef int (*vt_exec_fn)(struct vt_exec *x, const isa_inst *in);
/* a handler's lean form for the run-ahead loop's full warps (exec_lean.c) */
/* x: the run-ahead loop's context, for the fp forms' way back to their handler */
typedef void (*vt_lean_fn)(struct vt_exec *x, vt_warp *w, const isa_inst *in);
typedef struct {
  uint32_t pc, prefix;
  uint32_t gen;   /* valid iff equal to the device's icache_gen */
  isa_inst in;
  vt_exec_fn fn;
  uint32_t flags;
  uint8_t unit;
  uint8_t private_only; /* touches nothing outside its warp (warp_turn) */
  uint8_t mem_ahead;    /* the memory it may run ahead on (VT_AHEAD_LOCAL, VT_AHEAD_RO) */
  /* The straight run from here (warp.c, run_build): VT_RUN_LEN bits say
   * how many entries from this one on, at consecutive pcs and of this
   * generation, the run-ahead loop may run without looking each up
   * (private instructions that keep the warp's mask, vl and vtype and fall
   * through, and one more private instruction of any kind), VT_RUN_SAME
   * that the mask, vl and vtype are the same after the run, VT_RUN_MASK
   * that vl and vtype are. 0: not known. A fill clears it in the
   * VT_RUN_MAX entries before its own. */
  uint8_t run;
  vt_lean_fn lean; /* the lean form (exec_lean.c) or NULL */
} vt_icache_entry;

#define VT_RUN_MAX 32
#define VT_RUN_LEN 0x3fu
#define VT_RUN_SAME 0x40u
#define VT_RUN_MASK 0x80u

#define VT_ICACHE_BITS 14

/* What one host thread running warps owns (the single-threaded loop and the
 * stepping interface use the device's worker 0; a parallel launch gives
 * every further thread its own, par_launch.c): statistics, the translation
 * cache, the predecode cache and the set of vector registers its decoded
 * instructions may write, so the hot path shares nothing mutable. */
typedef struct vt_worker {
  vt_stats *st;                /* worker 0: the device's; others: `own`, summed at the end */
  vt_tlb_entry *tlb;           /* [VT_TLB_SIZE]; worker 0: the memory's */
  vt_icache_entry *icache;     /* [1 << VT_ICACHE_BITS]; worker 0: the device's */
  /* Vector registers some instruction decoded on this device may have
   * written (rd .. rd + VT_VWRITE_SPAN - 1 of every decoded vector
   * instruction, of every one in revision 2025, never cleared): a new warp
   * clears only these, all others are still
   * the zeros of their allocation. A parallel worker starts from worker
   * 0's set and ORs its own back into it. */
  uint64_t vwritten[VT_NUM_VREGS / 64];
  /* The same for the x and f registers (rd .. rd + VT_XWRITE_SPAN - 1 of
   * every decoded instruction): a new warp clears only these. */
  uint64_t xwritten[VT_NUM_XREGS / 64];
  vt_stats own;
  vt_commit *commit;           /* where a recording step writes; NULL: the device's (timing threads: their own) */
  uint64_t ahead;              /* warp-instructions run ahead (a debug counter: vt_device_ahead_insns) */
  uint64_t parked;             /* barrier re-checks skipped by parking (vt_device_parked_checks) */
  /* stores into decoded code (route): set by the store, cleared by the
   * loop that checks them against the warps running ahead */
  int smc;
  uint32_t smc_lo, smc_hi;     /* the bytes they stored, [lo, hi) */
  uint32_t smc_pc, smc_word;   /* the last such store instruction */
  uint32_t code_gen;           /* mem.code_gen its TLB was write-protected for */
} vt_worker;

/* How work-groups share the launch's private region (docs/simulator.md §3),
 * chosen by how many pds_size*numt*numw slices the region holds:
 * one per group (the Verilog/Chisel hosts: group b at slice b), one per
 * resident work-group slot (the RTL's CTA slots), or a single slice that
 * every group uses, as in the ISS, which then run one at a time. */
typedef enum { VT_PDS_PER_GROUP, VT_PDS_PER_SLOT, VT_PDS_SHARED } vt_pds_layout;

struct vt_device {
  vt_config cfg;
  vt_mem mem;
  vt_sm *sms;
  vt_icache_entry *icache;     /* [1 << VT_ICACHE_BITS] */
  uint32_t icache_gen;
  vt_worker w0;                /* the single-threaded loop's worker */
  uint64_t *due;               /* [num_sm * warps_per_sm]: the single-threaded loop's next round per warp slot */
  struct vt_par *par;          /* further workers of parallel launches (par_launch.c), NULL until one */
  vt_commit commit;            /* the record handed to the trace sink */

  vt_commit_fn trace_fn;
  void *trace_user;
  int record;                  /* fill `commit` on every step: a trace sink or a stepping caller */
  vt_launch_fn launcher;       /* replaces the functional loop (timing mode), NULL = none */
  void *launcher_user;
  vt_print_fn print_fn;
  void *print_user;
  vt_progress_fn progress_fn;
  void *progress_user;

  vt_stats stats;
  uint32_t nresv;              /* warps holding an LR reservation on memory other than their group's local */

  /* per-launch */
  vt_launch l;
  uint64_t steps;
  uint64_t wg_next, wg_total, wg_done; /* work-groups dispatched so far, in all, finished */
  uint32_t lds_alloc;          /* local bytes per work-group */
  uint32_t pds_stride;         /* private bytes per work-group: pds_size*numt*numw */
  vt_pds_layout pds_layout;    /* which slice of the private region a group gets */
  uint64_t lds_far_pages;      /* sparse local pages held by all resident groups (atomic: all workers) */
  int parallel;                /* the running launch spreads over host threads: AMOs take a lock */
  uint32_t code_lo, code_size; /* the region of start_pc, which par_eligible scanned */
  int code_ranged;             /* par_eligible scanned only the launch's code_ranges */
  double cpu_busiest, cpu_all; /* vt_device_host_cpu */
};

/* The most vector registers one instruction writes, from rd upwards; an
 * executor writing more must raise it or be marked in icache_fill (the
 * tensor unit's MMA is: it marks rd..v255), since warp_reset relies on it. */
#define VT_VWRITE_SPAN 4u
/* The most x (and mirrored f) registers one instruction writes from rd
 * upwards: pair ops write rd, rd + 1, a prefixed load up to four words
 * (set_x, set_f and set_xpair are the only writers). */
#define VT_XWRITE_SPAN 4u

/* Everything an instruction handler needs. */
typedef struct vt_exec {
  vt_device *d;
  vt_worker *k;      /* the host thread's worker */
  vt_stats *st;      /* = k->st */
  vt_warp *w;
  vt_wg *wg;
  vt_error *e;
  uint32_t pc, npc;
  uint32_t word;
  uint32_t emask;    /* lanes a vector op writes (mask & vl [& v0]) */
  uint32_t fflags;   /* flags raised by this instruction */
  int err_lane;      /* lane of a per-lane fault, -1 if none */
  int spin;          /* barrier re-check */
  int waits;         /* arrived at a barrier and waits: it retires when released */
  int stop;          /* warp left the run queue (endprg) */
  int ahead_mem;     /* running ahead (VT_AHEAD_* bits; 0 in the instruction's round): an
                      * access to other memory is declined (VT_EXEC_DECLINED), not executed */
  vt_commit *c;      /* NULL unless tracing */
  vt_commit *m;      /* where memory accesses and copies are recorded: c, or a stepping
                      * caller's lean record without a trace sink (step_at); else NULL */
} vt_exec;

/* A handler's return value for an instruction it declined to run ahead
 * (x->ahead_mem): nothing changed, the instruction runs in its round. */
#define VT_EXEC_DECLINED 2
/* Memory an instruction may run ahead on (warp.c, run_ahead): its group's
 * flat local part while every other warp of the group waits at the barrier
 * (vector loads and stores), and, for loads, pages no store can reach in
 * the launch (regions without write permission). */
#define VT_AHEAD_LOCAL 1
#define VT_AHEAD_RO 2

/* ---- helpers shared by the handlers ------------------------------------ */
static inline void trace_x(vt_exec *x, unsigned reg, uint32_t val) {
  if (x->c && reg != 0 && x->c->nx < 2) {
    x->c->x[x->c->nx].reg = (uint16_t)reg;
    x->c->x[x->c->nx].val = val;
    x->c->nx++;
  }
}
void trace_csr(vt_exec *x, unsigned csr, uint32_t val);
void trace_vreg_record(vt_exec *x, unsigned reg);
/* inline test so the untraced path costs one predictable branch, not a call */
static inline void trace_vreg(vt_exec *x, unsigned reg) {
  if (x->c) trace_vreg_record(x, reg);
}
/* a lean record's unit-stride span (exec_mem.c trace_unit) listed lane by
 * lane: another access of the instruction follows it */
void trace_unit_spill(vt_commit *c);
static inline void trace_mem(vt_exec *x, uint32_t addr, uint32_t val, unsigned size, int store) {
  vt_commit *c = x->m;
  if (c && unlikely(c->unit_n)) trace_unit_spill(c);
  if (c && c->nmem < VT_MAX_MEM) {
    c->mem[c->nmem].addr = addr;
    c->mem[c->nmem].val = val;
    c->mem[c->nmem].size = (uint8_t)size;
    c->mem[c->nmem].store = (uint8_t)store;
    c->nmem++;
  }
}

/* Zfinx mirroring in the ISS dirties mstatus.FS on every x write while FS
 * is on, x0 included (its f0 stays 0): so the csrrs that turns FS on
 * already leaves it Dirty. The commit log shows that mstatus change once. */
void mark_fs_dirty(vt_exec *x);
void mark_vs_dirty(vt_exec *x);
#define F_BOX 0xffffffff00000000ull /* NaN-boxing of a single in a 64-bit f register */
static inline void set_x(vt_exec *x, unsigned rd, uint32_t val) {
  uint32_t fs = x->w->mstatus & MSTATUS_FS;
  if (rd != 0) {
    x->w->x[rd] = val;
    trace_x(x, rd, val);
    if (fs != 0) x->w->f[rd] = F_BOX | val; /* the ISS mirrors x writes into f while FS is on */
  }
  if (unlikely(fs != 0 && fs != MSTATUS_FS)) mark_fs_dirty(x);
}

/* A write the ISS makes with WRITE_FRD: f[rd] gets the boxed single and
 * x[rd] a copy of it (whatever FS is); the log shows the f register, f0
 * included although f0 and x0 stay 0. */
static inline void set_f(vt_exec *x, unsigned rd, uint32_t val) {
  if (rd != 0) {
    x->w->f[rd] = F_BOX | val;
    x->w->x[rd] = val;
  }
  if (x->c) {
    x->c->has_f = 1;
    x->c->freg = (uint16_t)rd;
    x->c->fval = F_BOX | val;
  }
  mark_fs_dirty(x);
}

/* Per-instruction fp bookkeeping: dynamic rounding mode and flags. */
int fp_rm(vt_exec *x, unsigned rm, unsigned *out);
void fp_commit_flags(vt_exec *x);

/* Device faults: fill the error (context is added by the step loop). */
int exec_fault(vt_exec *x, vt_err_kind k, int lane, uint32_t addr, const char *what);

/* Memory access with routing (local window / global device memory); priv
 * only counts the access as private in the statistics. */
enum { ACC_R = VT_PERM_R, ACC_W = VT_PERM_W, ACC_X = VT_PERM_X };
uint8_t *route(vt_exec *x, uint32_t addr, unsigned size, unsigned acc, int priv, int lane);
/* Scalar loads and stores (lw/sw, flw/fsw): route, access, trace, count. */
int scalar_load(vt_exec *x, uint32_t addr, unsigned size, int sign, uint32_t *v);
int scalar_store(vt_exec *x, uint32_t addr, unsigned size, uint32_t v);
/* Drops LR reservations of other warps on the stored word. */
void resv_store(vt_exec *x, const uint8_t *host);
/* whether any reservation a store by x could break is held: stores skip
 * resv_store per lane without */
static inline int resv_held(const vt_exec *x) { return (x->d->nresv | x->wg->nresv) != 0; }
/* drops warp w's reservation, if any, from its counter */
void resv_drop(vt_device *d, vt_warp *w);

/* CSR access used by the Zicsr handlers. */
int csr_read(vt_exec *x, unsigned csr, uint32_t *val);
int csr_write(vt_exec *x, unsigned csr, uint32_t val);

/* Work-group / warp management (dispatch.c, warp.c). */
/* Allocates slot `slot`'s registers and SIMT stack on its first use; -1 on OOM. */
int warp_alloc(vt_device *d, vt_warp *w, uint32_t slot, vt_error *e);
void warp_reset(vt_device *d, vt_worker *k, vt_warp *w, vt_wg *wg, uint32_t wid);
int warp_step(vt_device *d, vt_worker *k, vt_warp *w, vt_error *e);
/* The launch loop's turn of a warp: warp_step; then, if that returned 0
 * (and limit > 0: never while recording), run-ahead: up to `limit` of w's next
 * instructions at once while they are predecoded and touch nothing outside
 * the warp (integer and fp ops, branches, SIMT ops, CSRs of its own), for
 * the rounds the launch loop would give them one by one: nothing else can
 * observe the difference. *ahead gets how many ran; *fault is set if the
 * next one faulted, its error in ahead_e, to be reported in the round it
 * belongs to. */
int warp_turn(vt_device *d, vt_worker *k, vt_warp *w, vt_error *e, uint32_t limit, uint32_t *ahead,
              vt_error *ahead_e, int *fault);
/* A stepping caller's run-ahead (vt_step_ahead): up to max of w's private
 * instructions, each recorded in rec as a peek would have seen it; the
 * returned count ran. None under a trace sink or with run_ahead = 0. */
uint32_t warp_ahead_records(vt_device *d, vt_worker *k, vt_warp *w, vt_step_rec *rec, uint32_t max);
/* Launch phases shared by the functional loop and the stepping interface. */
int launch_begin(vt_device *d, const vt_launch *l, vt_error *e);
int launch_retire(vt_device *d, int *progress, vt_error *e); /* retire finished groups, refill */
/* The predecoded next instruction of w (filling the worker's cache); NULL on
 * a fetch or decode fault, the error carrying the warp's context. */
const vt_icache_entry *warp_decode(vt_device *d, vt_worker *k, vt_warp *w, vt_error *e);
void icache_clear(vt_device *d);
/* A store into decoded instructions (route): drops the predecoded ones and
 * tells the worker's loop, which checks the warps running ahead. */
void code_store(vt_exec *x, uint32_t addr, unsigned size);
/* The warps that ran ahead, after warp `self` (slot index j of SM-major
 * order, in `round`) stored into code: -1 with *e when one of them may
 * have run an instruction it changed in a later round; due as in
 * vt_device_launch, slots first..first+step.. */
int code_store_check(vt_device *d, vt_worker *k, const uint64_t *due, uint64_t round, uint32_t self,
                     uint32_t first, uint32_t step, vt_error *e);
/* Work-group slots, shared by the single-threaded loop and the workers of
 * a parallel launch (dispatch.c). */
/* Whether the launch lists the AMO at pc as one on __local memory
 * (vt_launch.amo_local; par_launch.c). */
int par_amo_listed(const vt_device *d, uint32_t pc);
/* Whether pc lies in the launch's code extents (vt_launch.code_ranges). */
int par_in_code(const vt_device *d, uint32_t pc);
void wg_release(vt_device *d, vt_wg *wg);
/* Puts group `id` into a free slot of SM `s` (the caller checked room). */
int wg_place(vt_device *d, vt_worker *k, uint32_t s, uint64_t id, vt_error *e);
/* 1 when SM `s` has room for one more group of the launch. */
int sm_has_room(const vt_device *d, uint32_t s);
/* Fills *e with the deadlock of a stuck group on SMs first, first+step, ...
 * (all SMs: 0, 1) and returns -1, the group's id in *wg: the first in SM
 * and slot order, or with `lowest` the one of lowest id. */
/* Barrier parking (park.c): due[j] of a parked warp. */
#define VT_DUE_PARKED (UINT64_MAX - 1)
/* When the warps of a group wake: in `round` for slots after `self`, else
 * in `at`; the step count holds every parked warp's re-checks up to round
 * `counted`. */
typedef struct {
  uint64_t round;
  uint32_t self;
  uint64_t at, counted;
} park_when;
void park_warp(vt_warp *w, uint64_t *due, uint32_t j, uint64_t round, uint32_t *parked);
void park_wake(vt_device *d, vt_worker *k, uint64_t *due, vt_wg *g, const park_when *t, uint32_t *parked,
               uint64_t *steps, uint64_t *next);
/* every parked warp of SMs first, first + step, ...: due in `round` */
void park_wake_all(vt_device *d, vt_worker *k, uint64_t *due, uint32_t first, uint32_t step, uint64_t round,
                   uint32_t *parked, uint64_t *steps, uint64_t *next);
/* The loop goes from round to round `to`: the parked warps' re-checks in
 * between are counted; with `wake` (nothing else to run, or a step limit
 * near) they are all woken for round `to`. */
void park_advance(vt_device *d, vt_worker *k, uint64_t *due, uint32_t first, uint32_t step, uint64_t round,
                  uint64_t to, int wake, uint32_t *parked, uint64_t *steps);
int launch_deadlock(vt_device *d, vt_worker *k, uint32_t first, uint32_t step, int lowest, uint32_t *wg,
                    vt_error *e);
/* Parallel launch (par_launch.c): 1 when this launch (set up, nothing
 * dispatched yet) may spread over host threads, *nthreads of them; par_run
 * runs it to the end; par_free releases the workers. */
/* cp_dma_mbarrier (exec_mbarrier.c): whether warp w, arrived at its
 * group's mbarrier, still waits; and the deadlock report of a group whose
 * warps wait at one (-1 with *e), 0 when none of them does. */
int mbar_waits(const vt_device *d, const vt_warp *w);
int mbar_deadlock(vt_device *d, vt_worker *k, const vt_wg *wg, vt_error *e);
int par_eligible(vt_device *d, uint32_t *nthreads);
/* A parallel launch's decode of an instruction in writable executable
 * memory outside the kernel's region (which par_eligible did not scan):
 * -1 with *e for an atomic or a print-CSR access the scan would refuse. */
int par_decode_check(const vt_device *d, const isa_inst *in, isa_id id, vt_error *e);
int par_run(vt_device *d, uint32_t nthreads, vt_error *e);
void par_free(vt_device *d);
void par_icache_wipe(vt_device *d); /* clears the further workers' predecode caches */
/* Workers 0..n-1 for a threaded stepping caller (vt_step_threads), each
 * recording its steps into its own commit record; par_step_share passes
 * their written-register sets to worker 0 (which places new groups),
 * par_step_end also merges their statistics. */
int par_step_setup(vt_device *d, uint32_t n, vt_error *e);
vt_worker *par_step_worker(vt_device *d, uint32_t i);
void par_step_share(vt_device *d, uint32_t n);
void par_step_end(vt_device *d, uint32_t n);
/* The AMO's read-modify-write under the parallel launch's address lock. */
void par_amo_lock(vt_device *d, const uint8_t *host);
void par_amo_unlock(vt_device *d, const uint8_t *host);
void vt_stats_add(vt_stats *dst, const vt_stats *src);

/* Handler table, built from insns.def. */
extern const vt_exec_fn vt_exec_table[ISA_COUNT];
/* Revision 2025's replacement handler for a decoded instruction (a prefix's
 * request, the flat address check), or NULL (exec_memext.c). */
vt_exec_fn exec_select_2025(const isa_inst *in);
/* The lean form of a decoded instruction, NULL if it has none (exec_lean.c). */
vt_lean_fn exec_lean_of(const isa_inst *in);
/* csrr rd, <Ventus CSR> (csrrs with rs1 = x0 on 0x800..0x80c): the read
 * alone, the handler icache_fill picks for it (csr.c). */
int exec_csrr_custom(struct vt_exec *x, const isa_inst *in);

static inline uint32_t lanes_mask(uint32_t n) { return n >= 32 ? 0xffffffffu : ((1u << n) - 1u); }

/* Lanes in a mask. Without -mpopcnt (the default x86-64 target)
 * __builtin_popcount is a call into libgcc, 2-5 % of divergent kernels:
 * the SWAR sum below is a dozen inline instructions. */
static inline unsigned popcount32(uint32_t m) {
#if defined(__GNUC__) && (defined(__POPCNT__) || defined(__aarch64__))
  return (unsigned)__builtin_popcount(m);
#else
  if (m == 0xffffffffu) return 32; /* a full warp: most masks */
  m = m - ((m >> 1) & 0x55555555u);
  m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
  m = (m + (m >> 4)) & 0x0f0f0f0fu;
  return (m * 0x01010101u) >> 24;
#endif
}

#endif
