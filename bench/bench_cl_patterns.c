/* bench_cl_patterns: the barrier- and __local-heavy kernel patterns of issue
 * 23 (bench/opencl/, OpenCL C) through any OpenCL 1.2 platform: every
 * result checked against a plain-C reference computed here, wall time per
 * kernel reported (median of repeated runs; the build apart). One source,
 * the plain OpenCL 1.2 API only, so it builds anywhere:
 *   cc -O2 -std=c17 bench/bench_cl_patterns.c -lOpenCL -lm
 * bench/pocl-side-by-side.sh runs it on our platform and on pocl.
 * Not a test: ctest checks its results at tiny sizes, never its times. */
#define _POSIX_C_SOURCE 200809L
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef VT_SOURCE_DIR
#define VT_SOURCE_DIR "."
#endif

enum { MAXBUF = 6, MAXARG = 10, MAXK = 2, MAXL = 2, MAXREPS = 1000 };

/* A kernel argument: 'b' buffer (index into job.bytes), 'i' int, 'f' float,
 * 'l' __local bytes. */
typedef struct {
  char kind;
  int buf;
  cl_int i;
  cl_float f;
  size_t bytes;
} arg_t;

typedef struct {
  const char *fn;
  int nargs;
  arg_t args[MAXARG];
} kern_t;

typedef struct {
  int kernel;
  cl_uint dims;
  size_t global[2], local[2];
} launch_t;

/* One problem instance: buffers (init NULL = written by the kernels only),
 * kernels with their arguments, the launches (run `repeat` times in order,
 * e.g. the stencil's ping-pong pair), and the result buffer with its
 * reference. Every init buffer is written again before each run. */
typedef struct {
  char size[64];
  int nbuf;
  size_t bytes[MAXBUF];
  void *init[MAXBUF];
  int nk;
  kern_t k[MAXK];
  int nl, repeat;
  launch_t l[MAXL];
  int out;
  void *ref;
  double tol; /* floats: largest |got - ref| / max(1, |ref|); 0 = bit for bit */
} job_t;

typedef struct {
  const char *name, *file, *what;
  int (*make)(job_t *, int tiny); /* 0, or -1 out of host memory */
} pattern_t;

typedef struct {
  int ok;                 /* result checked and equal */
  double build, first;    /* seconds: clBuildProgram, the first (untimed-for-median) run */
  double median, min, max;
  double err;             /* largest relative error of a float result */
  int reps;
  char size[64], msg[512]; /* msg: why the kernel failed */
} result_t;

/* ---- deterministic inputs ------------------------------------------------ */

static uint64_t rng_state;
static uint32_t rng(void) { /* xorshift64*: the same inputs on every host */
  rng_state ^= rng_state >> 12, rng_state ^= rng_state << 25, rng_state ^= rng_state >> 27;
  return (uint32_t)((rng_state * 0x2545F4914F6CDD1DULL) >> 32);
}
static float rngf(float lo, float hi) { return lo + (hi - lo) * (float)(rng() >> 8) / 16777216.0f; }

static void *alloc_buf(job_t *j, size_t bytes, int with_init) {
  int b = j->nbuf++;
  j->bytes[b] = bytes;
  j->init[b] = with_init ? malloc(bytes) : NULL;
  return j->init[b];
}

static arg_t A_buf(int b) { return (arg_t){.kind = 'b', .buf = b}; }
static arg_t A_int(cl_int v) { return (arg_t){.kind = 'i', .i = v}; }
static arg_t A_flt(cl_float v) { return (arg_t){.kind = 'f', .f = v}; }
static arg_t A_loc(size_t bytes) { return (arg_t){.kind = 'l', .bytes = bytes}; }

static void launch2(job_t *j, int k, size_t gx, size_t gy, size_t lx, size_t ly) {
  j->l[j->nl++] = (launch_t){k, 2, {gx, gy}, {lx, ly}};
}
static void launch1(job_t *j, int k, size_t g, size_t l) { j->l[j->nl++] = (launch_t){k, 1, {g, 1}, {l, 1}}; }

/* ---- the patterns: inputs, launches and the C reference -------------------- */

