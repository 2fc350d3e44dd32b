/*
 * commands: one function per subcommand, each in cmd_<name>.c; argv[0] is the command's name and the
 * return value is the exit code.
 */
#ifndef BENCH_BENCH_COMMANDS_H
#define BENCH_BENCH_COMMANDS_H

int cmd_help(int argc, char **argv);
int cmd_version(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_baseline(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_profiles(int argc, char **argv);
int cmd_recipes(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_gate(int argc, char **argv);
int cmd_trend(int argc, char **argv);
int cmd_hosts(int argc, char **argv);
int cmd_lab(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_db(int argc, char **argv);

#endif
