/* Subcommands of the `ventus` CLI; each lives in cmd_<name>.c. */
#ifndef VT_COMMANDS_H
#define VT_COMMANDS_H

int cmd_as(int argc, char **argv);
int cmd_objdump(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_trace_diff(int argc, char **argv);
int cmd_issue_diff(int argc, char **argv);
int cmd_config(int argc, char **argv);
int cmd_cc(int argc, char **argv);
int cmd_sweep(int argc, char **argv); /* cmd_sweep.c, or main.c's notice without SQLite */

#endif