/* cyclic reduction: diagonally dominant systems of n = 2 * local unknowns */
static int make_cr(job_t *j, int tiny) {
  int pairs = 64, n = 2 * pairs, systems = tiny ? 4 : 4096;
  size_t cnt = (size_t)n * systems, bytes = cnt * sizeof(float);
  snprintf(j->size, sizeof j->size, "%d systems of %d", systems, n);
  float *a = alloc_buf(j, bytes, 1), *b = alloc_buf(j, bytes, 1), *c = alloc_buf(j, bytes, 1),
        *d = alloc_buf(j, bytes, 1);
  alloc_buf(j, bytes, 0);
  float *x = j->ref = malloc(bytes), *w = malloc(4 * (size_t)n * sizeof(float));
  if (!a || !b || !c || !d || !x || !w) return free(w), -1;
  for (size_t i = 0; i < cnt; i++) {
    a[i] = i % n ? rngf(-1, 1) : 0.0f, c[i] = i % n != (size_t)n - 1 ? rngf(-1, 1) : 0.0f;
    b[i] = rngf(3, 5), d[i] = rngf(-10, 10);
  }
  j->nk = 1;
  j->k[0] = (kern_t){"cyclic_reduction", 10, {A_buf(0), A_buf(1), A_buf(2), A_buf(3), A_buf(4)}};
  for (int i = 5; i < 10; i++) j->k[0].args[i] = A_loc((size_t)n * sizeof(float));
  launch1(j, 0, cnt / 2, (size_t)pairs);
  j->out = 4, j->tol = 1e-5;
  /* the same steps in the same order as the kernel's work-items take them */
  for (int s = 0; s < systems; s++) {
    float *la = w, *lb = w + n, *lc = w + 2 * n, *ld = w + 3 * n, *lx = x + (size_t)s * n;
    size_t o = (size_t)s * n;
    memcpy(la, a + o, n * sizeof(float)), memcpy(lb, b + o, n * sizeof(float));
    memcpy(lc, c + o, n * sizeof(float)), memcpy(ld, d + o, n * sizeof(float));
    int stride = 1;
    for (int active = pairs; active > 1; active /= 2) {
      stride *= 2;
      int delta = stride / 2;
      for (int t = 0; t < active; t++) {
        int i = stride * t + stride - 1;
        float k1 = la[i] / lb[i - delta];
        if (i == n - 1) {
          lb[i] = lb[i] - lc[i - delta] * k1;
          ld[i] = ld[i] - ld[i - delta] * k1;
          la[i] = -la[i - delta] * k1;
          lc[i] = 0.0f;
        } else {
          float k2 = lc[i] / lb[i + delta];
          lb[i] = lb[i] - lc[i - delta] * k1 - la[i + delta] * k2;
          ld[i] = ld[i] - ld[i - delta] * k1 - ld[i + delta] * k2;
          la[i] = -la[i - delta] * k1;
          lc[i] = -lc[i + delta] * k2;
        }
      }
    }
    int i1 = stride - 1, i2 = 2 * stride - 1;
    float det = lb[i2] * lb[i1] - lc[i1] * la[i2];
    lx[i1] = (lb[i2] * ld[i1] - lc[i1] * ld[i2]) / det;
    lx[i2] = (ld[i2] * lb[i1] - ld[i1] * la[i2]) / det;
    for (int active = 2; active <= pairs; active *= 2) {
      int delta = stride / 2;
      for (int t = 0; t < active; t++) {
        int i = stride * t + delta - 1;
        if (i == delta - 1)
          lx[i] = (ld[i] - lc[i] * lx[i + delta]) / lb[i];
        else
          lx[i] = (ld[i] - la[i] * lx[i - delta] - lc[i] * lx[i + delta]) / lb[i];
      }
      stride /= 2;
    }
  }
  free(w);
  return 0;
}

static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

