/*
 * main: set up, dispatch to the command table, check that stdout was written, exit.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "bench/cli.h"

int main(int argc, char **argv)
{
	const struct cmd *c;
	int rc;

	signal(SIGPIPE, SIG_IGN);
	if (argc < 2) {
		c = cmd_find("help");
		rc = c->fn(1, (char *[]){ "help", NULL });
		return rc == EXIT_OK ? EXIT_USAGE : rc;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		argv[1] = "help";
	if (!strcmp(argv[1], "--version"))
		argv[1] = "version";
	c = cmd_find(argv[1]);
	if (!c)
		return cli_error(EXIT_USAGE, "unknown command '%s' (see 'bench help')", argv[1]);
	rc = c->fn(argc - 1, argv + 1);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		if (errno == EPIPE)
			return rc;
		return cli_error(rc ? rc : EXIT_INTERNAL, "cannot write to standard output: %s", strerror(errno));
	}
	return rc;
}
