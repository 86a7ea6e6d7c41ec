/* Device configuration: defaults (upstream RTL values), "key = value"
 * parsing, validation and printing. */
#include <ctype.h>
#include <stddef.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "device.h"

void vt_config_defaults(vt_config *c) {
  memset(c, 0, sizeof *c);
  c->num_sm = 2;
  c->warps_per_sm = 8;
  c->wg_slots_per_sm = 8;
  c->max_threads = 32;
  c->lds_bytes_per_sm = 128 * 1024;
  c->simt_stack_depth = 64;
  c->max_steps = 0;
  c->lds_base = 0x70000000u;
  c->lds_window = 0x10000000u;
  c->barrier_counts_ended = 1;
  c->lds_sparse_limit = 64u << 20;
  c->run_ahead = 1;
  /* timing: the 2025 Chisel RTL (docs/timing.md) */
  c->lat_alu = 5;
  c->lat_valu = 5;
  c->lat_vfpu = 7;
  c->lat_mul = 6;
  c->lat_sfu = 26;
  c->lat_lsu_l1_hit = 11;
  c->lat_dram = 30;
  c->lat_branch = 3;
  c->l1d_sets = 256;
  c->l1d_ways = 2;
  c->l1d_line = 128;
  c->l1d_mshrs = 4;
  c->l1d_mshr_subs = 2;
  c->l1d_wshrs = 4;
  c->lds_through_l1d = 0;
  c->idle_lanes_access = 0;
  c->l1i_sets = 0; /* ideal front end; configs/chisel-2025.cfg models fetch */
  c->l1i_ways = 2;
  c->l1i_line = 128;
  c->l1i_mshrs = 4;
  c->num_fetch = 2;
  c->ibuffer_depth = 2;
  c->lat_fetch = 3;
  c->fetch_interval = 1;
  c->l2_sets = 64;
  c->l2_ways = 16;
  c->l2_line = 128;
  c->l2_banks = 1;
  c->l2_mshrs = 32;
  c->lat_l2 = 10;
  c->lds_banks = 32;
  c->rf_banks = 4;         /* seed 004 and the RTL's NUM_BANK */
  c->collector_cycles = 4; /* the RTL collector unit's accept, two read cycles, dispatch */
  c->fetch_policy = 0;     /* greedy, as seed 004 describes */
  c->fetch_miss_next = 0;
  c->dma_bytes_per_cycle = 16; /* one 16-byte cp_dma lane per cycle (docs/timing.md) */
  c->dma_queue = 8;
}

/* One table drives set, print and JSON so a new key is added in one place. */
typedef struct {
  const char *key;
  size_t off;
  int is64;
  int hex;
} cfg_key;

#define K32(f, hex) {#f, offsetof(vt_config, f), 0, hex}
#define K64(f) {#f, offsetof(vt_config, f), 1, 0}
static const cfg_key keys[] = {
    K32(num_sm, 0),           K32(warps_per_sm, 0),    K32(wg_slots_per_sm, 0),
    K32(max_threads, 0),      K32(lds_bytes_per_sm, 0), K32(simt_stack_depth, 0),
    K64(max_steps),           K32(lds_base, 1),        K32(lds_window, 1),
    K32(barrier_counts_ended, 0), K32(lds_sparse_limit, 1), K32(vgprs_per_sm, 0), K32(sgprs_per_sm, 0),
    K32(writable_code, 0),    K32(strict_bounds, 0),   K32(host_threads, 0),
    K32(run_ahead, 0),
    K32(timing, 0),           K32(num_lanes, 0),       K32(num_sfu, 0),
    K32(lat_alu, 0),          K32(lat_valu, 0),        K32(lat_vfpu, 0),
    K32(lat_mul, 0),          K32(lat_sfu, 0),         K32(lat_lsu_l1_hit, 0),
    K32(lat_dram, 0),         K32(lat_branch, 0),      K32(l1d_sets, 0),
    K32(l1d_ways, 0),         K32(l1d_line, 0),        K32(l1d_mshrs, 0),
    K32(l1i_sets, 0),         K32(l1i_ways, 0),        K32(l1i_line, 0),
    K32(l1i_mshrs, 0),        K32(num_fetch, 0),       K32(ibuffer_depth, 0),
    K32(lat_fetch, 0),        K32(l2_sets, 0),         K32(l2_ways, 0),
    K32(l2_line, 0),          K32(l2_banks, 0),        K32(l2_mshrs, 0),
    K32(lat_l2, 0),           K32(dram_bytes_per_cycle, 0), K32(lat_flush, 0),
    K32(lat_launch, 0),       K32(lds_banks, 0),       K32(l2_set_blocking, 0),
    K32(fetch_interval, 0),   K32(l1d_mshr_subs, 0),   K32(l1d_wshrs, 0),
    K32(rf_banks, 0),         K32(collector_cycles, 0), K32(fetch_policy, 0),
    K32(lds_through_l1d, 0),  K32(idle_lanes_access, 0), K32(isa, 0),
    K32(timing_quantum, 0),   K32(dma_bytes_per_cycle, 0), K32(dma_queue, 0),
    K32(fetch_miss_next, 0),  K32(l2_flush_walk, 0),
    K32(l2_cold_launch, 0),   K32(warps_last_first, 0),
};
#define NKEYS (sizeof keys / sizeof keys[0])