/* 5-point stencil: `sweeps` Jacobi sweeps (even), ping-pong between buffers 0 and 1 */
static int make_stencil(job_t *j, int tiny) {
  int w = tiny ? 48 : 512, h = tiny ? 32 : 512, sweeps = tiny ? 2 : 10;
  size_t cnt = (size_t)w * h, bytes = cnt * sizeof(float);
  const float c0 = 0.5f, c1 = 0.125f;
  snprintf(j->size, sizeof j->size, "%dx%d, %d sweeps", w, h, sweeps);
  float *in = alloc_buf(j, bytes, 1), *ref = j->ref = malloc(bytes), *tmp = malloc(bytes);
  alloc_buf(j, bytes, 0);
  if (!in || !ref || !tmp) return free(tmp), -1;
  for (size_t i = 0; i < cnt; i++) in[i] = rngf(0, 100);
  j->nk = 2;
  j->k[0] = (kern_t){"stencil5", 6, {A_buf(0), A_buf(1), A_int(w), A_int(h), A_flt(c0), A_flt(c1)}};
  j->k[1] = (kern_t){"stencil5", 6, {A_buf(1), A_buf(0), A_int(w), A_int(h), A_flt(c0), A_flt(c1)}};
  launch2(j, 0, (size_t)w, (size_t)h, 16, 16);
  launch2(j, 1, (size_t)w, (size_t)h, 16, 16);
  j->repeat = sweeps / 2, j->out = 0, j->tol = 1e-6;
  memcpy(ref, in, bytes);
  for (int s = 0; s < sweeps; s++) {
    float *src = s % 2 ? tmp : ref, *dst = s % 2 ? ref : tmp;
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++) {
        float around = src[clampi(y - 1, 0, h - 1) * w + x] + src[clampi(y + 1, 0, h - 1) * w + x] +
                       src[y * w + clampi(x - 1, 0, w - 1)] + src[y * w + clampi(x + 1, 0, w - 1)];
        dst[y * w + x] = c0 * src[y * w + x] + c1 * around;
      }
  }
  free(tmp);
  return 0;
}

/* separable convolution: a 17-tap filter along rows (0 -> 2), then columns (2 -> 3) */
enum { CONV_R = 8 };
static int make_conv(job_t *j, int tiny) {
  int w = tiny ? 48 : 1024, h = tiny ? 24 : 512;
  size_t cnt = (size_t)w * h, bytes = cnt * sizeof(float);
  snprintf(j->size, sizeof j->size, "%dx%d, %d taps", w, h, 2 * CONV_R + 1);
  float *in = alloc_buf(j, bytes, 1), *f = alloc_buf(j, (2 * CONV_R + 1) * sizeof(float), 1);
  alloc_buf(j, bytes, 0), alloc_buf(j, bytes, 0);
  float *ref = j->ref = malloc(bytes), *tmp = malloc(bytes);
  if (!in || !f || !ref || !tmp) return free(tmp), -1;
  for (size_t i = 0; i < cnt; i++) in[i] = rngf(0, 1);
  for (int k = 0; k <= 2 * CONV_R; k++) f[k] = rngf(0, 1) / (2 * CONV_R + 1);
  j->nk = 2;
  j->k[0] = (kern_t){"conv_rows", 5, {A_buf(0), A_buf(2), A_buf(1), A_int(w), A_int(h)}};
  j->k[1] = (kern_t){"conv_cols", 5, {A_buf(2), A_buf(3), A_buf(1), A_int(w), A_int(h)}};
  launch2(j, 0, (size_t)w, (size_t)h, 16, 8);
  launch2(j, 1, (size_t)w, (size_t)h, 16, 8);
  j->out = 3, j->tol = 1e-6;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      float s = 0.0f;
      for (int k = -CONV_R; k <= CONV_R; k++) s += f[k + CONV_R] * in[y * w + clampi(x + k, 0, w - 1)];
      tmp[y * w + x] = s;
    }
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      float s = 0.0f;
      for (int k = -CONV_R; k <= CONV_R; k++) s += f[k + CONV_R] * tmp[clampi(y + k, 0, h - 1) * w + x];
      ref[y * w + x] = s;
    }
  free(tmp);
  return 0;
}

