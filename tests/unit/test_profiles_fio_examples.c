/*
 * test_profiles_fio_examples: acceptance 1 of issue 3. For every .fio file of Debian's fio-examples package
 * (/usr/share/doc/fio/examples; FIO_EXAMPLES overrides), each job's resolved options as bench's reader
 * (profiles/fio_job.c) expands them must equal what `fio --showcmd FILE` resolves for that job (globals applied,
 * order aside), or bench must stop with one line naming file:line and why.
 *
 * --showcmd prints one "--name=JOB" per job section followed by that section's own options; a [global] section
 * prints only its options (so a global's name= looks like a job start). The output is therefore cut into
 * sections along bench's own section list (names and option counts); any disagreement in names, counts or
 * values shows up as a mismatch. fio runs once for all files, restarted after each file it cannot resolve. Files fio itself cannot resolve here
 * (an ioengine that is not built into Debian's fio, a bad option for this build) are counted apart, with fio's
 * reason. The summary line goes to stdout (the figures in the issue note come from it).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/kv.h"
#include "core/proc.h"
#include "core/strbuf.h"
#include "engines/fio_hosts.h"
#include "profiles/fio_job.h"

static const char *examples_dir(void)
{
	const char *e = getenv("FIO_EXAMPLES");
	return e && *e ? e : "/usr/share/doc/fio/examples";
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "key=value" / "key" strings of a kvlist, sorted. */
static char **flat_sorted(const struct kvlist *l)
{
	char **v = xcalloc(l->n + 1, sizeof(*v));
	for (size_t i = 0; i < l->n; i++)
		v[i] = l->v[i].value ? xasprintf("%s=%s", l->v[i].key, l->v[i].value) : xstrdup(l->v[i].key);
	qsort(v, l->n, sizeof(*v), cmp_str);
	return v;
}

