/*
 * cmd_profiles: `bench profiles list` names the built-in suites (profiles/library/NAME.suite) with their run
 * counts and wall times; `bench profiles show NAME` prints one suite's description, its runs (full and --quick
 * estimate) and, with -v, the suite file itself.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/cli.h"
#include "bench/options.h"
#include "bench/cmd_plan.h"
#include "bench/commands.h"
#include "core/strbuf.h"

static void usage(void)
{
	printf("usage: bench profiles list\n"
	       "       bench profiles show NAME [-v]\n\n"
	       "The built-in suites: ready-made workload lists (HCIbench easy run, published comparisons) that\n"
	       "`bench plan NAME` and `bench run NAME` accept, each with a --quick form for trying it out.\n\n"
	       "  list          each suite's name, number of runs, wall time (full and --quick) and description\n"
	       "  show NAME     a suite's description, labels and runs (the table `bench plan NAME` prints)\n\n");
	opt_help(stdout, OPT_PROFILES);
	printf("\nThe suites are files in %s (BENCH_LIBRARY overrides the directory);\n"
	       "their format is described in docs/suite-format.md.\n",
	       profile_library_dir());
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Suite names in the library, sorted; NULL-terminated. */
static char **library_names(size_t *n)
{
	DIR *d = opendir(profile_library_dir());
	struct dirent *e;
	char **v = NULL;
	size_t cnt = 0;

	if (!d) {
		*n = 0;
		return NULL;
	}
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		if (l > 6 && !strcmp(e->d_name + l - 6, ".suite")) {
			v = xrealloc(v, (cnt + 2) * sizeof(*v));
			v[cnt++] = xstrndup(e->d_name, l - 6);
			v[cnt] = NULL;
		}
	}
	closedir(d);
	if (cnt)
		qsort(v, cnt, sizeof(*v), cmp_str);
	*n = cnt;
	return v;
}

static void fmt_time(char *buf, size_t len, double s)
{
	unsigned long t = (unsigned long)(s + 0.5);
	snprintf(buf, len, "%lu:%02lu:%02lu", t / 3600, t / 60 % 60, t % 60);
}

static int build(const char *name, int quick, struct plan *p, struct errbuf *err)
{
	struct plan_options o;
	struct config_list configs;
	const char *args[1] = { name };
	int rc;

	plan_options_init(&o);
	config_list_init(&configs);
	o.quick = quick;
	/* one read of the suite: its runs and its [config] sections; every workload runs on every configuration */
	rc = plan_build_configs(args, 1, &o, p, &configs, err);
	if (rc == 0)
		rc = config_plan_cross(p, &configs, 0, err);
	config_list_release(&configs);
	plan_options_release(&o);
	return rc;
}

static const char *description_of(const char *name, struct strbuf *out)
{
	char *path = xasprintf("%s/%s.suite", profile_library_dir(), name);
	struct strbuf sb;
	const char *p;

	strbuf_init(&sb);
	strbuf_reset(out);
	if (strbuf_read_file(&sb, path) == 0) {
		for (p = sb.buf; *p;) {
			const char *e = strchr(p, '\n');
			size_t l = e ? (size_t)(e - p) : strlen(p);
			const char *q = p;
			while (q < p + l && (*q == ' ' || *q == '\t'))
				q++;
			if (!strncmp(q, "description", 11)) {
				const char *eq = memchr(q, '=', (size_t)(p + l - q));
				if (eq) {
					eq++;
					while (*eq == ' ')
						eq++;
					strbuf_add(out, eq, (size_t)(p + l - eq));
				}
				break;
			}
			if (!e)
				break;
			p = e + 1;
		}
	}
	strbuf_release(&sb);
	free(path);
	return out->buf;
}