/* 0 ok, -1 not a non-negative integer, -2 out of range (uint64) */
static int parse_num(const char *s, uint64_t *out) {
  while (isspace((unsigned char)*s)) s++;
  if (!isdigit((unsigned char)*s)) return -1; /* no sign: strtoull would wrap "-1" */
  errno = 0;
  char *end;
  unsigned long long v = strtoull(s, &end, 0);
  int range = errno == ERANGE;
  uint64_t mul = 1;
  if (*end == 'k' || *end == 'K') mul = 1024, end++;
  else if (*end == 'm' || *end == 'M') mul = 1024 * 1024, end++;
  else if (*end == 'g' || *end == 'G') mul = 1024ull * 1024 * 1024, end++;
  while (isspace((unsigned char)*end)) end++;
  if (*end) return -1;
  if (range || v > UINT64_MAX / mul) return -2;
  *out = v * mul;
  return 0;
}

/* User text in a message: at most 40 characters, anything not printable
 * ASCII as \xNN, so a binary file cannot write raw bytes to the terminal. */
static const char *shown(const char *s, char *buf, size_t len) {
  size_t n = 0;
  for (size_t i = 0; s[i] && n + 8 < len; i++) {
    unsigned char ch = (unsigned char)s[i];
    if (i == 40) {
      n += (size_t)snprintf(buf + n, len - n, "...");
      break;
    }
    if (ch >= 0x20 && ch < 0x7f && ch != '\\') buf[n++] = (char)ch;
    else n += (size_t)snprintf(buf + n, len - n, "\\x%02x", ch);
  }
  buf[n] = 0;
  return buf;
}

int vt_config_set(vt_config *c, const char *key, const char *value, vt_error *e) {
  char kb[200], vb[200];
  if (!strcmp(key, "isa") && !strcmp(value, "base")) value = "0"; /* the revision's name */
  for (size_t i = 0; i < NKEYS; i++) {
    if (strcmp(keys[i].key, key)) continue;
    uint64_t v;
    uint64_t max = keys[i].is64 ? UINT64_MAX : UINT32_MAX;
    int r = parse_num(value, &v);
    if (r == -1)
      return vt_fail(e, VT_ERR_CONFIG,
                     "config %s: '%s' is not a non-negative integer (decimal or 0x hex, K/M/G suffix)", key,
                     shown(value, vb, sizeof vb));
    if (r == -2 || v > max)
      return vt_fail(e, VT_ERR_CONFIG, "config %s: %s is out of range (at most %llu)", key,
                     shown(value, vb, sizeof vb), (unsigned long long)max);
    char *p = (char *)c + keys[i].off;
    if (keys[i].is64) {
      memcpy(p, &v, sizeof v);
    } else {
      uint32_t v32 = (uint32_t)v;
      memcpy(p, &v32, sizeof v32);
    }
    return 0;
  }
  return vt_fail(e, VT_ERR_CONFIG, "unknown config key '%s'", shown(key, kb, sizeof kb));
}

int vt_config_override(vt_config *c, const char *kv, vt_error *e) {
  char kb[200], key[64];
  const char *eq = strchr(kv, '=');
  if (!eq) return vt_fail(e, VT_ERR_USAGE, "config override '%s': expected KEY=VALUE", shown(kv, kb, sizeof kb));
  /* no key is this long: copying it whole is not needed to reject it */
  if ((size_t)(eq - kv) >= sizeof key)
    return vt_fail(e, VT_ERR_CONFIG, "unknown config key '%s'", shown(kv, kb, sizeof kb));
  memcpy(key, kv, (size_t)(eq - kv));
  key[eq - kv] = 0;
  return vt_config_set(c, key, eq + 1, e);
}

