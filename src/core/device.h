/* The functional Ventus GPGPU: public interface of core/.
 *
 * A vt_device owns everything (configuration, memory, SMs, warps,
 * statistics); there is no global state, so several devices can live in one
 * process. The core knows nothing of files, launch formats or timing: the
 * driver layer (src/driver) loads kernels and test vectors into memory and
 * calls vt_device_launch. */
#ifndef VT_DEVICE_H
#define VT_DEVICE_H

#include <stdint.h>
#include <stdio.h>

#include "isa.h"
#include "vt_error.h"

/* ---- configuration ------------------------------------------------------ */
#define VT_MAX_HOST_THREADS 256u

typedef struct vt_config {
  uint32_t num_sm;            /* SMs (RTL default 2) */
  uint32_t warps_per_sm;      /* warp slots per SM (8) */
  uint32_t wg_slots_per_sm;   /* resident work-groups per SM (8) */
  uint32_t max_threads;       /* largest threads-per-warp a launch may use (32; 4..32) */
  uint32_t lds_bytes_per_sm;  /* local memory per SM (128 KiB) */
  uint32_t simt_stack_depth;  /* SIMT stack entries per warp (64) */
  uint64_t max_steps;         /* warp-instructions per launch before VT_ERR_STEP_LIMIT (0 = no limit) */
  uint32_t lds_base;          /* local-memory window start (0x70000000) */
  uint32_t lds_window;        /* local-memory window size (0x10000000) */
  uint32_t barrier_counts_ended; /* 1 (ISS): ended warps count as arrived at a barrier;
                                    0 (RTL): they do not, so an early endprg deadlocks */
  uint32_t vgprs_per_sm;      /* vector registers per SM a launch's work-groups share (0 = no budget) */
  uint32_t sgprs_per_sm;      /* scalar registers per SM ... (0 = no budget) */
  uint32_t lds_sparse_limit;  /* bytes of local-window pages beyond the groups' local sizes
                                 that all resident groups may hold (64 MiB) */
  uint32_t writable_code;     /* 1: the ELF loader maps executable segments writable too
                                 (self-modifying code); 0: a store into code is a fault */
  uint32_t strict_bounds;     /* 1: the driver's allocator makes the padding after a buffer's
                                 requested size inaccessible (VT_PERM_GUARD) */
  uint32_t run_ahead;         /* 1: warps run private instructions ahead of their round
                                 (docs/simulator.md §2); 0: every one in its round */
  uint32_t host_threads;      /* host threads a launch may use (0 = online CPUs, a timed
                                 launch one; 1 = the single-threaded loop; docs/simulator.md §6) */
  /* Timing model (src/timing, docs/timing.md). The functional core ignores
   * these; they live here so one configuration file describes the device. */
  uint32_t timing;            /* 1: launches run under the timing model */
  uint32_t num_lanes;         /* execution lanes per unit; 0 = threads per warp (RTL) */
  uint32_t num_sfu;           /* SFU lanes; 0 = max(lanes / 4, 1) */
  uint32_t lat_alu;           /* issue-to-issue latency of dependent scalar ops (5) */
  uint32_t lat_valu;          /* ... vector integer ops (5) */
  uint32_t lat_vfpu;          /* ... scalar/vector fp32 ops (7) */
  uint32_t lat_mul;           /* ... integer multiplies (6) */
  uint32_t lat_sfu;           /* ... divide/sqrt per SFU lane group (26) */
  uint32_t lat_lsu_l1_hit;    /* ... a load hitting L1 or local memory (11) */
  uint32_t lat_dram;          /* DRAM latency of one line, L2 miss to fill (30) */
  uint32_t lat_branch;        /* fetch bubble after a taken branch or a SIMT op (3) */
  uint32_t l1d_sets;          /* L1 data cache sets (256), power of two */
  uint32_t l1d_ways;          /* ... ways (2), LRU */
  uint32_t l1d_line;          /* ... line bytes (128), power of two */
  uint32_t l1d_mshrs;         /* ... miss-status registers (4); misses to a line in flight merge */
  uint32_t l1d_mshr_subs;     /* ... requests one MSHR can merge (2) */
  uint32_t l1d_wshrs;         /* ... write-status registers: stores in flight to the L2 (4) */
  uint32_t lds_through_l1d;   /* 1: local-memory accesses go through the L1 data cache (0) */
  uint32_t idle_lanes_access; /* 1: a full warp narrower than num_lanes accesses memory on every lane (0) */
  uint32_t l1i_sets;          /* L1 instruction cache sets; 0 = ideal front end (no fetch model) */
  uint32_t l1i_ways;          /* ... ways (2), LRU */
  uint32_t l1i_line;          /* ... line bytes (128), power of two */
  uint32_t l1i_mshrs;         /* ... miss-status registers (4) */
  uint32_t num_fetch;         /* instructions per fetch, from one aligned block (2) */
  uint32_t ibuffer_depth;     /* instruction buffer entries per warp (2) */
  uint32_t lat_fetch;         /* cycles from an I-cache hit to the instruction buffer (3) */
  uint32_t fetch_interval;    /* cycles from one fetch of an SM to its next (1) */
  uint32_t l2_sets;           /* L2 sets (64), power of two; shared by all SMs */
  uint32_t l2_ways;           /* ... ways (16), LRU, write-back, write-allocate */
  uint32_t l2_line;           /* ... line bytes (128), power of two */
  uint32_t l2_banks;          /* ... banks (1); the crossbar takes one request per bank and cycle */
  uint32_t l2_mshrs;          /* ... miss-status registers (32) */
  uint32_t l2_set_blocking;   /* 1: a miss blocks its set until its fill (and writeback) is done (0) */
  uint32_t lat_l2;            /* cycles from an L1 miss to its data when the L2 hits (10) */
  uint32_t dram_bytes_per_cycle; /* DRAM bandwidth (0 = unlimited) */
  uint32_t lat_flush;         /* cycles of the end-of-launch L1 invalidate and L2 flush handshake (0) */
  uint32_t l2_flush_walk;     /* cycles the end-of-launch flush spends on each L2 line, dirty or not (0) */
  uint32_t l2_cold_launch;    /* 1: every launch starts with an empty L2, as after a reset (0: it keeps its lines) */
  uint32_t warps_last_first;  /* 1: a group's last warp takes its lowest free slot, as the RTL dispatches (0) */
  uint32_t lat_launch;        /* cycles from the launch request to the first warp's fetch (0) */
  uint32_t timing_quantum;    /* cycles the SMs run between two L2 exchanges (0 = lat_l2;
                                 docs/timing.md "Parallel timing") */
  uint32_t lds_banks;         /* local-memory banks of 4-byte words (32) */
  uint32_t rf_banks;          /* register-file banks, one read and one write port each per file (4) */
  uint32_t collector_cycles;  /* cycles a warp's collector unit holds one instruction (4) */
  uint32_t dma_bytes_per_cycle; /* the per-SM copy engine's rate for cp_dma* (16) */
  uint32_t dma_queue;         /* copies the engine holds before an issuing warp stalls (8) */
  uint32_t fetch_policy;      /* 0 greedy (seed 004), 1 fixed priority with replay (the Verilog RTL) */
  uint32_t fetch_miss_next;   /* fetch_policy 1: N = the replays after an I-cache miss also request
                                 the next N blocks, as the RTL's speculative pc does (0) */
  uint32_t isa;               /* ISA revision: 0 = upstream baseline, 2025 = the seed
                               * manual's extensions (docs/isa-extensions.md) */
} vt_config;

