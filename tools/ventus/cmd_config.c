/* `ventus config`: print the effective device configuration. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "device.h"

static const char usage_text[] =
    "usage: ventus config [--config FILE] [-c KEY=VALUE]... [--json]\n"
    "\n"
    "Prints the effective configuration: the defaults, then FILE (key = value lines),\n"
    "then each -c override, in that order.\n";

int cmd_config(int argc, char **argv) {
  vt_config c;
  vt_config_defaults(&c);
  vt_error e;
  int json = 0;
  const char *file = NULL;
  const char *ov[64];
  int nov = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      fputs(usage_text, stdout);
      return 0;
    } else if (!strcmp(argv[i], "--json")) {
      json = 1;
    } else if (!strcmp(argv[i], "--config") && i + 1 < argc) {
      file = argv[++i];
    } else if (!strcmp(argv[i], "-c") && i + 1 < argc) {
      if (nov == 64) {
        fprintf(stderr, "ventus config: -c: more than 64 overrides\n");
        return 2;
      }
      ov[nov++] = argv[++i];
    } else {
      fprintf(stderr, "ventus config: unexpected argument '%s' (see 'ventus config --help')\n", argv[i]);
      return 2;
    }
  }
  int bad = file && vt_config_load(&c, file, &e);
  for (int i = 0; !bad && i < nov; i++) bad = vt_config_override(&c, ov[i], &e);
  if (!bad) bad = vt_config_check(&c, &e);
  if (bad) {
    char buf[600];
    vt_err_format(&e, buf, sizeof buf);
    fprintf(stderr, "ventus config: %s\n", buf);
    return vt_err_exit_code(e.kind);
  }
  if (json) {
    vt_config_print_json(&c, stdout);
    printf("\n");
  } else {
    vt_config_print(&c, stdout);
  }
  return 0;
}
