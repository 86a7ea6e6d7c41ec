/* `ventus`: one command, several subcommands (git style). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"

#ifndef VT_HAVE_SWEEP
int cmd_sweep(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fprintf(stderr, "ventus sweep: not built: SQLite (libsqlite3-dev) was not found when this ventus was built\n");
  return 4;
}
#endif

static const struct {
  const char *name;
  int (*fn)(int, char **);
  const char *help;
} commands[] = {
    {"cc", cmd_cc, "compile OpenCL C kernels into a Ventus ELF"},
    {"as", cmd_as, "assemble Ventus assembly into an ELF32 RISC-V object or executable"},
    {"objdump", cmd_objdump, "disassemble an ELF file or raw instruction words"},
    {"run", cmd_run, "run a kernel ELF or an upstream test-vector case on the simulated GPGPU"},
    {"trace-diff", cmd_trace_diff, "compare two commit logs warp by warp"},
    {"issue-diff", cmd_issue_diff, "where two issue logs' timing drifts apart (RTL against the model)"},
    {"config", cmd_config, "print the effective device configuration"},
    {"sweep", cmd_sweep, "run a design-space sweep of kernels over configurations into SQLite"},
};
#define NCMD (sizeof commands / sizeof commands[0])

static void usage(FILE *f) {
  fprintf(f, "usage: ventus <command> [options]\n\ncommands:\n");
  for (size_t i = 0; i < NCMD; i++) fprintf(f, "  %-11s %s\n", commands[i].name, commands[i].help);
  fprintf(f, "\n'ventus <command> --help' describes a command.\n");
}

/* A closed standard descriptor would be reused by the next fopen (a
 * --dump file would receive the statistics meant for stdout): occupy it with
 * /dev/null opened in the other direction, so every use of it fails and is
 * reported instead. */
static void guard_std_fds(void) {
  for (int fd = 0; fd <= 2; fd++)
    if (fcntl(fd, F_GETFD) == -1 && errno == EBADF) {
      int n = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
      if (n >= 0 && n != fd) {
        dup2(n, fd);
        close(n);
      }
    }
}

/* Output lost on a full disk or a closed stdout must not end in success. */
static int check_stdout(const char *cmd, int rc) {
  if ((rc != 0 && rc != 1) || (fflush(stdout) == 0 && !ferror(stdout))) return rc; /* errors: reported already */
  fprintf(stderr, "ventus%s%s: writing to standard output failed: %s\n", cmd ? " " : "", cmd ? cmd : "",
          strerror(errno));
  return 4;
}

int main(int argc, char **argv) {
  guard_std_fds();
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
    usage(stdout);
    return check_stdout(NULL, 0);
  }
  if (!strcmp(argv[1], "--version")) {
    puts("ventus (chengying) 0.1");
    return check_stdout(NULL, 0);
  }
  for (size_t i = 0; i < NCMD; i++)
    if (!strcmp(argv[1], commands[i].name)) return check_stdout(commands[i].name, commands[i].fn(argc - 1, argv + 1));
  fprintf(stderr, "ventus: unknown command '%s' (see 'ventus --help')\n", argv[1]);
  return 2;
}
