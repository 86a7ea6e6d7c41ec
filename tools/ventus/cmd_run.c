/* `ventus run`: run a kernel ELF (an NDRange described on the command line)
 * or an upstream test-vector case (.metadata or a directory with
 * kernels.txt) on the functional simulator. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "print_records.h"
#include "commands.h"
#include "device.h"
#include "heap.h"
#include "kernel_attrs.h"
#include "kernel_resource.h"
#include "ndrange.h"
#include "run_view.h"
#include "testvec.h"
#include "testvec_write.h"
#include "trace_fmt.h"
#include "timing.h"
#include "vt_json.h"
#include "vt_outfile.h"

static const char usage_text[] =
    "usage: ventus run KERNEL.elf --kernel NAME [launch options] [options]\n"
    "       ventus run CASE.metadata [options]     (its .data beside it)\n"
    "       ventus run CASE_DIR [options]          (kernels.txt: launches in order, memory kept)\n"
    "\n"
    "launch options (ELF only):\n"
    "  --kernel NAME         kernel symbol to launch\n"
    "  --global X[,Y[,Z]]    global size per dimension (its dimension count is work_dim)\n"
    "  --local X[,Y[,Z]]     work-group size per dimension (default 1s, or the size a compiled\n"
    "                        kernel's reqd_work_group_size declares); it must divide --global,\n"
    "                        and be that declared size\n"
    "  --offset X[,Y[,Z]]    global offset (default 0)\n"
    "  --threads N           threads per warp, 1..32 (default: the widest warp up to config\n"
    "                        max_threads that divides the work-group; a last warp's lanes\n"
    "                        past the work-group's size stay idle)\n"
    "  --warps N             warps per work-group: sets --local to N*threads when --local is absent\n"
    "  --arg SPEC            one kernel argument, in declaration order (repeat):\n"
    "                          buf:file=PATH            buffer with the bytes of PATH\n"
    "                          buf:zero:BYTES           zero-filled buffer (K/M suffixes)\n"
    "                          buf:TYPE:COUNT[:INIT]    TYPE u8|u16|u32|i32|f32,\n"
    "                                                   INIT zero|iota|rand[=SEED]|fill=VALUE\n"
    "                          u32:V  i32:V  f32:V      scalar by value\n"
    "  --pds-size BYTES      private memory per thread (default 0x1000, or more when the compiled\n"
    "                        kernel's resource section says it needs more)\n"
    "  --lds-size BYTES      local memory per work-group (default 0x1000)\n"
    "  --print-size BYTES    print buffer (default 64K, 0 = none)\n"
    "  --show ARG[:COUNT[:TYPE]]  after the run, print the first COUNT (default 16, 0 = all)\n"
    "                        elements of argument ARG (0-based, --arg order) in its --arg\n"
    "                        type or TYPE: 'arg2 f32[1024]: 0.5 1.5 ...' (repeat)\n"
    "  --expect-arg ARG[:TYPE]=FILE  compare the first elements of buffer argument ARG\n"
    "                        with the whitespace-separated values of FILE (floats exact,\n"
    "                        '#' comments): exit 1 on mismatch (repeat)\n"
    "\n"
    "options:\n"
    "  --config FILE         device configuration file (key = value)\n"
    "  -c KEY=VALUE          configuration override (repeat)\n"
    "  --max-steps N         warp-instruction limit per launch (default 200000000; 20000000\n"
    "                        under --timing; 0 = none)\n"
    "  --host-threads N      host threads a launch may use (config key host_threads; default\n"
    "                        0 = online CPUs, under --timing one; 1 = single-threaded; the\n"
    "                        results, cycle counts included, are the same)\n"
    "  --trace FILE          commit log in the reference ISS format (all launches)\n"
    "  --trace-dir DIR       one commit log per launch: DIR/<launch>.log\n"
    "  --dump FILE           final memory as '<address> <word>' lines: every buffer of the\n"
    "                        case / every --arg buffer, plus the --dump-range ranges\n"
    "  --dump-range ADDR:SIZE  add a range to --dump (repeat; without --dump: stdout)\n"
    "  --expect FILE         compare memory with '<address> <word>' lines: exit 1 on mismatch\n"
    "  --export-testvec DIR  also write every launch run as an upstream test vector into DIR\n"
    "                        (<name>.metadata + .data, kernels.txt in launch order; the whole\n"
    "                        grid in one pair), for `ventus run DIR` or the Verilog RTL\n"
    "  --stats               statistics and the effective configuration (stdout)\n"
    "  --json                the same as one JSON object\n"
    "  --isa REV             ISA revision: base (default) or 2025 (config key isa;\n"
    "                        docs/isa-extensions.md)\n"
    "  --timing              run under the timing model (config key timing = 1): cycles on the\n"
    "                        closing line; with --stats/--json per-SM cycles, IPC and stalls\n"
    "  --events FILE         with the timing model (implies --timing): every issue as a\n"
    "                        'CYCLE SM SLOT PC' line, the Verilog RTL testbench's format\n"
    "                        (tools/rtl; compare them with ventus issue-diff)\n"
    "  --timeline FILE       with the timing model (implies --timing): warp activity as a\n"
    "                        Chrome/Perfetto trace-event JSON file (1 us = 1 cycle)\n"
    "  --quiet               no progress and no summary line\n"
    "  --help                this text\n"
    "\n"
    "exit status: 0 ok/match, 1 mismatch, 2 usage, 3 device fault, 4 input/other error\n";

#define MAX_RANGES 32

typedef struct {
  const char *input, *config, *trace, *trace_dir, *dump, *expect, *timeline, *events, *isa, *host_threads;
  const char *export_dir; /* --export-testvec */
  const char *overrides[64];
  int noverrides;
  uint32_t rng_addr[MAX_RANGES], rng_size[MAX_RANGES];
  int nranges;
  uint64_t max_steps;
  int have_max_steps, stats, json, quiet, timing;
  int have_local, have_threads, have_warps, elf_opts;
  uint32_t warps;
  vt_ndrange nd;
  run_views views; /* --show, --expect-arg */
} run_opts;