/* Mersenne twister: one small twister per work-item, `count` numbers each */
enum { MT_NN = 19, MT_MM = 9 };
static int make_mt(job_t *j, int tiny) {
  int gens = tiny ? 128 : 4096, count = tiny ? 40 : 1024;
  size_t cnt = (size_t)gens * count;
  snprintf(j->size, sizeof j->size, "%d generators x %d", gens, count);
  uint32_t *par = alloc_buf(j, (size_t)gens * 4 * sizeof(uint32_t), 1);
  alloc_buf(j, cnt * sizeof(float), 0);
  float *ref = j->ref = malloc(cnt * sizeof(float));
  if (!par || !ref) return -1;
  /* random parameters stand in for dcmt's: the work is the same */
  for (int g = 0; g < gens; g++)
    par[4 * g] = rng() | 0x80000000u, par[4 * g + 1] = rng(), par[4 * g + 2] = rng(), par[4 * g + 3] = rng();
  j->nk = 1;
  j->k[0] = (kern_t){"mersenne_twister", 3, {A_buf(0), A_buf(1), A_int(count)}};
  launch1(j, 0, (size_t)gens, 64);
  j->out = 1;
  for (int g = 0; g < gens; g++) {
    uint32_t mt[MT_NN], a = par[4 * g], mb = par[4 * g + 1], mc = par[4 * g + 2];
    mt[0] = par[4 * g + 3];
    for (int i = 1; i < MT_NN; i++) mt[i] = 1812433253u * (mt[i - 1] ^ (mt[i - 1] >> 30)) + (uint32_t)i;
    int s = 0;
    uint32_t next = mt[0];
    for (int n = 0; n < count; n++) {
      int s1 = (s + 1) % MT_NN, sm = (s + MT_MM) % MT_NN;
      uint32_t cur = next;
      next = mt[s1];
      uint32_t y = (cur & 0xfffffffeu) | (next & 1u);
      y = mt[sm] ^ (y >> 1) ^ (y & 1u ? a : 0u);
      mt[s] = y, s = s1;
      y ^= y >> 12, y ^= (y << 7) & mb, y ^= (y << 15) & mc, y ^= y >> 18;
      ref[(size_t)n * gens + g] = ((float)y + 1.0f) / 4294967296.0f;
    }
  }
  return 0;
}

/* bitonic sort: blocks of 2 * 256 keys, each sorted ascending */
static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}
static int make_bitonic(job_t *j, int tiny) {
  int pairs = 256, n = 2 * pairs, blocks = tiny ? 2 : 1024;
  size_t cnt = (size_t)n * blocks, bytes = cnt * sizeof(uint32_t);
  snprintf(j->size, sizeof j->size, "%d blocks of %d keys", blocks, n);
  uint32_t *in = alloc_buf(j, bytes, 1), *ref = j->ref = malloc(bytes);
  alloc_buf(j, bytes, 0);
  if (!in || !ref) return -1;
  for (size_t i = 0; i < cnt; i++) in[i] = rng() % 100000; /* with repeated keys */
  j->nk = 1;
  j->k[0] = (kern_t){"bitonic_sort", 3, {A_buf(0), A_buf(1), A_loc(bytes / blocks)}};
  launch1(j, 0, cnt / 2, (size_t)pairs);
  j->out = 1;
  memcpy(ref, in, bytes);
  for (int b = 0; b < blocks; b++) qsort(ref + (size_t)b * n, (size_t)n, sizeof *ref, cmp_u32);
  return 0;
}

/* tiled transpose of an h x w matrix (w != h, so that swapped sizes show) */
static int make_transpose(job_t *j, int tiny) {
  int w = tiny ? 48 : 2048, h = tiny ? 32 : 1536;
  size_t cnt = (size_t)w * h, bytes = cnt * sizeof(float);
  snprintf(j->size, sizeof j->size, "%dx%d", w, h);
  float *in = alloc_buf(j, bytes, 1), *ref = j->ref = malloc(bytes);
  alloc_buf(j, bytes, 0);
  if (!in || !ref) return -1;
  for (size_t i = 0; i < cnt; i++) in[i] = (float)i;
  j->nk = 1;
  j->k[0] = (kern_t){"transpose", 4, {A_buf(0), A_buf(1), A_int(w), A_int(h)}};
  launch2(j, 0, (size_t)w, (size_t)h, 16, 16);
  j->out = 1;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) ref[(size_t)x * h + y] = in[(size_t)y * w + x];
  return 0;
}