static int do_list(void)
{
	size_t n;
	char **names = library_names(&n);
	struct strbuf desc;
	int rc = EXIT_OK;

	strbuf_init(&desc);
	if (!n) {
		free(names);
		return cli_error(EXIT_INPUT, "no built-in suites in %s", profile_library_dir());
	}
	printf("%-22s %5s %9s %9s  %s\n", "suite", "runs", "full", "--quick", "description");
	for (size_t i = 0; i < n; i++) {
		struct plan full, quick;
		struct errbuf err;
		char t1[32], t2[32];

		plan_init(&full);
		plan_init(&quick);
		errbuf_init(&err);
		if (build(names[i], 0, &full, &err) < 0 || build(names[i], 1, &quick, &err) < 0) {
			rc = cli_fail(&err);
		} else {
			fmt_time(t1, sizeof(t1), plan_estimate_s(&full));
			fmt_time(t2, sizeof(t2), plan_estimate_s(&quick));
			printf("%-22s %5zu %9s %9s  %s\n", names[i], full.n, t1, t2, description_of(names[i], &desc));
		}
		plan_release(&full);
		plan_release(&quick);
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	strbuf_release(&desc);
	return rc;
}

static int do_show(const char *name, int verbose)
{
	struct plan full, quick;
	struct errbuf err;
	struct strbuf desc;
	char *path = xasprintf("%s/%s.suite", profile_library_dir(), name);
	int rc = EXIT_OK;
	char t[32];

	plan_init(&full);
	plan_init(&quick);
	errbuf_init(&err);
	strbuf_init(&desc);
	if (strchr(name, '/') || !*name) {
		rc = cli_error(EXIT_INPUT, "'%s' is not a built-in suite name (see 'bench profiles list')", name);
		goto out;
	}
	{
		FILE *f = fopen(path, "r");
		if (!f) {
			rc = cli_error(EXIT_INPUT, "no built-in suite '%s' (see 'bench profiles list')", name);
			goto out;
		}
		fclose(f);
	}
	if (build(name, 0, &full, &err) < 0 || build(name, 1, &quick, &err) < 0) {
		rc = cli_fail(&err);
		goto out;
	}
	printf("suite:       %s\nfile:        %s\ndescription: %s\n", name, path, description_of(name, &desc));
	if (full.labels.n) {
		printf("labels:     ");
		for (size_t i = 0; i < full.labels.n; i++)
			printf(" %s=%s", full.labels.v[i].key, full.labels.v[i].value ? full.labels.v[i].value : "");
		printf("\n");
	}
	fmt_time(t, sizeof(t), plan_estimate_s(&quick));
	printf("--quick:     %zu runs, estimated wall time %s\n\n", quick.n, t);
	plan_print_text(stdout, &full, 0);
	if (verbose) {
		struct strbuf sb;
		strbuf_init(&sb);
		if (strbuf_read_file(&sb, path) == 0)
			printf("\n--- %s\n%s", path, sb.buf);
		strbuf_release(&sb);
	}
out:
	free(path);
	strbuf_release(&desc);
	plan_release(&full);
	plan_release(&quick);
	return rc;
}

int cmd_profiles(int argc, char **argv)
{
	int verbose = 0;
	const char *sub = NULL, *name = NULL;

	int argi = 0, c;

	while ((c = opt_getopt("profiles", OPT_PROFILES, argc, argv, &argi)) != -1) {
		if (c == 'h') {
			usage();
			return EXIT_OK;
		}
		if (c != 'v')
			return EXIT_USAGE;
		verbose = 1;
	}
	for (int i = optind; i < argc; i++) {
		if (!sub)
			sub = argv[i];
		else if (!name)
			name = argv[i];
		else
			return cli_usage("profiles", "too many arguments ('%s')", argv[i]);
	}
	if (!sub || !strcmp(sub, "list")) {
		if (name)
			return cli_usage("profiles", "'list' takes no argument");
		return do_list();
	}
	if (!strcmp(sub, "show")) {
		if (!name)
			return cli_usage("profiles", "'show' needs a suite name (see 'bench profiles list')");
		return do_show(name, verbose);
	}
	return cli_usage("profiles", "unknown subcommand '%s' (list or show)", sub);
}