typedef struct {
  run_opts *o;
  vt_device *d;
  vt_trace_writer *tw;
  FILE *trace_file; /* --trace */
  FILE *launch_file; /* --trace-dir, current launch */
  vt_case *cs;
  vt_tvexport *exp; /* --export-testvec */
  uint32_t vgprs, sgprs; /* a compiled kernel's register counts for the export (0 = unknown) */
  struct timespec t0;
  int progress;
  int progress_shown; /* a progress line is on the terminal */
  double progress_last;
} run_ctx;

static void progress_clear(run_ctx *c) {
  if (c && c->progress_shown) fprintf(stderr, "\r%60s\r", "");
  if (c) c->progress_shown = 0;
}

static int err_exit(const vt_error *e) {
  char buf[600];
  vt_err_format(e, buf, sizeof buf);
  fprintf(stderr, "ventus run: %s\n", buf);
  return vt_err_exit_code(e->kind);
}

static int usage_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_err(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "ventus run: ");
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, " (see 'ventus run --help')\n");
  va_end(ap);
  return 2;
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* At most ten updates a second (a launch may have millions of groups); the
 * line is erased when the launch completes or before any message. */
static void on_progress(void *user, uint64_t done, uint64_t total, uint64_t insns) {
  run_ctx *c = user;
  double now = now_s();
  if (done != total && c->progress_shown && now - c->progress_last < 0.1) return;
  c->progress_last = now;
  c->progress_shown = done != total;
  double dt = now - ((double)c->t0.tv_sec + (double)c->t0.tv_nsec * 1e-9);
  fprintf(stderr, "\r  work-groups %llu/%llu, %.1f M warp-instructions/s   ", (unsigned long long)done,
          (unsigned long long)total, dt > 0 ? (double)insns / dt * 1e-6 : 0.0);
  if (done == total) fprintf(stderr, "\r%60s\r", "");
}

static int before_launch(void *user, size_t i, const vt_launch *l, vt_error *e) {
  run_ctx *c = user;
  if (c->o->trace_dir) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.log", c->o->trace_dir, c->cs ? c->cs->names[i] : "launch");
    c->launch_file = fopen(path, "w");
    if (!c->launch_file) return vt_fail(e, VT_ERR_IO, "%s: %s", path, strerror(errno));
    if (!(c->tw = vt_trace_writer_new(c->launch_file))) return vt_fail(e, VT_ERR_NOMEM, "out of memory");
  } else if (c->trace_file && !c->tw) {
    if (!(c->tw = vt_trace_writer_new(c->trace_file))) return vt_fail(e, VT_ERR_NOMEM, "out of memory");
  }
  if (c->tw) vt_trace_writer_begin(c->tw, c->d, l);
  /* a case keeps its launch names (and register counts); a kernel ELF's
   * launch is <kernel>_0 */
  vt_launch lx = *l;
  if (!lx.vgprs) lx.vgprs = c->vgprs, lx.sgprs = c->sgprs;
  if (c->exp && vt_tvexport_launch(c->exp, c->d, &lx, c->cs ? c->cs->names[i] : c->o->nd.kernel, !c->cs, e))
    return -1;
  clock_gettime(CLOCK_MONOTONIC, &c->t0);
  return 0;
}

