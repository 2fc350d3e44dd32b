/*
 * main: set up (check the ops tables, prepare what the command's flags ask for), dispatch to the command
 * table, clean up, check that stdout was written, exit.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "bench/cli.h"
#include "collectors/collector.h"
#include "engines/engine.h"

/* A registered engine or collector without a required hook is a bug: exit 70 before anything runs. */
static int check_ops_tables(void)
{
	struct errbuf err;

	errbuf_init(&err);
	if (engine_check_all(&err) < 0 || collector_check_all(&err) < 0)
		return cli_fail(&err);
	return EXIT_OK;
}

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
		return cmd_unknown(argv[1]);
	rc = check_ops_tables();
	if (rc == EXIT_OK)
		rc = cli_prepare(c, argc - 1, argv + 1);
	if (rc == EXIT_OK)
		rc = c->fn(argc - 1, argv + 1);
	rc = cli_finish(rc);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		if (errno == EPIPE || rc != EXIT_OK)
			return rc; /* a closed pipe is not an error; a command that failed has said why */
		return cli_error(EXIT_STORE, "cannot write to standard output: %s", strerror(errno));
	}
	return rc;
}