static const pattern_t patterns[] = {
    {"cyclic_reduction", "cyclic_reduction.cl", "tridiagonal systems by cyclic reduction in __local, a barrier per step",
     make_cr},
    {"stencil5", "stencil5.cl", "5-point Jacobi sweeps over __local tiles with halos, ping-pong buffers", make_stencil},
    {"convolution", "convolution.cl", "separable 17-tap convolution: row pass, then column pass, __local aprons",
     make_conv},
    {"mersenne_twister", "mersenne_twister.cl", "one small Mersenne twister per work-item, state in a private array",
     make_mt},
    {"bitonic_sort", "bitonic_sort.cl", "bitonic sorting network over 512-key blocks in __local, a barrier per step",
     make_bitonic},
    {"transpose", "transpose.cl", "transpose through padded 16x16 __local tiles", make_transpose},
};
enum { NPAT = sizeof patterns / sizeof patterns[0] };

/* ---- running one pattern ---------------------------------------------------- */

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_dbl(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static char *read_text(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *s = NULL;
  long len = fseek(f, 0, SEEK_END) ? -1 : ftell(f);
  if (len >= 0 && !fseek(f, 0, SEEK_SET) && (s = malloc((size_t)len + 1))) {
    if (fread(s, 1, (size_t)len, f) == (size_t)len)
      s[len] = 0;
    else
      free(s), s = NULL;
  }
  fclose(f);
  return s;
}

/* compares the result with the reference: 0 equal (within tol), 1 not */
static int check(const job_t *j, const void *got, result_t *r) {
  size_t bytes = j->bytes[j->out];
  if (j->tol == 0) {
    const uint32_t *g = got, *e = j->ref;
    for (size_t i = 0; i < bytes / 4; i++)
      if (g[i] != e[i]) {
        snprintf(r->msg, sizeof r->msg, "word %zu is 0x%08x, expected 0x%08x", i, (unsigned)g[i], (unsigned)e[i]);
        return 1;
      }
    return 0;
  }
  const float *g = got, *e = j->ref;
  for (size_t i = 0; i < bytes / sizeof(float); i++) {
    double d = fabs((double)g[i] - e[i]) / fmax(1.0, fabs((double)e[i]));
    if (!(d <= j->tol)) { /* NaN fails too */
      snprintf(r->msg, sizeof r->msg, "element %zu is %.9g, expected %.9g", i, g[i], e[i]);
      return 1;
    }
    if (d > r->err) r->err = d;
  }
  return 0;
}

#define CL_TRY(call, what)                                                       \
  do {                                                                           \
    cl_int e_ = (call);                                                          \
    if (e_ != CL_SUCCESS) {                                                      \
      snprintf(r->msg, sizeof r->msg, "%s failed (OpenCL error %d)", what, e_); \
      goto done;                                                                 \
    }                                                                            \
  } while (0)

/* Builds and runs one pattern `reps` + 1 times (the first run is reported
 * apart: it may include work a platform defers to the first launch), checks
 * the first and the last result. Fills r; returns 0 if all went well. */
static int run_pattern(const pattern_t *p, const char *dir, int tiny, int reps, cl_context ctx, cl_device_id dev,
                       cl_command_queue q, result_t *r) {
  job_t j = {.repeat = 1};
  cl_program prog = NULL;
  cl_kernel k[MAXK] = {NULL};
  cl_mem m[MAXBUF] = {NULL};
  void *got = NULL;
  double *t = calloc((size_t)reps, sizeof *t);
  char path[1024], *src = NULL;
  cl_int err;
  memset(r, 0, sizeof *r);
  rng_state = 0x9E3779B97F4A7C15ULL; /* inputs independent of --only */
  if (!t || p->make(&j, tiny)) {
    snprintf(r->msg, sizeof r->msg, "out of host memory");
    goto done;
  }
  snprintf(r->size, sizeof r->size, "%s", j.size);
  snprintf(path, sizeof path, "%s/%s", dir, p->file);
  if (!(src = read_text(path))) {
    snprintf(r->msg, sizeof r->msg, "cannot read %.400s", path);
    goto done;
  }
  double t0 = now();
  prog = clCreateProgramWithSource(ctx, 1, (const char **)&src, NULL, &err);
  CL_TRY(err, "clCreateProgramWithSource");
  if ((err = clBuildProgram(prog, 1, &dev, "", NULL, NULL)) != CL_SUCCESS) {
    char log[400] = "";
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
    for (char *c = log; *c; c++) /* one line */
      if (*c == '\n' || *c == '\t') *c = ' ';
    snprintf(r->msg, sizeof r->msg, "clBuildProgram failed (%d): %s", err, log);
    goto done;
  }
  r->build = now() - t0;
  for (int b = 0; b < j.nbuf; b++) {
    m[b] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, j.bytes[b], NULL, &err);
    CL_TRY(err, "clCreateBuffer");
  }
  for (int i = 0; i < j.nk; i++) {
    k[i] = clCreateKernel(prog, j.k[i].fn, &err);
    CL_TRY(err, "clCreateKernel");
    for (int a = 0; a < j.k[i].nargs; a++) {
      const arg_t *x = &j.k[i].args[a];
      cl_uint ai = (cl_uint)a;
      err = x->kind == 'b'   ? clSetKernelArg(k[i], ai, sizeof(cl_mem), &m[x->buf])
            : x->kind == 'i' ? clSetKernelArg(k[i], ai, sizeof(cl_int), &x->i)
            : x->kind == 'f' ? clSetKernelArg(k[i], ai, sizeof(cl_float), &x->f)
                             : clSetKernelArg(k[i], ai, x->bytes, NULL);
      CL_TRY(err, "clSetKernelArg");
    }
  }
  if (!(got = malloc(j.bytes[j.out]))) {
    snprintf(r->msg, sizeof r->msg, "out of host memory");
    goto done;
  }
  for (int rep = 0; rep <= reps; rep++) {
    for (int b = 0; b < j.nbuf; b++)
      if (j.init[b]) CL_TRY(clEnqueueWriteBuffer(q, m[b], CL_TRUE, 0, j.bytes[b], j.init[b], 0, NULL, NULL), "write");
    CL_TRY(clFinish(q), "clFinish");
    t0 = now();
    for (int it = 0; it < j.repeat; it++)
      for (int l = 0; l < j.nl; l++) {
        const launch_t *x = &j.l[l];
        CL_TRY(clEnqueueNDRangeKernel(q, k[x->kernel], x->dims, NULL, x->global, x->local, 0, NULL, NULL),
               "clEnqueueNDRangeKernel");
      }
    CL_TRY(clFinish(q), "clFinish (the kernels)");
    double dt = now() - t0;
    if (rep == 0)
      r->first = dt;
    else
      t[rep - 1] = dt;
    if (rep == 0 || rep == reps) {
      CL_TRY(clEnqueueReadBuffer(q, m[j.out], CL_TRUE, 0, j.bytes[j.out], got, 0, NULL, NULL), "read");
      if (check(&j, got, r)) goto done;
    }
  }
  qsort(t, (size_t)reps, sizeof *t, cmp_dbl);
  r->median = reps % 2 ? t[reps / 2] : (t[reps / 2 - 1] + t[reps / 2]) / 2;
  r->min = t[0], r->max = t[reps - 1], r->reps = reps;
  r->ok = 1;
done:
  for (int i = 0; i < MAXK; i++)
    if (k[i]) clReleaseKernel(k[i]);
  for (int b = 0; b < MAXBUF; b++) {
    if (m[b]) clReleaseMemObject(m[b]);
    free(j.init[b]);
  }
  if (prog) clReleaseProgram(prog);
  free(j.ref), free(got), free(src), free(t);
  return !r->ok;
}