static int finish_trace(run_ctx *c, vt_error *e) {
  int r = 0;
  if (c->tw && vt_trace_writer_end(c->tw, c->d)) r = vt_fail(e, VT_ERR_IO, "writing the trace failed");
  if (c->launch_file) {
    vt_trace_writer_free(c->tw);
    c->tw = NULL;
    if (fclose(c->launch_file) && !r) r = vt_fail(e, VT_ERR_IO, "writing the trace failed");
    c->launch_file = NULL;
  }
  return r;
}

static int after_launch(void *user, size_t i, const vt_launch *l, vt_error *e) {
  run_ctx *c = user;
  (void)i, (void)l;
  if (c->exp && vt_tvexport_done(c->exp, c->d, e)) return -1;
  return finish_trace(user, e);
}

/* Options that take one value and may be given only once. */
static const char *const single_opts[] = {"--config",    "--trace",  "--trace-dir", "--dump",  "--expect",
                                          "--timeline",  "--events", "--max-steps", "--kernel", "--global", "--local", "--offset",
                                          "--threads", "--warps", "--pds-size", "--lds-size", "--print-size",
                                          "--isa", "--host-threads", "--export-testvec"};
#define NSINGLE (sizeof single_opts / sizeof single_opts[0])

static int parse_args(int argc, char **argv, run_opts *o) {
  vt_ndrange_defaults(&o->nd);
  unsigned seen = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    for (unsigned k = 0; k < NSINGLE; k++)
      if (!strcmp(a, single_opts[k])) {
        if (seen >> k & 1) return usage_err("%s given twice", a);
        seen |= 1u << k;
      }
#define NEED_VAL()                                                   \
  do {                                                               \
    if (i + 1 >= argc) return usage_err("%s needs a value", a);      \
  } while (0)
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(usage_text, stdout);
      return 1;
    } else if (!strcmp(a, "--config")) {
      NEED_VAL();
      o->config = argv[++i];
    } else if (!strcmp(a, "-c")) {
      NEED_VAL();
      if (o->noverrides == 64) return usage_err("%s: more than 64 overrides", a);
      o->overrides[o->noverrides++] = argv[++i];
    } else if (!strcmp(a, "--trace")) {
      NEED_VAL();
      o->trace = argv[++i];
    } else if (!strcmp(a, "--trace-dir")) {
      NEED_VAL();
      o->trace_dir = argv[++i];
    } else if (!strcmp(a, "--dump")) {
      NEED_VAL();
      o->dump = argv[++i];
    } else if (!strcmp(a, "--dump-range")) {
      NEED_VAL();
      const char *v = argv[++i];
      char tmp[128];
      snprintf(tmp, sizeof tmp, "%s", v);
      char *colon = strchr(tmp, ':');
      uint64_t ad, sz;
      if (!colon) return usage_err("--dump-range %s: expected ADDR:SIZE", v);
      *colon = 0;
      if (vt_parse_size(tmp, &ad) || vt_parse_size(colon + 1, &sz) || ad > 0xffffffffu || sz == 0 ||
          ad + sz > 0x100000000ull)
        return usage_err("--dump-range %s: expected ADDR:SIZE inside 32 bits", v);
      if (o->nranges == MAX_RANGES) return usage_err("%s: too many ranges", a);
      o->rng_addr[o->nranges] = (uint32_t)ad;
      o->rng_size[o->nranges++] = (uint32_t)sz;
    } else if (!strcmp(a, "--expect")) {
      NEED_VAL();
      o->expect = argv[++i];
    } else if (!strcmp(a, "--export-testvec")) {
      NEED_VAL();
      o->export_dir = argv[++i];
    } else if (!strcmp(a, "--max-steps")) {
      NEED_VAL();
      if (vt_parse_size(argv[++i], &o->max_steps))
        return usage_err("--max-steps %s: expected a non-negative number", argv[i]);
      o->have_max_steps = 1;
    } else if (!strcmp(a, "--stats")) {
      o->stats = 1;
    } else if (!strcmp(a, "--json")) {
      o->json = 1;
    } else if (!strcmp(a, "--timeline")) {
      NEED_VAL();
      o->timeline = argv[++i];
      o->timing = 1;
    } else if (!strcmp(a, "--events")) {
      NEED_VAL();
      o->events = argv[++i];
      o->timing = 1;
    } else if (!strcmp(a, "--timing")) {
      o->timing = 1;
    } else if (!strcmp(a, "--isa")) {
      NEED_VAL();
      o->isa = argv[++i];
    } else if (!strcmp(a, "--host-threads")) {
      NEED_VAL();
      uint64_t v;
      o->host_threads = argv[++i];
      if (vt_parse_size(o->host_threads, &v) || v > VT_MAX_HOST_THREADS)
        return usage_err("--host-threads %s: expected 0 (online CPUs)..%u", o->host_threads, VT_MAX_HOST_THREADS);
    } else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
      o->quiet = 1;
    } else if (!strcmp(a, "--kernel")) {
      NEED_VAL();
      o->nd.kernel = argv[++i];
      o->elf_opts = 1;
    } else if (!strcmp(a, "--global") || !strcmp(a, "--local") || !strcmp(a, "--offset")) {
      NEED_VAL();
      const char *v = argv[++i];
      uint32_t d[3];
      int n;
      if (!strcmp(a, "--offset")) {
        if (vt_parse_offsets(v, d) < 0) {
          return usage_err("--offset %s: expected X[,Y[,Z]], 1 to 3 numbers below 2^32", v);
        }
        memcpy(o->nd.offset, d, sizeof d);
      } else if ((n = vt_parse_dims(v, d)) < 0) {
        return usage_err("%s %s: expected X[,Y[,Z]], 1 to 3 positive numbers below 2^32", a, v);
      } else if (!strcmp(a, "--global")) {
        memcpy(o->nd.global, d, sizeof d);
        o->nd.work_dim = (uint32_t)n;
      } else {
        memcpy(o->nd.local, d, sizeof d);
        o->have_local = 1;
      }
      o->elf_opts = 1;
    } else if (!strcmp(a, "--threads") || !strcmp(a, "--warps")) {
      NEED_VAL();
      uint64_t v;
      int thr = !strcmp(a, "--threads");
      if (vt_parse_size(argv[++i], &v) || v == 0 || v > (thr ? 32u : 1024u)) {
        return usage_err("%s %s: expected %s", a, argv[i],
                thr ? "1..32 threads per warp" : "1..1024 warps per work-group");
      }
      if (thr) o->nd.threads = (uint32_t)v, o->have_threads = 1;
      else o->warps = (uint32_t)v, o->have_warps = 1;
      o->elf_opts = 1;
    } else if (!strcmp(a, "--arg")) {
      NEED_VAL();
      vt_karg *na = realloc(o->nd.args, (o->nd.nargs + 1) * sizeof *na);
      if (!na) return usage_err("%s", "out of memory");
      o->nd.args = na;
      vt_error e;
      if (vt_karg_parse(argv[++i], &o->nd.args[o->nd.nargs], &e)) return err_exit(&e);
      o->nd.nargs++;
      o->elf_opts = 1;
    } else if (!strcmp(a, "--show") || !strcmp(a, "--expect-arg")) {
      NEED_VAL();
      if (run_view_parse(&o->views, !strcmp(a, "--show"), argv[++i])) return 2;
      o->elf_opts = 1;
    } else if (!strcmp(a, "--pds-size") || !strcmp(a, "--lds-size") || !strcmp(a, "--print-size")) {
      NEED_VAL();
      uint64_t v;
      int pds = a[2] == 'p' && a[3] == 'd';
      if (vt_parse_size(argv[++i], &v) || v > 0x10000000u || (pds && v == 0)) {
        return usage_err("%s %s: expected a byte count %s0x10000000 (K/M suffixes)", a, argv[i],
                pds ? "1.." : "0..");
      }
      if (pds) o->nd.pds_size = (uint32_t)v, o->nd.pds_given = 1;
      else if (a[2] == 'l') o->nd.lds_size = (uint32_t)v;
      else o->nd.print_size = (uint32_t)v;
      o->elf_opts = 1;
    } else if (a[0] == '-' && a[1]) {
      return usage_err("unknown option %s", a);
    } else if (o->input) {
      return usage_err("more than one input (%s)", a);
    } else {
      o->input = a;
    }