void vt_config_defaults(vt_config *c);
/* Sets one key (the field names above, e.g. "num_sm", "max_steps");
 * numbers in decimal or 0x hex, sizes may end in K/M. */
int vt_config_set(vt_config *c, const char *key, const char *value, vt_error *e);
/* Reads "key = value" lines ('#' comments, optional [section] headers ignored). */
int vt_config_load(vt_config *c, const char *path, vt_error *e);
/* One "key=value" override (the -c option), the value taken whole. */
int vt_config_override(vt_config *c, const char *kv, vt_error *e);
int vt_config_check(const vt_config *c, vt_error *e);
void vt_config_print(const vt_config *c, FILE *f);      /* "key = value" lines */
void vt_config_print_json(const vt_config *c, FILE *f); /* one JSON object */

/* ---- memory ------------------------------------------------------------- */
/* Device memory is sparse (4 KiB pages, allocated on first touch) and only
 * addresses inside a mapped region are accessible; anything else is a
 * VT_ERR_UNMAPPED device error. The local-memory window is not mapped here:
 * the core gives each resident work-group its own local memory. */
enum { VT_PERM_R = 1, VT_PERM_W = 2, VT_PERM_X = 4, VT_PERM_RWX = 7,
       VT_PERM_GUARD = 8 /* no access: a buffer's padding under strict_bounds */ };

