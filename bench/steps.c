/*
 * steps: running configuration steps locally or over ssh, with timeouts and captured output (see steps.h).
 */
#include "bench/steps.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "core/proc.h"
#include "engines/remote.h"

void step_log_init(struct step_log *l)
{
	memset(l, 0, sizeof(*l));
}

/* The malloc'd strings of a step record. */
static const size_t record_strs[] = {
	offsetof(struct step_record, host),
	offsetof(struct step_record, argv_text),
	offsetof(struct step_record, origin),
	offsetof(struct step_record, started_at),
	offsetof(struct step_record, output),
};

void step_log_release(struct step_log *l)
{
	if (!l)
		return;
	array_free_members(l->v, l->n, sizeof(*l->v), record_strs, sizeof(record_strs) / sizeof(record_strs[0]));
	step_log_init(l);
}

static const struct host *find_host(const struct host_list *hosts, const char *name)
{
	for (size_t i = 0; hosts && i < hosts->n; i++)
		if (!strcmp(hosts->v[i].name, name))
			return &hosts->v[i];
	return NULL;
}

void steps_argv_free(char **argv)
{
	argv_free(argv);
}

char **steps_argv(const struct suite_config *c, const struct config_step *s, const struct host_list *hosts,
		  struct errbuf *err)
{
	const char *hname = s->host ? s->host : c ? c->host : NULL;
	const struct host *h;
	char **v;
	size_t n = 0;

	if (!hname || !strcmp(hname, "local")) {
		v = xcalloc(s->argc + 1, sizeof(*v));
		for (size_t i = 0; i < s->argc; i++)
			v[i] = xstrdup(s->argv[i]);
		return v;
	}
	if (!(h = find_host(hosts, hname))) {
		err_set(err, ERR_INPUT, "%s: step host '%s' is not in the hosts file (--hosts)", s->origin, hname);
		return NULL;
	}
	v = xcalloc(REMOTE_SSH_WORDS + 2, sizeof(*v));
	n = remote_ssh_prefix(h, v);
	/* ssh hands the remote shell one line: each word quoted so that it arrives as the same argv */
	v[n++] = config_argv_text(s->argv);
	return v;
}

static char *utc_now(void)
{
	struct timeval tv;
	struct tm tm;
	char buf[40];

	gettimeofday(&tv, NULL);
	gmtime_r(&tv.tv_sec, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
	return xasprintf("%s.%03ldZ", buf, (long)(tv.tv_usec / 1000));
}

static char *read_capture(const char *path)
{
	struct strbuf sb;

	strbuf_init(&sb);
	if (strbuf_read_file(&sb, path) < 0) {
		strbuf_release(&sb);
		return xstrdup("");
	}
	if (sb.len > STEP_OUTPUT_MAX_BYTES) {
		sb.buf[STEP_OUTPUT_MAX_BYTES] = '\0';
		sb.len = STEP_OUTPUT_MAX_BYTES;
		strbuf_addf(&sb, "\n[output cut at %u bytes]\n", STEP_OUTPUT_MAX_BYTES);
	}
	return strbuf_detach(&sb, NULL);
}

int steps_run_one(const struct suite_config *c, enum config_phase ph, const struct config_step *s,
		  const struct host_list *hosts, const char *workdir, struct step_log *log)
{
	struct step_record *r;
	struct errbuf err;
	struct proc p;
	char **argv, *cap;
	unsigned timeout_s = config_step_timeout_s(c, s);
	long long t0;

	errbuf_init(&err);
	ARRAY_GROW(log->v, log->cap, log->n + 1);
	r = &log->v[log->n++];
	memset(r, 0, sizeof(*r));
	r->phase = ph;
	r->host = xstrdup(s->host ? s->host : c ? c->host : NULL);
	r->argv_text = config_argv_text(s->argv);
	r->origin = xstrdup(s->origin);
	r->started_at = utc_now();
	r->exit_code = -1;
	t0 = mono_ms();
	if (!(argv = steps_argv(c, s, hosts, &err))) {
		r->output = xstrdup(err.msg);
		return -1;
	}
	cap = xasprintf("%s/step-%zu.out", workdir ? workdir : "/tmp", log->n);
	if (proc_start(&p, argv, NULL, cap, cap, &err) < 0) {
		r->output = xstrdup(err.msg);
		goto out;
	}
	if (!proc_wait(&p, (int)(timeout_s * 1000u))) {
		r->timed_out = 1;
		proc_stop(&p, 5000);
	}
	r->exit_code = proc_exit_code(&p);
	r->output = read_capture(cap);
	if (r->timed_out) {
		char *o = xasprintf("%s[stopped: no exit within its timeout of %u s]\n", r->output, timeout_s);
		free(r->output);
		r->output = o;
		if (!r->exit_code)
			r->exit_code = 124;
	} else if (r->exit_code == 127 && !*r->output) {
		free(r->output);
		r->output = xasprintf("cannot run '%s': not found in PATH\n", argv[0]);
	}
out:
	r->duration_ms = mono_ms() - t0;
	unlink(cap);
	free(cap);
	steps_argv_free(argv);
	return r->exit_code;
}

int steps_run_phase(const struct suite_config *c, enum config_phase ph, const struct host_list *hosts,
		    const char *workdir, const volatile int *stop_flag, struct step_log *log,
		    const struct step_record **failed)
{
	int keep_going = ph == CONFIG_RECORD || ph == CONFIG_TEARDOWN;
	size_t first_fail = (size_t)-1;

	*failed = NULL;
	for (size_t i = 0; i < c->nsteps[ph]; i++) {
		if (!keep_going && stop_flag && *stop_flag)
			break;
		if (steps_run_one(c, ph, &c->steps[ph][i], hosts, workdir, log) != 0) {
			if (first_fail == (size_t)-1)
				first_fail = log->n - 1;
			if (!keep_going)
				break;
		}
	}
	if (first_fail == (size_t)-1)
		return 0;
	*failed = &log->v[first_fail];
	return -1;
}

void step_log_text(const struct step_log *l, size_t from, struct strbuf *out)
{
	for (size_t i = from; i < l->n; i++) {
		const struct step_record *r = &l->v[i];
		const char *o = r->output ? r->output : "";

		strbuf_addf(out, "[%s] %s%s$ %s\n", config_phase_name(r->phase), r->host ? r->host : "",
			    r->host ? " " : "", r->argv_text);
		strbuf_addf(out, "  started %s, exit %d%s after %.3f s\n", r->started_at, r->exit_code,
			    r->timed_out ? " (timed out)" : "", (double)r->duration_ms / 1000.0);
		while (*o) {
			const char *nl = strchr(o, '\n');
			size_t n = nl ? (size_t)(nl - o) : strlen(o);
			strbuf_adds(out, "  | ");
			strbuf_add(out, o, n);
			strbuf_addc(out, '\n');
			o += n + (nl ? 1 : 0);
		}
	}
}

char *step_failure_text(const struct step_record *r)
{
	const char *o = r->output ? r->output : "";
	size_t n;

	while (*o == '\n')
		o++;
	n = strcspn(o, "\n");
	if (n > 200)
		n = 200;
	return xasprintf("%s step '%s'%s%s %s %d%s%.*s", config_phase_name(r->phase), r->argv_text,
			 r->host ? " on " : "", r->host ? r->host : "", r->timed_out ? "timed out, exit" : "exited",
			 r->exit_code, n ? ": " : "", (int)n, o);
}