#undef NEED_VAL
  }
  if (!o->input) return usage_err("%s", "no input: give a kernel ELF, a .metadata file or a case directory");
  if (o->trace && o->trace_dir)
    return usage_err("%s", "--trace and --trace-dir exclude each other (one log for all launches, or one per launch)");
  return 0;
}

/* A compiled kernel declared with reqd_work_group_size runs only in groups
 * of that size, as the OpenCL platform enforces (docs/opencl.md §5.6):
 * without --local it takes that size, as clEnqueueNDRangeKernel does with
 * a NULL local size; a damaged attribute section is the platform's to
 * refuse. */
static int apply_reqd_size(const vt_elf_file *f, const char *kernel, uint32_t work_dim, uint32_t local[3], int given,
                           vt_error *e) {
  char name[256], text[200], why[160];
  uint32_t r[3];
  snprintf(name, sizeof name, ".ventus.attrs.%s", kernel);
  const vt_elf_section *s = vt_elf_find_section(f, name);
  if (!s || vt_kernel_attrs_read(s, r, text, sizeof text, why, sizeof why) || !r[0]) return 0;
  if (!given) {
    for (uint32_t i = work_dim; i < 3; i++)
      if (r[i] != 1)
        return vt_fail(e, VT_ERR_USAGE,
                       "kernel %s declares reqd_work_group_size(%u,%u,%u): --global needs %d dimensions, not %u",
                       kernel, r[0], r[1], r[2], r[2] != 1 ? 3 : 2, work_dim);
    memcpy(local, r, sizeof r);
    return 0;
  }
  if (local[0] == r[0] && local[1] == r[1] && local[2] == r[2]) return 0;
  return vt_fail(e, VT_ERR_USAGE, "kernel %s declares reqd_work_group_size(%u,%u,%u): --local must be %u,%u,%u, not %u,%u,%u",
                 kernel, r[0], r[1], r[2], r[0], r[1], r[2], local[0], local[1], local[2]);
}