static void free_flat(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/*
 * Whether "--" + s starts an option in showcmd output: a name, then '=', or a flag followed by the next
 * " --" or the end ("--interval 5" inside an exec arguments= value is not one).
 */
static int option_starts(const char *s)
{
	const char *p = s;

	while (*p && (*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
		p++;
	if (p == s)
		return 0;
	if (*p == '=')
		return 1;
	while (*p == ' ')
		p++;
	return !*p || *p == '\n' || (p[0] == '-' && p[1] == '-');
}

/*
 * Splits "fio --a=b --c --d=\"e --f g\"" into option tokens "a=b", "c", "d=e --f g". fio's showcmd puts double
 * quotes around some values that hold blanks (description=); a " --" inside them, or one that does not start an
 * option (see option_starts), is part of the value; the quotes are removed. *TOK ends with NULL (fio_argv_free).
 */
static size_t showcmd_tokens(const char *out, char ***tok)
{
	const char *p = strstr(out, "fio ");
	char **v = NULL;
	size_t n = 0;

	if (!p)
		return 0;
	p += 4;
	while ((p = strstr(p, "--"))) {
		const char *q = p + 2;
		struct strbuf sb;
		int quoted = 0;

		strbuf_init(&sb);
		while (*q && *q != '\n') {
			if (*q == '"') {
				quoted = !quoted;
				q++;
				continue;
			}
			if (!quoted && q[0] == ' ' && q[1] == '-' && q[2] == '-' && option_starts(q + 3))
				break;
			strbuf_addc(&sb, *q++);
		}
		while (sb.len && sb.buf[sb.len - 1] == ' ')
			sb.buf[--sb.len] = '\0';
		v = xrealloc(v, (n + 2) * sizeof(*v));
		v[n++] = strbuf_detach(&sb, NULL);
		v[n] = NULL;
		p = q;
	}
	*tok = v;
	return n;
}

/* Runs argv, stdout (and stderr when merge) into *out; returns 0 or -1. */
static int run_fio(char *const argv[], int merge, char **out, int *code)
{
	char tmpl[] = "/tmp/bench-fioex-XXXXXX";
	struct errbuf err;
	struct strbuf sb;
	struct proc p;
	int fd = mkstemp(tmpl);

	errbuf_init(&err);
	if (fd < 0)
		return -1;
	close(fd);
	if (proc_start(&p, argv, NULL, tmpl, merge ? tmpl : NULL, &err) < 0) {
		unlink(tmpl);
		return -1;
	}
	if (!proc_wait(&p, 60000)) {
		proc_stop(&p, 1000);
		unlink(tmpl);
		return -1;
	}
	*code = proc_exit_code(&p);
	strbuf_init(&sb);
	strbuf_read_file(&sb, tmpl);
	unlink(tmpl);
	*out = strbuf_detach(&sb, NULL);
	return 0;
}

/* The lines of fio's output that start with "fio " (one per job file). */
static size_t fio_lines(const char *out, char ***lines)
{
	char **v = NULL;
	size_t n = 0;

	for (const char *p = out; p && *p;) {
		const char *e = strchr(p, '\n');
		size_t l = e ? (size_t)(e - p) : strlen(p);
		if (l >= 4 && !strncmp(p, "fio ", 4)) {
			v = xrealloc(v, (n + 1) * sizeof(*v));
			v[n++] = xstrndup(p, l);
		}
		p = e ? e + 1 : NULL;
	}
	*lines = v;
	return n;
}

/*
 * fio --showcmd for every file, as few fio processes as possible (each costs ~0.25 s): one process for the
 * remaining files; when fio stops at a file it cannot resolve, the lines before belong to the files before,
 * that file is run alone for fio's message, and the rest continue in a new process. show[i] is the file's
 * "fio ..." line, or NULL with why[i] holding fio's complaint.
 */
static void showcmd_all(char **files, size_t n, char **show, char **why)
{
	size_t i = 0;

	while (i < n) {
		char **argv = xcalloc(n - i + 3, sizeof(*argv));
		char *out = NULL, **lines = NULL;
		size_t nl, k;
		int code = -1;

		argv[0] = "fio";
		argv[1] = "--showcmd";
		for (size_t j = i; j < n; j++)
			argv[2 + j - i] = files[j];
		if (run_fio(argv, 0, &out, &code) < 0)
			code = -1;
		free(argv);
		nl = fio_lines(out, &lines);
		if (code == 0 && nl == n - i) {
			for (size_t j = 0; j < nl; j++)
				show[i + j] = lines[j];
			free(lines);
			free(out);
			return;
		}
		/* fio stopped (or printed an unexpected number of lines): the complete lines are the files before */
		k = code == 0 ? 0 : nl ? nl - 1 : 0;
		for (size_t j = 0; j < nl; j++) {
			if (j < k)
				show[i + j] = lines[j];
			else
				free(lines[j]);
		}
		free(lines);
		free(out);
		i += k;
		{
			char *one[] = { "fio", "--showcmd", files[i], NULL };
			char **l1 = NULL;
			out = NULL;
			if (run_fio(one, 1, &out, &code) < 0) {
				why[i] = xstrdup("fio did not finish");
			} else if (code == 0 && fio_lines(out, &l1) == 1) {
				show[i] = l1[0];
			} else {
				why[i] = xasprintf("fio exit %d: %.160s", code, out ? out : "");
				for (char *c = why[i]; *c; c++)
					if (*c == '\n')
						*c = ' ';
			}
			free(l1);
			free(out);
		}
		i++;
	}
}

/* Compares one file; returns 0 match, 1 mismatch (why in `why`), 2 fio cannot resolve it, 3 bench refused. */
static int check_file(const char *path, const char *out, const char *fio_why, char *why, size_t wlen)
{
	struct fio_jobfile jf;
	struct errbuf err;
	char **tok = NULL;
	size_t ntok = 0, t = 0;
	int rc = 0, bench_rc;
	struct kvlist globals;

	errbuf_init(&err);
	fio_jobfile_init(&jf);
	kvlist_init(&globals);
	bench_rc = fio_jobfile_parse(path, NULL, &jf, &err);
	if (bench_rc < 0) {
		/* bench stopped: the message must be one line naming the file and a line number */
		const char *colon = strstr(err.msg, path);
		snprintf(why, wlen, "%.1000s", err.msg);
		if (!colon || colon[strlen(path)] != ':' || strchr(err.msg, '\n'))
			rc = 1;
		else
			rc = 3;
		goto out;
	}
	if (!out) {
		snprintf(why, wlen, "%s", fio_why ? fio_why : "fio printed nothing");
		rc = 2;
		goto out;
	}
	ntok = showcmd_tokens(out, &tok);
	for (size_t s = 0; s < jf.n && rc == 0; s++) {
		const struct fio_section *sec = &jf.v[s];
		struct kvlist fio_own;

		kvlist_init(&fio_own);
		if (!sec->is_global) {
			char *want = xasprintf("name=%s", sec->name);
			if (t >= ntok || strcmp(tok[t], want)) {
				snprintf(why, wlen, "job [%s]: fio printed '%s' where its --name was expected", sec->name,
					 t < ntok ? tok[t] : "(end)");
				rc = 1;
			}
			free(want);
			t++;
		}
		for (size_t k = 0; k < sec->opts.n && rc == 0; k++, t++) {
			char *eq;
			if (t >= ntok) {
				snprintf(why, wlen, "[%s]: fio printed fewer options than bench read", sec->name);
				rc = 1;
				break;
			}
			eq = strchr(tok[t], '=');
			if (eq) {
				char *key = xstrndup(tok[t], (size_t)(eq - tok[t]));
				kvlist_add(&fio_own, key, eq + 1);
				free(key);
			} else {
				kvlist_add(&fio_own, tok[t], NULL);
			}
		}
		if (rc == 0 && !sec->is_global) {
			/* the job's resolved options on both sides: globals so far, then its own */
			struct kvlist fio_res, bench_res;
			char **a, **b;
			kvlist_init(&fio_res);
			kvlist_init(&bench_res);
			kvlist_copy(&fio_res, &globals);
			kvlist_copy(&fio_res, &fio_own);
			fio_jobfile_resolve(&jf, s, &bench_res);
			a = flat_sorted(&fio_res);
			b = flat_sorted(&bench_res);
			if (fio_res.n != bench_res.n) {
				snprintf(why, wlen, "job [%s]: fio resolves %zu options, bench %zu", sec->name, fio_res.n,
					 bench_res.n);
				rc = 1;
			}
			for (size_t k = 0; rc == 0 && k < fio_res.n; k++) {
				if (strcmp(a[k], b[k])) {
					snprintf(why, wlen, "job [%s]: fio '%s' vs bench '%s'", sec->name, a[k], b[k]);
					rc = 1;
				}
			}
			free_flat(a, fio_res.n);
			free_flat(b, bench_res.n);
			kvlist_release(&fio_res);
			kvlist_release(&bench_res);
		}
		if (sec->is_global)
			kvlist_copy(&globals, &fio_own);
		kvlist_release(&fio_own);
	}
	if (rc == 0 && t != ntok) {
		snprintf(why, wlen, "fio printed %zu more options than bench read (next: '%s')", ntok - t, tok[t]);
		rc = 1;
	}
out:
	fio_jobfile_release(&jf);
	kvlist_release(&globals);
	fio_argv_free(tok);
	return rc;
}

static void test_every_example(void **state)
{
	DIR *d = opendir(examples_dir());
	struct dirent *e;
	char **files = NULL, **show, **fio_why;
	size_t matched_vars = 0;
	size_t n = 0, matched = 0, mismatched = 0, fio_cannot = 0, refused = 0;

	(void)state;
	if (!d) {
		print_message("skipped: %s not found (apt-get install fio-examples)\n", examples_dir());
		skip();
		return;
	}
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		if (l > 4 && !strcmp(e->d_name + l - 4, ".fio")) {
			files = xrealloc(files, (n + 1) * sizeof(*files));
			files[n++] = xasprintf("%s/%s", examples_dir(), e->d_name);
		}
	}
	closedir(d);
	qsort(files, n, sizeof(*files), cmp_str);
	assert_true(n > 0);
	show = xcalloc(n, sizeof(*show));
	fio_why = xcalloc(n, sizeof(*fio_why));
	showcmd_all(files, n, show, fio_why);
	for (size_t i = 0; i < n; i++) {
		char why[2048] = "";
		int r = check_file(files[i], show[i], fio_why[i], why, sizeof(why));
		free(show[i]);
		free(fio_why[i]);
		if (r == 3 && strstr(why, "variable '${")) {
			/* bench refuses an unset ${VAR}; fio would read it as empty. Set each such variable in the
			 * environment (both read it) and compare again: ${VAR} expansion must agree with fio's. */
			char *names[16];
			size_t nn = 0;
			int r2 = 3;
			char why2[2048] = "";
			snprintf(why2, sizeof(why2), "%s", why);
			while (r2 == 3 && nn < 16 && strstr(why2, "variable '${")) {
				const char *a = strstr(why2, "variable '${") + 12;
				const char *b = strchr(a, '}');
				char *val;
				if (!b)
					break;
				names[nn] = xstrndup(a, (size_t)(b - a));
				val = xasprintf("bench-test-%s", names[nn]);
				setenv(names[nn], val, 1);
				free(val);
				nn++;
				{
					char *one[] = { "fio", "--showcmd", files[i], NULL };
					char *o = NULL, **l1 = NULL;
					int code = -1;
					why2[0] = '\0';
					if (run_fio(one, 1, &o, &code) == 0 && code == 0 && fio_lines(o, &l1) == 1) {
						r2 = check_file(files[i], l1[0], NULL, why2, sizeof(why2));
						free(l1[0]);
					} else {
						snprintf(why2, sizeof(why2), "fio exit %d with the variables set", code);
						r2 = 2;
					}
					free(l1);
					free(o);
				}
			}
			for (size_t k = 0; k < nn; k++) {
				unsetenv(names[k]);
				free(names[k]);
			}
			if (r2 == 0) {
				matched_vars++;
				printf("matched with %zu variable(s) set: %s\n", nn, files[i]);
			} else if (r2 == 1) {
				mismatched++;
				printf("MISMATCH with variables set %s: %s\n", files[i], why2);
			}
		}
		switch (r) {
		case 0: matched++; break;
		case 2: fio_cannot++; printf("fio cannot resolve %s: %s\n", files[i], why); break;
		case 3: refused++; printf("bench stops: %s\n", why); break;
		default: mismatched++; printf("MISMATCH %s: %s\n", files[i], why); break;
		}
		free(files[i]);
	}
	free(files);
	free(show);
	free(fio_why);
	printf("fio examples: %zu files, %zu matched fio --showcmd, %zu stopped by bench with file:line (unset "
	       "${VAR}; %zu of them matched once the variables were set), %zu fio itself cannot resolve here, "
	       "%zu mismatched\n",
	       n, matched, refused, matched_vars, fio_cannot, mismatched);
	assert_int_equal(mismatched, 0);
	assert_true(matched > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_example),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
