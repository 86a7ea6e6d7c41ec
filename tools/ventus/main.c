/* `ventus`: one command, several subcommands (git style). */
#include <stdio.h>
#include <string.h>

#include "commands.h"

static const struct {
  const char *name;
  int (*fn)(int, char **);
  const char *help;
} commands[] = {
    {"as", cmd_as, "assemble Ventus assembly into an ELF32 RISC-V object or executable"},
    {"objdump", cmd_objdump, "disassemble an ELF file or raw instruction words"},
    {"run", cmd_run, "run a kernel ELF or an upstream test-vector case on the simulated GPGPU"},
    {"trace-diff", cmd_trace_diff, "compare two commit logs warp by warp"},
    {"config", cmd_config, "print the effective device configuration"},
};
#define NCMD (sizeof commands / sizeof commands[0])

static void usage(FILE *f) {
  fprintf(f, "usage: ventus <command> [options]\n\ncommands:\n");
  for (size_t i = 0; i < NCMD; i++) fprintf(f, "  %-11s %s\n", commands[i].name, commands[i].help);
  fprintf(f, "\n'ventus <command> --help' describes a command.\n");
}

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
    usage(stdout);
    return 0;
  }
  if (!strcmp(argv[1], "--version")) {
    puts("ventus (chengying) 0.1");
    return 0;
  }
  for (size_t i = 0; i < NCMD; i++)
    if (!strcmp(argv[1], commands[i].name)) return commands[i].fn(argc - 1, argv + 1);
  fprintf(stderr, "ventus: unknown command '%s' (see 'ventus --help')\n", argv[1]);
  return 2;
}