/* ---- platform choice, output, command line ---------------------------------- */

static int contains_ci(const char *hay, const char *needle) {
  for (; *hay; hay++) {
    size_t i = 0;
    while (needle[i] && tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i])) i++;
    if (!needle[i]) return 1;
  }
  return !*needle;
}

/* the first platform whose name or vendor contains `want`, and its first
 * device; 0, or -1 with the platforms seen in `seen` */
static int pick_platform(const char *want, cl_platform_id *pp, cl_device_id *dp, char *name, size_t len, char *seen,
                         size_t seenlen) {
  cl_platform_id p[16];
  cl_uint np = 0;
  seen[0] = 0;
  if (clGetPlatformIDs(16, p, &np) != CL_SUCCESS) np = 0;
  for (cl_uint i = 0; i < np && i < 16; i++) {
    char pn[256] = "", pv[256] = "";
    clGetPlatformInfo(p[i], CL_PLATFORM_NAME, sizeof pn, pn, NULL);
    clGetPlatformInfo(p[i], CL_PLATFORM_VENDOR, sizeof pv, pv, NULL);
    size_t used = strlen(seen);
    snprintf(seen + used, seenlen - used, "%s'%s'", used ? ", " : "", pn);
    if ((contains_ci(pn, want) || contains_ci(pv, want)) &&
        clGetDeviceIDs(p[i], CL_DEVICE_TYPE_ALL, 1, dp, NULL) == CL_SUCCESS) {
      *pp = p[i];
      snprintf(name, len, "%s", pn);
      return 0;
    }
  }
  return -1;
}

