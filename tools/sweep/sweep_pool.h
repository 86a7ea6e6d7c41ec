/* Child processes run side by side, each with a time limit: the sweep's
 * runs are isolated processes, so a crash or a runaway kernel ends only
 * its own run. The caller blocks SIGCHLD (sw_pool_new does) so the pool
 * waits for children with sigtimedwait instead of polling. */
#ifndef SWEEP_POOL_H
#define SWEEP_POOL_H

#include <stddef.h>
#include <sys/types.h>

#include "vt_error.h"

typedef struct sw_pool sw_pool;

typedef struct {
  size_t tag;      /* the caller's number for the job */
  int exit_code;   /* when it exited, else -1 */
  int signal;      /* the signal that ended it, else 0 */
  int timed_out;   /* killed at its time limit */
  double wall;     /* seconds from start to end */
} sw_done;

sw_pool *sw_pool_new(int slots, vt_error *e);
void sw_pool_free(sw_pool *p); /* kills what still runs */
int sw_pool_free_slots(const sw_pool *p);
int sw_pool_running(const sw_pool *p);

/* Starts argv[0] (a path) with argv in directory cwd, stdout into out_path
 * and stderr into err_path (created or truncated), killed after timeout
 * seconds (0 = never). -1 with e set when it cannot be started. */
int sw_pool_start(sw_pool *p, char *const *argv, const char *cwd, const char *out_path, const char *err_path,
                  double timeout, size_t tag, vt_error *e);

/* Waits at most max_wait seconds for a job to end: 1 with *d filled, 0
 * when none ended in time (or none runs). */
int sw_pool_wait(sw_pool *p, double max_wait, sw_done *d);

/* Seconds on the monotonic clock. */
double sw_now(void);

#endif