typedef struct vt_device vt_device;

int vt_mem_map(vt_device *d, uint32_t base, uint32_t size, unsigned perm, vt_error *e);
int vt_mem_unmap(vt_device *d, uint32_t base, vt_error *e);
int vt_mem_is_mapped(vt_device *d, uint32_t addr, uint32_t size);
/* Isolation (docs/simulator.md §3): a region owned by a context is
 * accessible only to launches for that context (vt_launch.ctx); a kernel
 * touching it from another context gets a VT_ERR_UNMAPPED fault naming the
 * owner. Regions start owned by VT_CTX_NONE, i.e. shared by every launch.
 * Host copies are not checked (the caller's business). */
#define VT_CTX_NONE 0xffffffffu
int vt_mem_set_owner(vt_device *d, uint32_t base, uint32_t owner, vt_error *e);
/* New permissions (VT_PERM_*) for the region mapped at base, between
 * launches: a runtime holds a kernel's __constant buffers read-only for
 * the launch, so loads from them may run ahead (docs/simulator.md §2). */
int vt_mem_set_perm(vt_device *d, uint32_t base, unsigned perm, vt_error *e);
/* The mapped region holding addr, else the first one above it: 1 with its
 * base, size and permissions, 0 when there is none (walking the regions,
 * e.g. to export a launch's memory as a test vector). */
int vt_mem_region_from(vt_device *d, uint32_t addr, uint32_t *base, uint32_t *size, unsigned *perm);
/* 0 when the page holding addr was never touched: it reads as zero and has
 * no host memory behind it (a read through vt_mem_read would create it). */
int vt_mem_page_present(vt_device *d, uint32_t addr);
/* Host-side copies (no permission checks beyond mapping). */
int vt_mem_write(vt_device *d, uint32_t addr, const void *src, uint32_t n, vt_error *e);
int vt_mem_read(vt_device *d, uint32_t addr, void *dst, uint32_t n, vt_error *e);

/* ---- device --------------------------------------------------------------- */
vt_device *vt_device_create(const vt_config *c, vt_error *e);
void vt_device_destroy(vt_device *d);
const vt_config *vt_device_config(const vt_device *d);

/* One NDRange launch (the driver's 12-field launch record, 32-bit view). */
typedef struct vt_launch {
  uint32_t start_pc;    /* every warp starts here (0x80000000) */
  uint32_t kernel_id;
  uint32_t grid[3];     /* work-groups per dimension */
  uint32_t num_threads; /* wf_size: threads per warp */
  uint32_t num_warps;   /* wg_size: warps per work-group */
  uint32_t knl;         /* CSR_KNL: device address of the metadata block */
  uint32_t lds_size;    /* local memory bytes per work-group */
  uint32_t pds_size;    /* private memory bytes per thread */
  uint32_t pds_base;    /* private memory base */
  uint32_t print_addr;  /* print buffer (CSR_PRINT initial value), 0 = none */
  uint32_t ctx;         /* context the kernel runs for (VT_CTX_NONE: shared memory only) */
  uint32_t vgprs, sgprs; /* vector/scalar registers per warp the kernel uses (metadata
                            vgprUsage/sgprUsage; 0 = not known: no register budget) */
  uint32_t wg_threads;  /* work-items per work-group; 0 = every lane of every warp. The
                           last warp's lanes at or past it start inactive: a driver of
                           ours gives an OpenCL local size that is no multiple of the
                           warp width no phantom work-items (the hardware has none of
                           this mask and runs all num_threads lanes, docs/runtime.md) */
  /* Addresses of the AMOs the program lists as ones on __local memory
   * (section .ventus.amo_local, which `ventus cc` writes), ascending, or
   * NULL: the parallel launcher's scan passes over them whatever their
   * kinds and results (local memory belongs to one work-group), and a
   * parallel launch stops if one reaches other memory (docs/simulator.md §6).
   * The caller keeps the array until the launch returns. */
  const uint32_t *amo_local;
  uint32_t namo_local;
  /* The extents [lo, hi) of the code the launch can run, as ncode_ranges
   * words lo0, hi0, lo1, hi1, ... (the start-up code, the kernel and the
   * functions it calls: section .ventus.code.<kernel>, which `ventus cc`
   * writes), or NULL: the parallel launcher's scan reads only these, and an
   * instruction decoded elsewhere in a parallel launch is checked as it is
   * decoded (docs/simulator.md §6). Kept by the caller until the launch
   * returns, as amo_local. */
  const uint32_t *code_ranges;
  uint32_t ncode_ranges;
} vt_launch;