static void json_str(const char *s) {
  putchar('"');
  for (; *s; s++)
    if (*s == '"' || *s == '\\')
      printf("\\%c", *s);
    else if ((unsigned char)*s < 0x20)
      printf("\\u%04x", *s);
    else
      putchar(*s);
  putchar('"');
}

static void usage(FILE *f) {
  fprintf(f,
          "usage: bench_cl_patterns [--platform NAME] [--reps N] [--tiny] [--only LIST] [--kernels DIR]\n"
          "                         [--json | --tsv] [--list] [--help]\n"
          "Runs the OpenCL C kernel patterns of bench/opencl on one OpenCL platform, checks every\n"
          "result against a C reference and prints wall seconds per kernel: the build, the first\n"
          "run, and the median/min/max of the next N runs (kernels only: launch to clFinish).\n"
          "  --platform NAME  first platform whose name or vendor contains NAME (any case;\n"
          "                   default chengying; e.g. pocl). For chengying, OCL_ICD_VENDORS\n"
          "                   defaults to this build tree's icd/ directory\n"
          "  --reps N         timed runs per kernel (default 5)\n"
          "  --tiny           each kernel at a tiny size (a correctness check)\n"
          "  --only LIST      comma-separated kernel names (--list shows them)\n"
          "  --kernels DIR    the .cl files (default " VT_SOURCE_DIR "/bench/opencl)\n"
          "  --json, --tsv    one JSON object; or one tab-separated line per kernel:\n"
          "                   name size build first median min max check\n"
          "Exit status: 0 all results correct, 1 a kernel failed or differed, 2 bad usage,\n"
          "4 no such platform.\n");
}

static int selected(const char *only, const char *name) {
  if (!only) return 1;
  size_t n = strlen(name);
  for (const char *s = only; *s;) {
    const char *e = strchr(s, ',');
    size_t len = e ? (size_t)(e - s) : strlen(s);
    if (len == n && !strncmp(s, name, n)) return 1;
    s += len + (e != NULL);
  }
  return 0;
}

int main(int argc, char **argv) {
  const char *want = "chengying", *only = NULL, *dir = VT_SOURCE_DIR "/bench/opencl";
  int reps = 5, tiny = 0, json = 0, tsv = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(a, "--list")) {
      for (int p = 0; p < NPAT; p++) printf("%-17s %s\n", patterns[p].name, patterns[p].what);
      return 0;
    } else if (!strcmp(a, "--tiny"))
      tiny = 1;
    else if (!strcmp(a, "--json"))
      json = 1;
    else if (!strcmp(a, "--tsv"))
      tsv = 1;
    else if (v && !strcmp(a, "--platform"))
      want = v, i++;
    else if (v && !strcmp(a, "--only"))
      only = v, i++;
    else if (v && !strcmp(a, "--kernels"))
      dir = v, i++;
    else if (v && !strcmp(a, "--reps")) {
      char *end;
      long n = strtol(v, &end, 10);
      if (*end || n < 1 || n > MAXREPS) {
        fprintf(stderr, "bench_cl_patterns: --reps must be 1..%d, not '%s'\n", MAXREPS, v);
        return 2;
      }
      reps = (int)n, i++;
    } else {
      fprintf(stderr, "bench_cl_patterns: unknown or incomplete option '%s' (--help)\n", a);
      return 2;
    }
  }
  if (json && tsv) {
    fprintf(stderr, "bench_cl_patterns: --json and --tsv exclude each other\n");
    return 2;
  }
  int nsel = 0;
  for (int p = 0; p < NPAT; p++) nsel += selected(only, patterns[p].name);
  if (!nsel) {
    fprintf(stderr, "bench_cl_patterns: --only '%s' names no kernel (--list)\n", only);
    return 2;
  }
