/* The timing model's internal state, shared by its pipeline parts:
 * timing.c (issue, the launch loop), frontend.c (fetch), lsu.c (memory). */
#ifndef VT_TIMING_INT_H
#define VT_TIMING_INT_H

#include "cache.h"
#include "memsys.h"
#include "timing.h"

/* the most memory the timing model's state may take (timing.c, footprint) */
#define VT_TIMING_MEM_MAX (1ull << 30)
#define NREG 256
#define NEVER UINT64_MAX
#define IB_MAX 64 /* ibuffer_depth's limit */
#define RF_BANKS_MAX 32 /* rf_banks' limit */
#define DMA_QMAX 64 /* dma_queue's limit */
#define WB_RING 256 /* write-port reservations reach this many cycles ahead */
#define AHEAD_Q 16  /* private instructions the core runs ahead of their issue at once */

typedef struct {
  uint32_t pc;
  uint64_t ready; /* cycle it can issue (fetch and decode done) */
} ib_entry;

typedef struct {
  /* first, in one cache line: what sm_cycle's scan reads of every slot */
  /* blocked until hold_until (why: hold_why) by what only its own issue
   * changes (registers, dma_gate, fetch_at) or by unit hold_unit (else
   * UNIT_COUNT) or its collector, decided with the device's code generation
   * hold_gen: till then sm_cycle need not peek it again */
  _Alignas(64) uint64_t hold_until; /* 0: no hold */
  uint64_t coll_free; /* its collector unit takes the next instruction (collector.c) */
  uint64_t fetch_at;  /* ideal front end: first cycle after a fetch bubble */
  uint64_t dma_gate;  /* past a cp_dma_mbarrier: no issue before its group's copies complete */
  uint32_t hold_gen;
  /* it waits at a barrier (its last peek said so): only a barrier arrival
   * or an end on its SM can release it (sm_t.bar_epoch moves), or a store
   * into code change what its peek decodes (bar_gen) */
  uint32_t bar_epoch, bar_gen;
  /* no warp in the slot (its last peek said so): none comes before the
   * next dispatch of work-groups (vt_timing.dispatches moves) */
  uint32_t empty_at;
  /* private instructions the core already ran (vt_step_ahead), issued from
   * here in order: the core's warp is past them, so while any is left the
   * warp is not peeked; their pcs lie in [qlo, qhi] */
  uint32_t qh, qn;
  uint8_t hold_why, hold_unit, bar_held, empty;
  uint32_t threads;    /* the launch's threads per warp (for the records' views) */
  int seen;           /* the slot's warp (wg, wid) is known */
  uint32_t wg, wid;
  uint32_t qlo, qhi;
  /* cycle a register's pending write completes, READY_MEM set when a
   * load writes it (the stall is then charged to memory): one word to read */
  uint64_t ready[2][NREG];
  uint64_t bar_since; /* cycle it started waiting at a barrier, 0 = not waiting */
  /* modelled front end */
  uint32_t fpc;       /* next pc to fetch */
  uint64_t fwait;     /* no fetch before (an I-cache fill, no free MSHR) */
  int flock;          /* a fetched control op has not resolved: fetch waits */
  uint64_t unlock_at; /* when the issued control op resolves (NEVER: not issued yet) */
  uint32_t ib_head, ib_n;
  ib_entry ib[IB_MAX];
  int half;           /* ISA 2025: the first word of a 64-bit instruction fetched, its second not yet */
  uint32_t half_pc;   /* ... and that instruction's pc */
  uint64_t since, issued; /* timeline: cycle it was first seen, instructions issued */
  uint64_t dma_done;  /* the last completion of the copies it issued (dma.c) */
  vt_warp_view view;   /* the peek the hold was decided on (in: vin) */
  isa_inst vin;
  vt_step_rec q[AHEAD_Q];
} warp_t;

/* One register an instruction reads or writes, with the registers after it
 * it spans (2 for a pair, up to 4 for a PREFIX_MEMORY access). */
typedef struct {
  uint8_t file, dest;
  uint16_t span; /* MMA groups reach 256 registers */
  uint32_t reg;
} reg_use;

/* One instruction's register uses (reg_uses) as sm_cycle last found them:
 * the key is every input of reg_uses (the decoded fields it reads, flags,
 * the warp's vtype and threads), so a hit is exact whatever the code. */
#define USE_MEMO 64 /* entries per SM, by pc */
#define READY_MEM (1ull << 63)
typedef struct {
  uint64_t k0, k1;    /* isa_inst bytes: word, hi; id, rd, rs1, rs2, rs3, vm, rm */
  uint32_t k2, flags, vtype, nt; /* pfx, absneg, mspace, mwidth; the rest */
  uint8_t valid, nu, nsrc; /* nsrc: the uses that are sources */
  /* what issue derives from the same inputs and the configuration: the
   * passes over the lanes (fold), the collector's hold, and for a unit
   * of fixed latency (not the LSU; a tensor op without local operands)
   * its latency before the operand wait and its occupancy */
  uint8_t fixed;
  uint32_t fold, hold, lat, occupy;
  reg_use u[ISA_MAX_OPNDS + 1];
} use_memo;