static char *trim(char *s) {
  while (isspace((unsigned char)*s)) s++;
  size_t n = strlen(s);
  while (n && isspace((unsigned char)s[n - 1])) s[--n] = 0;
  return s;
}

/* Configuration files are a few dozen short lines: longer lines and larger
 * files are not configuration (a binary, /dev/zero) and are refused rather
 * than read for ever. */
#define CFG_MAX_LINE 4096
#define CFG_MAX_BYTES (1u << 20)

/* Reads one line (without its newline) into buf; 1 = a line, 0 = end of
 * file, -1 = error (in e). */
static int read_line(FILE *f, const char *path, int lineno, char *buf, size_t *total, vt_error *e) {
  size_t n = 0;
  int ch;
  while ((ch = getc(f)) != EOF && ch != '\n') {
    if (++*total > CFG_MAX_BYTES)
      return vt_fail(e, VT_ERR_FORMAT, "%s: larger than %u bytes: not a configuration file", path,
                     CFG_MAX_BYTES);
    if (ch == 0)
      return vt_fail(e, VT_ERR_FORMAT, "%s:%d: NUL byte: not a text file", path, lineno);
    if (n == CFG_MAX_LINE)
      return vt_fail(e, VT_ERR_FORMAT, "%s:%d: line longer than %d bytes", path, lineno, CFG_MAX_LINE);
    buf[n++] = (char)ch;
  }
  if (ferror(f)) return vt_fail(e, VT_ERR_IO, "%s: %s", path, VT_STRERROR(errno));
  buf[n] = 0;
  return ch != EOF || n ? 1 : 0;
}

int vt_config_load(vt_config *c, const char *path, vt_error *e) {
  FILE *f = fopen(path, "r");
  if (!f) return vt_fail(e, VT_ERR_IO, "config %s: %s", path, VT_STRERROR(errno));
  struct stat st;
  if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
    fclose(f);
    return vt_fail(e, VT_ERR_IO, "config %s: is a directory", path);
  }
  char *line = malloc(CFG_MAX_LINE + 1);
  if (!line) {
    fclose(f);
    return vt_fail(e, VT_ERR_NOMEM, "config %s: out of memory", path);
  }
  int lineno = 0, rc = 0, got;
  size_t total = 0;
  while ((got = read_line(f, path, lineno + 1, line, &total, e)) > 0) {
    lineno++;
    char *hash = strchr(line, '#');
    if (hash) *hash = 0;
    char *s = trim(line);
    if (!*s || *s == '[') continue;
    char *eq = strchr(s, '=');
    if (!eq) {
      rc = vt_fail(e, VT_ERR_FORMAT, "%s:%d: expected 'key = value'", path, lineno);
      break;
    }
    *eq = 0;
    char *k = trim(s), *v = trim(eq + 1);
    if (vt_config_set(c, k, v, e)) {
      char msg[sizeof e->msg];
      snprintf(msg, sizeof msg, "%s", e->msg);
      rc = vt_fail(e, VT_ERR_CONFIG, "%s:%d: %s", path, lineno, msg);
      break;
    }
  }
  if (got < 0) rc = -1;
  free(line);
  fclose(f);
  return rc;
}

/* One cache's geometry: sets a power of two (0 allowed where it switches
 * the cache's model off), ways, line a power of two, MSHRs. */
static int check_cache(vt_error *e, const char *n, uint32_t sets, uint32_t ways, uint32_t line, uint32_t mshrs,
                       int zero_ok) {
  if ((!sets && !zero_ok) || sets > 65536 || (sets & (sets - 1)))
    return vt_fail(e, VT_ERR_CONFIG, "%s_sets must be a power of two, %s..65536", n, zero_ok ? "0 (off), 1" : "1");
  if (ways < 1 || ways > 64) return vt_fail(e, VT_ERR_CONFIG, "%s_ways must be 1..64", n);
  if (line < 4 || line > 4096 || (line & (line - 1)))
    return vt_fail(e, VT_ERR_CONFIG, "%s_line must be a power of two, 4..4096 bytes", n);
  if (mshrs < 1 || mshrs > 1024) return vt_fail(e, VT_ERR_CONFIG, "%s_mshrs must be 1..1024", n);
  return 0;
}