/* Runs the launch to completion (all work-groups dispatched to SMs as warp
 * slots and local memory allow). On a device fault returns -1 with the
 * error's context (kernel, wg, warp, lane, pc, insn, addr) filled in; the
 * device stays usable for further launches. */
int vt_device_launch(vt_device *d, const vt_launch *l, vt_error *e);

/* A launcher replaces the functional loop of vt_device_launch (the timing
 * model installs one); it drives the launch through the stepping interface
 * below. NULL restores the functional loop. */
typedef int (*vt_launch_fn)(void *user, vt_device *d, const vt_launch *l, vt_error *e);
void vt_device_set_launcher(vt_device *d, vt_launch_fn fn, void *user);

/* ---- stepping interface (for a launcher) --------------------------------- */
/* Checks the launch and dispatches the first work-groups. */
int vt_step_begin(vt_device *d, const vt_launch *l, vt_error *e);
/* What warp slot `slot` of SM `sm` would do next. */
typedef enum {
  VT_WS_EMPTY,    /* no resident warp, or it has ended */
  VT_WS_READY,    /* can execute its next instruction */
  VT_WS_BARRIER,  /* waits at a barrier that has not been released */
} vt_warp_state;
typedef struct vt_warp_view {
  vt_warp_state state;
  uint32_t pc;
  uint32_t mask;         /* SIMT thread mask */
  uint32_t threads;      /* threads per warp of the launch */
  uint32_t wg, wid;      /* work-group id and warp index in it */
  const isa_inst *in;    /* decoded next instruction (valid until the next step) */
  isa_unit unit;
  uint32_t flags;        /* IF_* */
  uint32_t vtype;        /* the warp's vtype (its SEW: the timing model's element width) */
  int priv;              /* private (vt_step_ahead may run it) */
} vt_warp_view;
/* Fills *v; decoding the next instruction may fault (-1, error with context). */
int vt_step_peek(vt_device *d, uint32_t sm, uint32_t slot, vt_warp_view *v, vt_error *e);
/* The device's code generation, a word to load atomically (relaxed): it
 * changes whenever a store into decoded code drops the decodes, and a
 * caller that keeps what a peek said (the timing model, every cycle)
 * peeks again after it. */
const uint32_t *vt_step_code_gen_word(const vt_device *d);
/* The state and pc of a peek, without decoding the next instruction (a
 * decode fault waits for the next peek). */
vt_warp_state vt_step_state(const vt_device *d, uint32_t sm, uint32_t slot, uint32_t *pc);
/* Executes the next instruction of the warp in the slot (counting it
 * against max_steps). Returns 0, 1 when it ended, 2 for a barrier re-check
 * that retired nothing, -1 on a fault; *rec is the commit record with the
 * lane memory accesses (valid until the next step; without a trace sink
 * only its mask, memory accesses and copy fields are filled). */
struct vt_commit;
int vt_step_exec(vt_device *d, uint32_t sm, uint32_t slot, const struct vt_commit **rec, vt_error *e);
/* Run-ahead for a stepping caller: executes up to max of the warp's next
 * instructions now, while they are predecoded and private (registers, pc,
 * mask, SIMT stack and CSRs of the warp only: nothing else can see when
 * they run), each recorded in r[i] as vt_step_peek would have shown it
 * (state ready) with the pc after it. Returns how many ran (0: the next one
 * is not such an instruction, a commit log is being written, or run_ahead
 * = 0). The warp's own state is then past them: the caller issues them
 * from the records, counting each with vt_step_count, and must not peek or
 * step the warp before the last of them is issued. */
typedef struct vt_worker vt_worker;
typedef struct vt_step_rec {
  isa_inst in;
  uint32_t pc, npc;
  uint32_t mask, vtype, flags; /* the view's fields */
  isa_unit unit;
} vt_step_rec;
uint32_t vt_step_ahead(vt_device *d, uint32_t sm, uint32_t slot, vt_step_rec *r, uint32_t max);
/* Whether code of a writable region has been decoded: before, no store can
 * reach an instruction vt_step_ahead ran. */