typedef struct {
  warp_t *warps;
  uint8_t *state;     /* [warps_per_sm]: each slot's vt_warp_state this cycle */
  uint32_t *pc;       /* [warps_per_sm]: ... and its next pc */
  uint64_t unit_free[UNIT_COUNT];
  uint32_t rr;        /* slot issued last */
  uint32_t bar_epoch; /* counts issues of barriers and endprg (warp_t.bar_held) */
  uint32_t fcur;      /* slot the greedy fetch serves */
  uint64_t fport_free; /* first cycle the fetch port takes the next fetch */
  uint64_t busy_until; /* last completion of an instruction issued here (stores: their ack) */
  vt_cache l1d, l1i;
  uint64_t *wshr;     /* [l1d_wshrs]: cycle each write-status register frees */
  uint64_t rport[2][RF_BANKS_MAX]; /* [file][bank]: first cycle the read port is free */
  uint64_t *wres;     /* [2][rf_banks][WB_RING]: cycle a write port is reserved for */
  uint64_t dma_free;  /* the copy engine takes the next copy's bytes (dma.c) */
  uint64_t dma_q[DMA_QMAX]; /* [dma_queue]: completion cycle of each queue entry's copy */
  use_memo memo[USE_MEMO];
} sm_t;

/* Register operands of one instruction kind: field and file (0 = x/f, which
 * the ISS mirrors into each other, 1 = v). */
typedef struct {
  uint8_t n;
  uint8_t field[ISA_MAX_OPNDS]; /* 0 rd, 1 rs1, 2 rs2, 3 rs3 */
  uint8_t file[ISA_MAX_OPNDS];
  uint8_t dest[ISA_MAX_OPNDS];
  uint8_t pair[ISA_MAX_OPNDS];  /* the syntax names a 64-bit pair (ISA 2025 .d forms) */
  uint8_t freg[ISA_MAX_OPNDS];  /* an f register (a pair for a float scalar at SEW 64) */
} reg_ops;

/* ISA 2025 entries whose operands are wider than their named registers
 * (wide.c): MMA/MMA64 register groups, standard RVV ops at SEW 64 (and
 * under PREFIX pair = 1), the 64-bit compute format at its 64-bit sizes. */
enum { WIDE_NONE, WIDE_SEW, WIDE_C64, WIDE_MMA, WIDE_MMA64, WIDE_MMA64_WG };
typedef struct {
  uint8_t kind;
  uint8_t narrow_vd;   /* WIDE_SEW: vd is a 0/1 result, one register at every SEW */
  uint8_t bits, cbits; /* MMA: A/B and C/D element bits */
  uint8_t sp;          /* MMA64: sparse A (K/2 kept elements and 2-bit metadata) */
  uint8_t m, n;        /* the warp's M (16 for a warp group) and N (the warp group's is in the word) */
  uint16_t k;          /* the logical K */
} wide_op;

struct vt_timing {
  vt_device *d;
  const uint32_t *code_gen; /* the device's code generation (vt_step_code_gen_word) */
  vt_config cfg;
  int frontend;       /* l1i_sets > 0: fetch through the I-cache */
  uint32_t bank_mask; /* rf_banks - 1 when a power of two, else 0: a bank without a division */
  sm_t *sms;
  vt_memsys ms;
  reg_ops ops[ISA_COUNT];
  wide_op wide[ISA_COUNT]; /* all WIDE_NONE unless isa = 2025 */
  vt_timing_stats st;
  FILE *tl;           /* the timeline being written, NULL = none */
  FILE *ilog;         /* the issue log being written, NULL = none */
  struct tpar *tp;    /* the launch loop's threads and per-SM L2 views (tpar.c) */
  uint64_t tl_base;   /* cycles of the launches before this one */
  uint32_t dispatches; /* work-group retirements and dispatches so far (warp_t.empty) */
};

/* Ops after which fetch waits until they resolve (no branch prediction). */
#define CONTROL_FLAGS (IF_BRANCH | IF_JUMP | IF_VBRANCH | IF_JOIN | IF_BARRIER | IF_ENDPRG)

/* Register operands of `in` (flags: its table flags) into u (at most
 * ISA_MAX_OPNDS + 1: a masked vector op also reads v0); returns the count.
 * x0 as a destination is left out; as a source it is read from its bank like
 * any register, as the RTL does, and never waits (nothing writes it). */
int reg_uses(const vt_timing *t, const isa_inst *in, uint32_t flags, uint32_t nt, uint32_t vtype, reg_use *u);

