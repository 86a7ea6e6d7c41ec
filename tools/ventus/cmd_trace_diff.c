/* placeholder until this subcommand lands */
#include <stdio.h>
#include "commands.h"
int cmd_trace_diff(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fprintf(stderr, "ventus: this command is not built yet\n");
  return 2;
}