#ifdef VT_BINARY_DIR
  if (contains_ci("chengying", want) && *want && !getenv("OCL_ICD_VENDORS"))
    setenv("OCL_ICD_VENDORS", VT_BINARY_DIR "/icd", 1);
#endif

  cl_platform_id plat;
  cl_device_id dev;
  char pname[256], seen[1024], dname[256] = "";
  if (pick_platform(want, &plat, &dev, pname, sizeof pname, seen, sizeof seen)) {
    fprintf(stderr, "bench_cl_patterns: no OpenCL platform matches '%s' (found: %s)\n", want,
            *seen ? seen : "none; OCL_ICD_VENDORS?");
    return 4;
  }
  clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof dname, dname, NULL);
  cl_int err;
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)plat, 0};
  cl_context ctx = clCreateContext(props, 1, &dev, NULL, NULL, &err);
  cl_command_queue q = err ? NULL : clCreateCommandQueue(ctx, dev, 0, &err);
  if (err) {
    fprintf(stderr, "bench_cl_patterns: cannot open the device '%s' (OpenCL error %d)\n", dname, err);
    if (ctx) clReleaseContext(ctx);
    return 4;
  }
  double load[3] = {0};
  FILE *lf = fopen("/proc/loadavg", "r");
  if (!lf || fscanf(lf, "%lf %lf %lf", &load[0], &load[1], &load[2]) != 3) load[0] = load[1] = load[2] = -1;
  if (lf) fclose(lf);

  if (json) {
    printf("{\"platform\": ");
    json_str(pname);
    printf(", \"device\": ");
    json_str(dname);
    printf(", \"reps\": %d, \"tiny\": %s, \"load\": [%.2f, %.2f, %.2f], \"kernels\": [", reps,
           tiny ? "true" : "false", load[0], load[1], load[2]);
  } else if (!tsv)
    printf("platform %s, device %s, %d timed runs, load %.2f %.2f %.2f\n%-17s %-24s %8s %8s %9s %9s %9s  %s\n",
           pname, dname, reps, load[0], load[1], load[2], "kernel", "size", "build s", "first s", "median s",
           "min s", "max s", "check");
  int failed = 0, n = 0;
  for (int p = 0; p < NPAT; p++) {
    if (!selected(only, patterns[p].name)) continue;
    result_t r;
    failed |= run_pattern(&patterns[p], dir, tiny, reps, ctx, dev, q, &r);
    if (!r.ok) fprintf(stderr, "bench_cl_patterns: %s: %s\n", patterns[p].name, r.msg);
    if (json) {
      printf("%s\n  {\"name\": \"%s\", \"size\": ", n++ ? "," : "", patterns[p].name);
      json_str(r.size);
      printf(", \"build_s\": %.6f, \"first_s\": %.6f, \"median_s\": %.6f, \"min_s\": %.6f, \"max_s\": %.6f, "
             "\"max_rel_err\": %.3g, \"check\": \"%s\"",
             r.build, r.first, r.median, r.min, r.max, r.err, r.ok ? "ok" : "FAIL");
      if (!r.ok) {
        printf(", \"error\": ");
        json_str(r.msg);
      }
      printf("}");
    } else
      printf(tsv ? "%s\t%s\t%.6f\t%.6f\t%.6f\t%.6f\t%.6f\t%s\n"
                 : "%-17s %-24s %8.3f %8.3f %9.4f %9.4f %9.4f  %s\n",
             patterns[p].name, r.size, r.build, r.first, r.median, r.min, r.max, r.ok ? "ok" : "FAIL");
    fflush(stdout);
  }
  if (json) printf("\n]}\n");
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  return failed ? 1 : 0;
}