/* wide.c (ISA 2025; docs/timing.md "Register groups and element widths"):
 * wide_build marks the table's wide entries for a 2025 device;
 * wide_mma_uses gives an MMA's groups for nt threads (D, C, A with the
 * sparse metadata, B; at most 4); wide_sew64_span the span of operand slot
 * i of a WIDE_SEW entry at SEW 64; wide_passes the factor of the vector
 * unit's passes for the element width; wide_smem_bytes the local-memory
 * bytes a warp-group MMA64 reads (0 for others). */
void wide_build(vt_timing *t);
int wide_mma_uses(const vt_timing *t, const isa_inst *in, uint32_t nt, reg_use *u);
uint16_t wide_sew64_span(const vt_timing *t, const isa_inst *in, int i, uint32_t reg);
uint32_t wide_passes(const vt_timing *t, const vt_warp_view *v);
uint32_t wide_smem_bytes(const vt_timing *t, const isa_inst *in);
static inline unsigned wide_sew(uint32_t vtype) { return 8u << ((vtype >> 3) & 3); }

/* collector.c: the operand collector's ports at a launch's start (its
 * per-issue part, oc_collect and oc_writeback: collector.h) */
void oc_reset(vt_timing *t, uint32_t smi);

/* frontend.c: the fetch of SM smi in cycle now (one fetch per SM and cycle,
 * greedy). Lowers *wake to the next cycle fetch could change anything. */
void fe_fetch(vt_timing *t, uint32_t smi, uint64_t now, uint64_t *wake);
void fe_reset_warp(warp_t *w, uint32_t pc);

/* lsu.c: timing of one memory instruction's accesses (commit record c)
 * issued at now: *lat is its issue-to-result latency, *occupy the cycles
 * the LSU stays busy. */
struct vt_commit;
void lsu_timing(vt_timing *t, uint32_t smi, const struct vt_commit *c, uint32_t flags, uint32_t idle, uint64_t now,
                uint32_t *lat, uint32_t *occupy);

/* dma.c: the per-SM asynchronous copy engine of cp_dma*. dma_is_copy: the
 * instruction is a copy; dma_full: 0 when the engine can take a copy at
 * now, else the cycle an entry frees; dma_issue: queues the copy of commit
 * record c issued by warp slot `slot` at now; dma_release: slot's warp
 * passed cp_dma_mbarrier at now, `first` when its arrival released the
 * group: then no member issues again before the group's copies complete. */
int dma_is_copy(uint32_t id);
uint64_t dma_full(const vt_timing *t, uint32_t smi, uint64_t now);
void dma_issue(vt_timing *t, uint32_t smi, uint32_t slot, const struct vt_commit *c, uint64_t now);
void dma_release(vt_timing *t, uint32_t smi, uint32_t slot, int first, uint64_t now);

/* timing.c: one cycle of SM smi at now; 1 issued, 0 not (*why, *wake), -1 fault. */
int sm_cycle(vt_timing *t, uint32_t smi, uint64_t now, uint64_t *wake, vt_stall *why, int *ended, vt_error *e);

/* tpar.c: the launch's cycles in quanta, SMs over host threads. tp_access
 * is the L1s' way to the L2 (memsys.h's ms_access on the SM's view, the
 * request queued for the quantum's end); tp_peek/tp_exec step a warp of
 * SM smi with its thread's worker. */
int tp_init(vt_timing *t, vt_error *e);
void tp_free(vt_timing *t);
int tp_launch(vt_timing *t, vt_error *e);
uint64_t tp_access(vt_timing *t, uint32_t smi, uint64_t now, uint32_t addr, int write);
int tp_peek(vt_timing *t, uint32_t smi, uint32_t slot, vt_warp_view *v, vt_error *e);
int tp_exec(vt_timing *t, uint32_t smi, uint32_t slot, const struct vt_commit **c, vt_error *e);
/* tp_ahead: vt_step_ahead with the thread's worker, where sound (one
 * thread, whose stores into code sm_cycle checks against the records; or
 * no writable code decoded, so no store can reach them); tp_count: the
 * issue of a record, counted as tp_exec counts a step. */
uint32_t tp_ahead(vt_timing *t, uint32_t smi, uint32_t slot, vt_step_rec *r, uint32_t max);
int tp_count(vt_timing *t, uint32_t smi, uint32_t slot, uint32_t pc, vt_error *e);
uint32_t tp_threads(const vt_timing *t);

/* timeline.c: one complete event [from, to) of this launch on SM pid's
 * slot tid (pid num_sm: the launches); args is a JSON member list or NULL. */
void tl_span(vt_timing *t, uint32_t pid, uint32_t tid, const char *cat, uint64_t from, uint64_t to, const char *args,
             const char *fmt, ...) __attribute__((format(printf, 8, 9)));

#endif