/* 1 when DIR is the directory of the test-vector case `input`: exporting
 * there would overwrite the launches being read, kernels.txt first. */
static int export_onto_case(const char *dir, const char *input, int input_is_dir) {
  struct stat a, b;
  char cd[4096];
  snprintf(cd, sizeof cd, "%s", input);
  char *slash = strrchr(cd, '/');
  if (!input_is_dir) {
    if (slash == cd) cd[1] = 0; /* "/x.metadata" lies in "/" */
    else if (slash) *slash = 0;
    else snprintf(cd, sizeof cd, ".");
  }
  return !stat(dir, &a) && !stat(cd, &b) && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

static int is_elf(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  unsigned char m[4] = {0};
  size_t n = fread(m, 1, 4, f);
  fclose(f);
  return n == 4 && m[0] == 0x7f && m[1] == 'E' && m[2] == 'L' && m[3] == 'F';
}

static void print_text(void *user, const char *text, size_t len) {
  (void)user;
  fwrite(text, 1, len, stdout);
}

/* user: the kernel ELF when it prints records (a compiled printf), else NULL */
static void print_print(void *user, const char *text, size_t len) {
  if (user) vt_print_records(user, (const uint8_t *)text, len, print_text, NULL);
  else print_text(NULL, text, len);
}

static int write_dump(run_ctx *c, FILE *f, vt_error *e) {
  run_opts *o = c->o;
  if (o->dump) {
    if (c->cs) {
      for (size_t i = 0; i < c->cs->ndump; i++)
        if (vt_memwords_dump_range(c->d, f, c->cs->dump[i].base, c->cs->dump[i].size, e)) return -1;
    } else {
      for (size_t i = 0; i < o->nd.nargs; i++)
        if (o->nd.args[i].kind == VT_KARG_BUF &&
            vt_memwords_dump_range(c->d, f, o->nd.args[i].addr, o->nd.args[i].size, e))
          return -1;
    }
  }
  for (int i = 0; i < o->nranges; i++)
    if (vt_memwords_dump_range(c->d, f, o->rng_addr[i], o->rng_size[i], e)) return -1;
  return 0;
}

int cmd_run(int argc, char **argv) {
  run_opts o;
  memset(&o, 0, sizeof o);
  int pr = parse_args(argc, argv, &o);
  if (pr) {
    for (size_t i = 0; i < o.nd.nargs; i++) vt_karg_free(&o.nd.args[i]);
    free(o.nd.args);
    return pr == 1 ? 0 : pr;
  }
  vt_error e;
  memset(&e, 0, sizeof e);
  int rc = 0;
  vt_config cfg;
  vt_config_defaults(&cfg);
  /* the default step limit: about seconds of work in either mode (the
   * timing model runs ~30 times slower, so a runaway loop there ends in
   * seconds too, not minutes); a configuration file or --max-steps changes it */
  cfg.max_steps = o.timing ? 20000000u : 200000000u;
  vt_device *d = NULL;
  vt_timing *tm = NULL;
  vt_outfile tl_out; /* --timeline */
  FILE *tl = NULL;
  vt_outfile ev_out; /* --events */
  FILE *ev = NULL;
  vt_case cs;
  memset(&cs, 0, sizeof cs);
  vt_heap heap;
  vt_heap_init(&heap);
  run_ctx c = {.o = &o};
  int elf = 0, has_records = 0;
  vt_elf_file pelf;
  memset(&pelf, 0, sizeof pelf);
  vt_memwords expect = {0};

  if (o.config && vt_config_load(&cfg, o.config, &e)) goto fail;
  for (int i = 0; i < o.noverrides; i++)
    if (vt_config_override(&cfg, o.overrides[i], &e)) goto fail;
  if (o.have_max_steps) cfg.max_steps = o.max_steps;
  if (o.timing) cfg.timing = 1;
  if (o.isa && vt_config_set(&cfg, "isa", o.isa, &e)) goto fail;
  if (o.host_threads && vt_config_set(&cfg, "host_threads", o.host_threads, &e)) goto fail;
  if (vt_config_check(&cfg, &e)) goto fail;
  if (o.expect && vt_memwords_read(o.expect, &expect, &e)) goto fail;

  struct stat st;
  if (stat(o.input, &st)) {
    vt_fail(&e, VT_ERR_IO, "%s: %s", o.input, strerror(errno));
    goto fail;
  }
  elf = !S_ISDIR(st.st_mode) && is_elf(o.input);
  if (!elf && o.elf_opts) {
    size_t il = strlen(o.input);
    if (S_ISDIR(st.st_mode) || (il > 9 && !strcmp(o.input + il - 9, ".metadata")))
      vt_fail(&e, VT_ERR_USAGE, "%s is a test-vector case: --kernel/--global/--local/--threads/--warps/--arg/"
              "--*-size/--show/--expect-arg apply only to a kernel ELF", o.input);
    else /* a file meant as the kernel: say what is wrong with it */
      vt_fail(&e, VT_ERR_FORMAT, "%s: not an ELF file (%s), but --kernel and the launch options need a kernel ELF",
              o.input, st.st_size == 0 ? "it is empty" : "no ELF magic number at its start");
    goto fail;
  }
  if (elf && run_views_check(&o.views, o.nd.args, o.nd.nargs, &e)) goto fail;
  if (elf && !o.nd.kernel) {
    vt_fail(&e, VT_ERR_USAGE, "%s: an ELF needs --kernel NAME", o.input);
    goto fail;
  }
  if (!(d = vt_device_create(&cfg, &e))) goto fail;
  c.d = d;
  if (cfg.timing && !(tm = vt_timing_attach(d, &e))) goto fail;
  if (o.timeline && (!(tl = vt_outfile_fopen(&tl_out, o.timeline, &e)) || vt_timing_set_timeline(tm, tl))) {
    if (tl) vt_fail(&e, VT_ERR_IO, "%s: write error", o.timeline);
    goto fail;
  }
  if (o.events && (!(ev = vt_outfile_fopen(&ev_out, o.events, &e)) || vt_timing_set_issue_log(tm, ev))) {
    if (ev) vt_fail(&e, VT_ERR_IO, "%s: write error", o.events);
    goto fail;
  }
  /* a compiled kernel's printf writes records, formatted here */
  if (elf && !vt_elf_read_file(o.input, &pelf, &e) && vt_print_has_records(&pelf)) has_records = 1;
  /* without a resource section the counts stay 0: the export writes pocl's 64 */
  if (elf && o.export_dir && vt_kernel_gpr_usage(&pelf, o.nd.kernel, &c.vgprs, &c.sgprs)) c.vgprs = c.sgprs = 0;
  vt_device_set_print(d, print_print, has_records ? &pelf : NULL);
  c.progress = !o.quiet && isatty(2);
  if (c.progress) vt_device_set_progress(d, on_progress, &c);
  if (o.export_dir && !elf && export_onto_case(o.export_dir, o.input, S_ISDIR(st.st_mode))) {
    vt_fail(&e, VT_ERR_USAGE, "--export-testvec %s is the directory of the case %s: its launches would be overwritten",
            o.export_dir, o.input);
    goto fail;
  }
  if (o.export_dir && !(c.exp = vt_tvexport_open(o.export_dir, &e))) goto fail;
  if (o.trace && !(c.trace_file = fopen(o.trace, "w"))) {
    vt_fail(&e, VT_ERR_IO, "%s: %s", o.trace, strerror(errno));
    goto fail;
  }

  if (elf) {
    o.nd.elf = o.input;
    if (o.have_warps && !o.have_local) {
      uint32_t t = o.nd.threads ? o.nd.threads : cfg.max_threads;
      o.nd.local[0] = o.warps * t;
      o.nd.local[1] = o.nd.local[2] = 1;
    }
    uint32_t loc[3];
    for (int i = 0; i < 3; i++) loc[i] = o.nd.local[i] ? o.nd.local[i] : 1;
    if (apply_reqd_size(&pelf, o.nd.kernel, o.nd.work_dim, loc, o.have_local || o.have_warps, &e)) goto fail;
    memcpy(o.nd.local, loc, sizeof loc);
    vt_launch l;
    if (vt_ndrange_setup(d, &heap, &o.nd, &l, &e)) goto fail;
    if (o.have_warps && l.num_warps != o.warps) {
      vt_fail(&e, VT_ERR_USAGE, "--warps %u does not match --local (it needs %u warps)", o.warps, l.num_warps);
      goto fail;
    }
    if (before_launch(&c, 0, &l, &e)) goto fail;
    if (vt_device_launch(d, &l, &e)) {
      vt_error ig;
      finish_trace(&c, &ig);
      goto fail;
    }
    if (after_launch(&c, 0, &l, &e)) goto fail;
  } else {
    if (vt_case_open(o.input, &cs, &e)) goto fail;
    c.cs = &cs;
    for (size_t i = 0; i < cs.n; i++)
      if (vt_case_run(&cs, d, i, before_launch, after_launch, &c, &e)) {
        vt_error ig;
        finish_trace(&c, &ig);
        char m[sizeof e.msg + 128];
        snprintf(m, sizeof m, "launch %s: %s", cs.names[i], e.msg);
        memcpy(e.msg, m, sizeof e.msg - 1);
        e.msg[sizeof e.msg - 1] = 0;
        goto fail;
      }
  }
  if (tl) { /* complete, or not there at all */
    int r = vt_timing_end_timeline(tm);
    if (fclose(tl)) r = -1;
    tl = NULL;
    if (r) vt_fail(&e, VT_ERR_IO, "%s: write error", o.timeline);
    if (vt_outfile_finish(&tl_out, r, &e) || r) goto fail;
  }
  if (ev) { /* complete, or not there at all */
    vt_timing_set_issue_log(tm, NULL);
    int r = ferror(ev) ? -1 : 0;
    if (fclose(ev)) r = -1;
    ev = NULL;
    if (r) vt_fail(&e, VT_ERR_IO, "%s: write error", o.events);
    if (vt_outfile_finish(&ev_out, r, &e) || r) goto fail;
  }
  if (c.tw && !o.trace_dir) {
    vt_trace_writer_free(c.tw);
    c.tw = NULL;
  }

  if (o.dump || o.nranges) {
    /* every range first, so a bad one leaves no partial dump behind */
    for (int k = 0; k < o.nranges; k++)
      if (!vt_mem_is_mapped(d, o.rng_addr[k], o.rng_size[k])) {
        vt_fail(&e, VT_ERR_USAGE, "--dump-range 0x%08x:0x%x: not all of it is mapped device memory", o.rng_addr[k],
                o.rng_size[k]);
        goto fail;
      }
    vt_outfile out;
    FILE *f = o.dump ? vt_outfile_fopen(&out, o.dump, &e) : stdout;
    if (!f) goto fail;
    int r = write_dump(&c, f, &e);
    if (f != stdout) {
      if (fclose(f) && !r) r = vt_fail(&e, VT_ERR_IO, "%s: write error", o.dump);
      /* no partial dump that looks complete, and nothing removed that we
       * did not create */
      if (vt_outfile_finish(&out, r, &e)) r = -1;
    }
    if (r) goto fail;
  }
  int mismatch = 0;
  vt_error me;
  memset(&me, 0, sizeof me);
  if (o.expect && vt_memwords_compare(d, &expect, o.expect, &me)) mismatch = 1;
  char matched[512] = "";
  vt_error ve;
  if (elf && run_views_apply(&o.views, d, o.nd.args, matched, sizeof matched, &ve)) {
    if (ve.kind != VT_ERR_MISMATCH) {
      e = ve;
      goto fail;
    }
    if (!mismatch) me = ve;
    mismatch = 1;
  }

  int compared = o.expect != NULL;
  for (int k = 0; k < o.views.n; k++) compared |= !o.views.v[k].show;
  const vt_stats *s = vt_device_stats(d);
  if (o.json) {
    printf("{\"input\":");
    vt_json_str(stdout, o.input);
    printf(",\"result\":\"%s\",\"config\":", compared ? (mismatch ? "mismatch" : "match") : "done");
    fflush(stdout);
    vt_config_print_json(&cfg, stdout);
    printf(",\"stats\":");
    fflush(stdout);
    vt_stats_print_json(s, stdout);
    if (tm) {
      printf(",\"timing\":");
      vt_timing_print_json(vt_timing_get_stats(tm), stdout);
    }
    printf("}\n");
  } else if (o.stats) {
    printf("# configuration\n");
    vt_config_print(&cfg, stdout);
    printf("# statistics\n");
    vt_stats_print(s, stdout);
  }
  if (tm && !o.json && o.stats) {
    printf("# timing\n");
    vt_timing_print(vt_timing_get_stats(tm), stdout);
  }
  progress_clear(&c);
  if (fflush(stdout) || ferror(stdout)) { /* before any line that claims success */
    vt_fail(&e, VT_ERR_IO, "writing to standard output failed: %s", strerror(errno));
    goto fail;
  }
  if (mismatch) {
    rc = err_exit(&me);
  } else if (!o.quiet && !o.json) {
    char cyc[96] = "";
    if (tm) {
      const vt_timing_stats *ts = vt_timing_get_stats(tm);
      snprintf(cyc, sizeof cyc, " in %llu cycles (IPC %.3f)", (unsigned long long)ts->cycles,
               ts->cycles ? (double)s->warp_insns / (double)ts->cycles : 0.0);
    }
    fprintf(stderr, "ventus run: %s: %llu warp-instructions%s%s%s\n", o.input, (unsigned long long)s->warp_insns,
            cyc, o.expect ? ", memory matches the expected words" : "", matched);
  }
  goto out;
fail:
  progress_clear(&c);
  rc = err_exit(&e);
out:
  if (c.tw) {
    if (d) vt_device_set_trace(d, NULL, NULL);
    vt_trace_writer_free(c.tw);
  }
  if (tl) { /* a failed run leaves no partial timeline */
    vt_timing_set_timeline(tm, NULL);
    fclose(tl);
    vt_error ig;
    vt_outfile_finish(&tl_out, 1, &ig);
  }
  if (ev) { /* nor a partial issue log */
    vt_timing_set_issue_log(tm, NULL);
    fclose(ev);
    vt_error ig;
    vt_outfile_finish(&ev_out, 1, &ig);
  }
  vt_tvexport_close(c.exp);
  if (c.launch_file) fclose(c.launch_file);
  if (c.trace_file) fclose(c.trace_file);
  vt_memwords_free(&expect);
  vt_elf_free(&pelf);
  vt_case_free(&cs);
  vt_heap_fini(&heap);
  vt_timing_free(tm);
  if (d) vt_device_destroy(d);
  for (size_t i = 0; i < o.nd.nargs; i++) vt_karg_free(&o.nd.args[i]);
  free(o.nd.args);
  return rc;
}