int vt_step_code_writable(const vt_device *d);
/* Counts the issue of a recorded instruction at pc against max_steps, as
 * vt_step_exec counts a step (VT_ERR_STEP_LIMIT names the warp and pc). */
int vt_step_count(vt_device *d, uint32_t sm, uint32_t slot, uint32_t pc, vt_error *e);
/* The launch's step count and its max_steps (*limit, 0: none): below the
 * limit a caller may count an issue with ++*count itself (vt_step_count's
 * work without the call); at it, vt_step_count reports the limit. */
uint64_t *vt_step_counter(vt_device *d, uint64_t *limit);
/* Whether an instruction stepped with worker k (NULL: vt_step_exec's) stored
 * into decoded code since the last call, and the bytes [*lo, *hi) it hit. */
int vt_step_code_stored(vt_device *d, vt_worker *k, uint32_t *lo, uint32_t *hi);
/* Retires finished work-groups and dispatches waiting ones; *done = 1 when
 * the whole launch has finished. */
int vt_step_retire(vt_device *d, int *done, vt_error *e);
/* Reports why no warp can progress (VT_ERR_DEADLOCK) and returns -1. */
int vt_step_deadlock(vt_device *d, vt_error *e);
/* Frees the slots of an abandoned launch. */
void vt_step_abort(vt_device *d);
/* Stepping from several host threads (the timing model's parallel mode,
 * docs/simulator.md §6). After vt_step_begin, vt_step_threads sets *n to
 * the threads the launch may use (at most max; 1 wherever a functional
 * launch keeps one thread) and, for more than one, prepares a worker for
 * each (with one, the caller keeps vt_step_peek/vt_step_exec). Thread i then
 * peeks and steps only SMs it owns, with vt_step_worker(d, i); one thread
 * retires (vt_step_retire_threads) while the others wait; these steps do
 * not count against max_steps (the caller counts them).
 * vt_step_threads_end merges the workers' statistics into the device's and
 * adds the threads' CPU seconds cpu[0..n-1] to vt_device_host_cpu's. */
int vt_step_threads(vt_device *d, uint32_t max, uint32_t *n, vt_error *e);
vt_worker *vt_step_worker(vt_device *d, uint32_t i);
int vt_step_peek_on(vt_device *d, vt_worker *k, uint32_t sm, uint32_t slot, vt_warp_view *v, vt_error *e);
int vt_step_exec_on(vt_device *d, vt_worker *k, uint32_t sm, uint32_t slot, const struct vt_commit **rec,
                    vt_error *e);
uint32_t vt_step_ahead_on(vt_device *d, vt_worker *k, uint32_t sm, uint32_t slot, vt_step_rec *r, uint32_t max);
int vt_step_retire_threads(vt_device *d, uint32_t n, int *done, vt_error *e);
void vt_step_threads_end(vt_device *d, uint32_t n, const double *cpu);

/* ---- observation -------------------------------------------------------- */
#define VT_MAX_LANES 32
/* word accesses one instruction records: 4 per lane, for ISA 2025's
 * 128-bit PREFIX_MEMORY accesses (64-bit elements take 2) */
#define VT_MAX_MEM (4 * VT_MAX_LANES)

/* One SIMT stack entry (docs/isa.md §4). */
typedef struct vt_simt_entry {
  uint32_t rpc, pc, mask; /* the ISS prints "[r_pc] rpc [else_pc] pc [else_mask] mask" */
} vt_simt_entry;

/* One retired warp-instruction, as the commit log shows it. Only produced
 * when a trace sink is installed, so the untraced path pays nothing. */
/* One lane's memory access of a commit record. */
typedef struct vt_mem_access {
  uint32_t addr;
  uint32_t val;
  uint8_t size;
  uint8_t store;
} vt_mem_access;