int vt_config_check(const vt_config *c, vt_error *e) {
  if (c->num_sm < 1 || c->num_sm > 1024) return vt_fail(e, VT_ERR_CONFIG, "num_sm must be 1..1024");
  if (c->warps_per_sm < 1 || c->warps_per_sm > 1024)
    return vt_fail(e, VT_ERR_CONFIG, "warps_per_sm must be 1..1024");
  if (c->wg_slots_per_sm < 1 || c->wg_slots_per_sm > 1024)
    return vt_fail(e, VT_ERR_CONFIG, "wg_slots_per_sm must be 1..1024");
  if (c->max_threads < 1 || c->max_threads > 32)
    return vt_fail(e, VT_ERR_CONFIG, "max_threads must be 1..32");
  if (c->simt_stack_depth < 2 || c->simt_stack_depth > 65536)
    return vt_fail(e, VT_ERR_CONFIG, "simt_stack_depth must be 2..65536");
  if (c->lds_window == 0 || (uint64_t)c->lds_base + c->lds_window > 0x100000000ull)
    return vt_fail(e, VT_ERR_CONFIG, "local window [lds_base, +lds_window) must be non-empty and not wrap");
  if (c->barrier_counts_ended > 1) return vt_fail(e, VT_ERR_CONFIG, "barrier_counts_ended must be 0 or 1");
  if (c->writable_code > 1) return vt_fail(e, VT_ERR_CONFIG, "writable_code must be 0 or 1");
  if (c->strict_bounds > 1) return vt_fail(e, VT_ERR_CONFIG, "strict_bounds must be 0 or 1");
  if (c->run_ahead > 1) return vt_fail(e, VT_ERR_CONFIG, "run_ahead must be 0 or 1");
  if (c->host_threads > VT_MAX_HOST_THREADS)
    return vt_fail(e, VT_ERR_CONFIG, "host_threads must be 0 (online CPUs)..%u", VT_MAX_HOST_THREADS);
  if (c->timing > 1) return vt_fail(e, VT_ERR_CONFIG, "timing must be 0 or 1");
  if (c->num_lanes > 32) return vt_fail(e, VT_ERR_CONFIG, "num_lanes must be 0..32 (0: threads per warp)");
  if (c->num_sfu > 32) return vt_fail(e, VT_ERR_CONFIG, "num_sfu must be 0..32 (0: a quarter of the lanes)");
  const uint32_t *lat[] = {&c->lat_alu, &c->lat_valu, &c->lat_vfpu, &c->lat_mul, &c->lat_sfu, &c->lat_lsu_l1_hit};
  const char *latn[] = {"lat_alu", "lat_valu", "lat_vfpu", "lat_mul", "lat_sfu", "lat_lsu_l1_hit"};
  for (size_t i = 0; i < sizeof lat / sizeof lat[0]; i++)
    if (*lat[i] < 1 || *lat[i] > 100000) return vt_fail(e, VT_ERR_CONFIG, "%s must be 1..100000 cycles", latn[i]);
  if (c->lat_dram > 100000 || c->lat_branch > 100000)
    return vt_fail(e, VT_ERR_CONFIG, "lat_dram and lat_branch must be 0..100000 cycles");
  if (check_cache(e, "l1d", c->l1d_sets, c->l1d_ways, c->l1d_line, c->l1d_mshrs, 0) ||
      check_cache(e, "l1i", c->l1i_sets, c->l1i_ways, c->l1i_line, c->l1i_mshrs, 1) ||
      check_cache(e, "l2", c->l2_sets, c->l2_ways, c->l2_line, c->l2_mshrs, 0))
    return -1;
  if (c->num_fetch < 1 || c->num_fetch > 16 || (c->num_fetch & (c->num_fetch - 1)))
    return vt_fail(e, VT_ERR_CONFIG, "num_fetch must be a power of two, 1..16");
  if (c->num_fetch * 4 > c->l1i_line && c->l1i_sets)
    return vt_fail(e, VT_ERR_CONFIG, "num_fetch instructions (4 bytes each) must fit in l1i_line");
  if (c->ibuffer_depth < c->num_fetch || c->ibuffer_depth > 64)
    return vt_fail(e, VT_ERR_CONFIG, "ibuffer_depth must be num_fetch..64");
  if (c->l1d_mshr_subs < 1 || c->l1d_mshr_subs > 255)
    return vt_fail(e, VT_ERR_CONFIG, "l1d_mshr_subs must be 1..255");
  if (c->l1d_wshrs < 1 || c->l1d_wshrs > 1024) return vt_fail(e, VT_ERR_CONFIG, "l1d_wshrs must be 1..1024");
  if (c->fetch_interval < 1 || c->fetch_interval > 1000)
    return vt_fail(e, VT_ERR_CONFIG, "fetch_interval must be 1..1000 cycles");
  if (c->l2_banks < 1 || c->l2_banks > 64) return vt_fail(e, VT_ERR_CONFIG, "l2_banks must be 1..64");
  if (c->l2_set_blocking > 1) return vt_fail(e, VT_ERR_CONFIG, "l2_set_blocking must be 0 or 1");
  if (c->lds_through_l1d > 1) return vt_fail(e, VT_ERR_CONFIG, "lds_through_l1d must be 0 or 1");
  if (c->idle_lanes_access > 1) return vt_fail(e, VT_ERR_CONFIG, "idle_lanes_access must be 0 or 1");
  if (c->lds_banks < 1 || c->lds_banks > 64) return vt_fail(e, VT_ERR_CONFIG, "lds_banks must be 1..64");
  if (c->rf_banks < 1 || c->rf_banks > 32) return vt_fail(e, VT_ERR_CONFIG, "rf_banks must be 1..32");
  if (c->collector_cycles < 1 || c->collector_cycles > 64)
    return vt_fail(e, VT_ERR_CONFIG, "collector_cycles must be 1..64");
  if (c->dma_bytes_per_cycle < 1 || c->dma_bytes_per_cycle > 4096)
    return vt_fail(e, VT_ERR_CONFIG, "dma_bytes_per_cycle must be 1..4096");
  if (c->dma_queue < 1 || c->dma_queue > 64) return vt_fail(e, VT_ERR_CONFIG, "dma_queue must be 1..64");
  if (c->fetch_policy > 1)
    return vt_fail(e, VT_ERR_CONFIG, "fetch_policy must be 0 (greedy) or 1 (fixed priority, the Verilog RTL)");
  if (c->fetch_miss_next > 4) return vt_fail(e, VT_ERR_CONFIG, "fetch_miss_next must be 0..4");
  if (c->l2_cold_launch > 1) return vt_fail(e, VT_ERR_CONFIG, "l2_cold_launch must be 0 or 1");
  if (c->warps_last_first > 1) return vt_fail(e, VT_ERR_CONFIG, "warps_last_first must be 0 or 1");
  const uint32_t *cyc[] = {&c->lat_fetch,  &c->lat_l2,     &c->dram_bytes_per_cycle,
                           &c->lat_flush,  &c->lat_launch, &c->timing_quantum, &c->l2_flush_walk};
  const char *cycn[] = {"lat_fetch",  "lat_l2",         "dram_bytes_per_cycle", "lat_flush",
                        "lat_launch", "timing_quantum", "l2_flush_walk"};
  for (size_t i = 0; i < sizeof cyc / sizeof cyc[0]; i++)
    if (*cyc[i] > 100000) return vt_fail(e, VT_ERR_CONFIG, "%s must be 0..100000", cycn[i]);
  if (c->isa != 0 && c->isa != 2025)
    return vt_fail(e, VT_ERR_CONFIG, "isa must be 0 (or base: the upstream baseline) or 2025");
  return 0;
}

static uint64_t get(const vt_config *c, const cfg_key *k) {
  const char *p = (const char *)c + k->off;
  if (k->is64) {
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
  }
  uint32_t v;
  memcpy(&v, p, sizeof v);
  return v;
}

void vt_config_print(const vt_config *c, FILE *f) {
  for (size_t i = 0; i < NKEYS; i++) {
    uint64_t v = get(c, &keys[i]);
    if (!strcmp(keys[i].key, "isa") && v == 0) fprintf(f, "isa = base\n"); /* the revision's name */
    else if (keys[i].hex) fprintf(f, "%s = 0x%08llx\n", keys[i].key, (unsigned long long)v);
    else fprintf(f, "%s = %llu\n", keys[i].key, (unsigned long long)v);
  }
}

void vt_config_print_json(const vt_config *c, FILE *f) {
  fputc('{', f);
  for (size_t i = 0; i < NKEYS; i++)
    fprintf(f, "%s\"%s\": %llu", i ? ", " : "", keys[i].key, (unsigned long long)get(c, &keys[i]));
  fputs("}\n", f);
}
