/*
 * cmd_hosts: `bench hosts check|start|stop --hosts FILE`. check is the multi-host preflight on its own
 * (engines/fio_hosts.h): every fio server answers fio's PROBE, runs the local fio's version, and every target
 * is present and safe (the consent check: probed over ssh as a local path is, or below the host's workdir=);
 * a table per host and a decision per target, exit 3 for a refused target, 4 naming the hosts that failed. start/stop run `fio --server` on each
 * host over ssh (BatchMode, argv, every remote word quoted), for users who do not run the servers as a
 * service themselves (docs/multihost.md has a systemd unit).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/cli.h"
#include "bench/options.h"
#include "bench/commands.h"
#include "core/hostsfile.h"
#include "core/proc.h"
#include "core/units.h"
#include "engines/fio_hosts.h"

static int usage(void)
{
	printf("usage: bench hosts check --hosts FILE [--allow-partial] [--destructive] [--overwrite-files]\n"
	       "                         [--target PATH]... [--no-targets] [--timeout DURATION]\n"
	       "       bench hosts start --hosts FILE [--dry-run]\n"
	       "       bench hosts stop  --hosts FILE [--dry-run]\n\n"
	       "Checks and manages the fio servers of a multi-host suite. The hosts file (docs/hosts.md) names\n"
	       "each host, the address[:port] of its fio server, its role and its targets.\n\n"
	       "  check         preflight: each initiator's fio server is reachable (a real fio protocol probe),\n"
	       "                runs the same fio version as this host, and each target is present and readable\n"
	       "                (a 4 KiB read through fio, nothing written). Each target is checked as a local\n"
	       "                one is: probed over ssh when the host line gives ssh access (ssh=, ssh_port=,\n"
	       "                ssh_key=), else accepted only below the host's workdir=. Prints a table per host\n"
	       "                and the decision per target; exit 3 for a refused target, 4 for a failed host.\n"
	       "  start         starts 'fio --server=ADDR,PORT --daemonize=/tmp/bench-fio-server-PORT.pid' on each\n"
	       "                initiator over ssh (ssh -o BatchMode=yes; key-based login, user from ssh=USER)\n"
	       "  stop          stops the servers started by 'start' (kills the pid in that pid file)\n\n"
	       "");
	opt_help(stdout, OPT_HOSTS);
	printf("\n"
	       "exit codes: 0 ok, 2 usage, 3 bad hosts file or a refused target, 4 a host failed.\n");
	return EXIT_OK;
}

static void print_argv(char **argv)
{
	for (size_t i = 0; argv[i]; i++)
		printf("%s%s", i ? " " : "", argv[i]);
	printf("\n");
}

static int ssh_all(const struct host_list *hl, int start, int dry_run)
{
	size_t failed = 0, n = 0;
	char first[256] = "";

	for (size_t i = 0; i < hl->n; i++) {
		const struct host *h = &hl->v[i];
		char **argv;
		struct errbuf err;
		char *out = NULL;
		int code = 0;

		if (h->role != ROLE_INITIATOR)
			continue;
		n++;
		argv = fio_server_ssh_argv(h, start);
		errbuf_init(&err);
		if (dry_run) {
			print_argv(argv);
		} else if (proc_run_capture(argv, 30000, &out, &code, &err) < 0 || code != 0) {
			cli_warn("%s: ssh %s failed (exit %d)%s%s", h->name, start ? "start" : "stop", code,
				 err.msg[0] ? ": " : "", err.msg);
			if (!failed++)
				snprintf(first, sizeof(first), "%s", h->name);
		} else {
			printf("%-12s %s\n", h->name, start ? "started" : "stopped");
		}
		free(out);
		fio_argv_free(argv);
	}
	if (failed)
		return cli_error(EXIT_HOST, "%zu of %zu hosts failed to %s their fio server (first: %s)", failed, n,
				 start ? "start" : "stop", first);
	return EXIT_OK;
}

int cmd_hosts(int argc, char **argv)
{
	int argi = 0;
	struct fio_hosts_check_opts o = { 0, 0, 1, 0, NULL, 1 };
	struct fio_hosts_consent_opts co = { 0, NULL, 0 };
	char **targets = NULL;
	const char *file = NULL, *verb;
	struct host_list hl;
	struct errbuf err;
	int c, dry_run = 0, code;
	long v;

	argi = 0;
	while ((c = opt_getopt("hosts", OPT_HOSTS, argc, argv, &argi)) != -1) {
		switch (c) {
		case 'h':
			free(targets);
			return usage();
		case OK_HOSTS:
			file = optarg;
			break;
		case OK_ALLOW_PARTIAL:
			o.allow_partial = 1;
			break;
		case OK_DESTRUCTIVE:
			o.destructive = 1;
			break;
		case OK_NO_TARGETS:
			o.check_targets = 0;
			break;
		case OK_TIMEOUT:
			if (opt_duration_ms("hosts", "--timeout", optarg, 600, &v) != 0) {
				free(targets);
				return EXIT_USAGE;
			}
			o.timeout_ms = (int)v;
			break;
		case OK_DRY_RUN:
			dry_run = 1;
			break;
		case OK_OVERWRITE_FILES:
			co.overwrite_files = 1;
			break;
		case OK_TARGET:
			targets = xrealloc(targets, (co.ntargets + 1) * sizeof(*targets));
			targets[co.ntargets++] = optarg;
			co.targets = targets;
			break;
		default:
			free(targets);
			return EXIT_USAGE;
		}
	}
	code = -1;
	if (!(verb = cli_verb("hosts", argc, argv, "check, start or stop")))
		code = EXIT_USAGE;
	else if (optind + 1 != argc)
		code = cli_usage("hosts", "unexpected argument '%s'", argv[optind + 1]);
	else if (strcmp(verb, "check") && strcmp(verb, "start") && strcmp(verb, "stop"))
		code = cli_usage("hosts", "unknown action '%s' (check, start or stop)", verb);
	else if (!file)
		code = cli_usage("hosts", "--hosts FILE is required");
	host_list_init(&hl);
	errbuf_init(&err);
	if (code < 0 && hostsfile_read(file, &hl, &err) < 0)
		code = cli_fail(&err);
	if (code >= 0) {
		free(targets);
		return code;
	}
	if (!strcmp(verb, "check")) {
		struct fio_host_status *st = xcalloc(hl.n, sizeof(*st));
		struct strbuf rep;

		strbuf_init(&rep);
		code = fio_hosts_check_consent(&hl, &o, &co, st, &rep, &err) < 0 ? -1 : EXIT_OK;
		fputs(rep.buf, stdout);
		fflush(stdout);
		if (code < 0)
			code = cli_fail(&err);
		fio_host_status_release(st, hl.n);
		free(st);
		strbuf_release(&rep);
	} else {
		code = ssh_all(&hl, !strcmp(verb, "start"), dry_run);
	}
	host_list_release(&hl);
	free(targets);
	return code;
}
