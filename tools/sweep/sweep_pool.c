/* fork/exec of the runs, their time limits and their ends. */
#include "sweep_pool.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct {
  pid_t pid; /* 0 = free */
  size_t tag;
  double start, deadline; /* deadline 0 = none */
  int killed;
} slot;

struct sw_pool {
  slot *s;
  int n;
  sigset_t old_mask; /* restored in the children and by sw_pool_free */
};

double sw_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

sw_pool *sw_pool_new(int slots, vt_error *e) {
  sw_pool *p = calloc(1, sizeof *p);
  if (p) p->s = calloc((size_t)slots, sizeof *p->s);
  if (!p || !p->s) {
    free(p);
    vt_fail(e, VT_ERR_NOMEM, "out of memory");
    return NULL;
  }
  p->n = slots;
  sigset_t chld;
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  sigprocmask(SIG_BLOCK, &chld, &p->old_mask);
  return p;
}

void sw_pool_free(sw_pool *p) {
  if (!p) return;
  for (int i = 0; i < p->n; i++)
    if (p->s[i].pid > 0) {
      kill(p->s[i].pid, SIGKILL);
      waitpid(p->s[i].pid, NULL, 0);
    }
  sigprocmask(SIG_SETMASK, &p->old_mask, NULL);
  free(p->s);
  free(p);
}

int sw_pool_free_slots(const sw_pool *p) { return p->n - sw_pool_running(p); }

int sw_pool_running(const sw_pool *p) {
  int k = 0;
  for (int i = 0; i < p->n; i++) k += p->s[i].pid > 0;
  return k;
}

/* in the child: only async-signal-safe calls until exec */
static void child(const sw_pool *p, char *const *argv, const char *cwd, const char *out, const char *err) {
  int o = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  int r = open(err, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  int in = open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (o < 0 || r < 0 || in < 0 || dup2(in, 0) < 0 || dup2(o, 1) < 0 || dup2(r, 2) < 0) _exit(127);
  if (cwd && chdir(cwd)) {
    static const char msg[] = "ventus sweep: cannot enter the description's directory\n";
    (void)!write(2, msg, sizeof msg - 1);
    _exit(127);
  }
  sigprocmask(SIG_SETMASK, &p->old_mask, NULL);
  execv(argv[0], argv);
  static const char msg[] = "ventus sweep: cannot start the run\n";
  (void)!write(2, msg, sizeof msg - 1);
  _exit(127);
}

int sw_pool_start(sw_pool *p, char *const *argv, const char *cwd, const char *out_path, const char *err_path,
                  double timeout, size_t tag, vt_error *e) {
  slot *s = NULL;
  for (int i = 0; i < p->n && !s; i++)
    if (p->s[i].pid == 0) s = &p->s[i];
  if (!s) return vt_fail(e, VT_ERR_INTERNAL, "no free slot for a run");
  pid_t pid = fork();
  if (pid < 0) return vt_fail(e, VT_ERR_IO, "cannot start a run: fork: %s", VT_STRERROR(errno));
  if (pid == 0) child(p, argv, cwd, out_path, err_path);
  s->pid = pid;
  s->tag = tag;
  s->start = sw_now();
  s->deadline = timeout > 0 ? s->start + timeout : 0;
  s->killed = 0;
  return 0;
}

/* reaps one ended child, if any */
static int reap(sw_pool *p, sw_done *d) {
  int st;
  pid_t pid = waitpid(-1, &st, WNOHANG);
  if (pid <= 0) return 0;
  for (int i = 0; i < p->n; i++)
    if (p->s[i].pid == pid) {
      slot *s = &p->s[i];
      d->tag = s->tag;
      d->exit_code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
      d->signal = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
      d->timed_out = s->killed;
      d->wall = sw_now() - s->start;
      s->pid = 0;
      return 1;
    }
  return 0; /* not ours (cannot happen: the pool starts every child) */
}

int sw_pool_wait(sw_pool *p, double max_wait, sw_done *d) {
  double until = sw_now() + max_wait;
  sigset_t chld;
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  for (;;) {
    if (reap(p, d)) return 1;
    if (sw_pool_running(p) == 0) return 0;
    double now = sw_now(), wake = until;
    for (int i = 0; i < p->n; i++) {
      slot *s = &p->s[i];
      if (s->pid <= 0 || !s->deadline || s->killed) continue;
      if (now >= s->deadline) {
        kill(s->pid, SIGKILL);
        s->killed = 1;
      } else if (s->deadline < wake) {
        wake = s->deadline;
      }
    }
    if (reap(p, d)) return 1;
    if (now >= until) return 0;
    double dt = wake - now;
    if (dt < 0) dt = 0;
    struct timespec ts = {(time_t)dt, (long)((dt - (double)(time_t)dt) * 1e9)};
    sigtimedwait(&chld, NULL, &ts); /* a SIGCHLD, or the next deadline */
  }
}