typedef struct vt_commit {
  uint32_t wg;        /* linear work-group id */
  uint32_t warp;      /* warp index inside the work-group */
  uint32_t sm;
  uint32_t pc, insn;
  uint32_t insn_hi;   /* the second word of a 64-bit instruction (insn_len 8) */
  int insn_len;       /* 8 for a 64-bit instruction, else 0 (one word) */
  uint32_t mask;      /* thread mask the instruction executed under */
  /* Lean records only (no trace sink): a unit-stride access of unit_n
   * 4-byte words from unit_lo, lane i at unit_lo + 4 i, whose lanes are not
   * listed in mem[] (0: none; then mem[] has them all). */
  uint32_t unit_lo, unit_n, unit_store;
  int spin;           /* 1 = a barrier re-check that retired nothing (ISS prints a bare commit line) */
  int nx;             /* scalar register writes */
  struct { uint16_t reg; uint32_t val; } x[2];
  int has_f;          /* f-register write (the ISS logs it as "fN  0x<16 hex digits>") */
  uint16_t freg;
  uint64_t fval;      /* FLEN = 64: a single-precision value NaN-boxed */
  int has_v;          /* vector register write: all lanes, vmask = lanes written */
  uint16_t vreg;
  uint32_t vmask;
  uint32_t vl;
  uint32_t v[VT_MAX_LANES];
  int ncsr;           /* CSR writes (number, new value) */
  struct { uint16_t csr; uint32_t val; } csr[6];
  /* cp_dma*: the copy as the timing model's copy engine sees it (exec_dma.c
   * fills it; other instructions leave it stale) */
  uint32_t dma_bytes; /* bytes written to local memory */
  int ndma;           /* source ranges read, in order, contiguous ones merged */
  struct { uint32_t addr, len; } dma[VT_MAX_LANES];
  uint64_t dma_more;  /* source bytes read beyond those ranges (not line-modelled) */
  int nmem;           /* memory accesses in lane order (a lane's words in order) */
  vt_mem_access mem[VT_MAX_MEM];
  int has_simt;       /* vbranch/join/setrpc: SIMT state after the instruction */
  uint32_t simt_mask, simt_npc, simt_depth;
  /* The stack after the instruction, bottom first (simt_depth entries; the
   * ISS prints them top first after the commit line). Valid during the
   * callback only. */
  const vt_simt_entry *simt_stack;
  int vtag;           /* the ISS prints "e32 m1 lN" (require_vector) even without a
                         vector register write: vector ALU/branch/store ops */
  uint32_t vtype;     /* for "e32 m1": the warp's vtype */
} vt_commit;

typedef void (*vt_commit_fn)(void *user, const vt_commit *c);
void vt_device_set_trace(vt_device *d, vt_commit_fn fn, void *user);

/* Called with text drained from a warp's print buffer (CSR_PRINT protocol). */
typedef void (*vt_print_fn)(void *user, const char *text, size_t len);
void vt_device_set_print(vt_device *d, vt_print_fn fn, void *user);

/* Called after every finished work-group (progress display). */
typedef void (*vt_progress_fn)(void *user, uint64_t wgs_done, uint64_t wgs_total, uint64_t warp_insns);
void vt_device_set_progress(vt_device *d, vt_progress_fn fn, void *user);

typedef struct vt_stats {
  uint64_t warp_insns;        /* instructions retired, counted per warp */
  uint64_t thread_insns;      /* ... counted per active lane (scalar ops count active lanes too) */
  uint64_t unit_insns[UNIT_COUNT];
  uint64_t vbranches, divergent_branches, joins, reconvergences;
  uint64_t barriers;          /* barrier instructions completed (per warp) */
  uint64_t loads, stores, atomics;      /* per-lane accesses */
  uint64_t load_bytes, store_bytes;
  uint64_t local_accesses, private_accesses, global_accesses;
  uint64_t kernels, wgs, warps;
  uint64_t max_simt_depth;
  uint64_t parallel_launches; /* launches that ran on more than one host thread (host_threads) */
} vt_stats;

/* Host CPU seconds of the launches that ran on several host threads, since
 * creation: per launch the busiest thread's, summed (*busiest), and all
 * threads' (*all). A run's time on an idle machine is about its process
 * CPU time - all + busiest; one-thread launches add nothing. */
void vt_device_host_cpu(const vt_device *d, double *busiest, double *all);

/* Warp-instructions run ahead of their round since creation (docs/simulator.md
 * §2): a debug counter, not a statistic, since it depends on the schedule. */
uint64_t vt_device_ahead_insns(const vt_device *d);
/* Barrier re-checks that parked warps skipped (dispatch.c; counted in the
 * step count and instret all the same): a debug counter too. */
uint64_t vt_device_parked_checks(const vt_device *d);

/* Statistics accumulated since creation or the last reset. */
const vt_stats *vt_device_stats(const vt_device *d);
void vt_device_reset_stats(vt_device *d);
void vt_stats_print(const vt_stats *s, FILE *f);
void vt_stats_print_json(const vt_stats *s, FILE *f);

#endif
