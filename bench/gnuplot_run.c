/*
 * gnuplot_run: gnuplot on the scripts of a chart set, CHARTS_PER_CALL per process; when a process fails its
 * scripts are run one by one to find the chart that cannot be drawn (see gnuplot_run.h).
 */
#include "bench/gnuplot_run.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/cli.h"
#include "core/proc.h"
#include "core/strbuf.h"

#define CHARTS_PER_CALL 16 /* scripts per gnuplot process: its start-up costs more than a chart */

/*
 * One gnuplot process, in `dir`, on scripts[0..n): 0 when it exited 0, 1 when it did not (what it wrote on
 * stderr in *msg), -1 with err (ERR_HOST) when gnuplot is missing or did not finish within 120 s.
 */
static int gnuplot_process(const char *dir, const char *const *scripts, size_t n, struct strbuf *msg, struct errbuf *err)
{
	const char **argv = xcalloc(n + 2, sizeof(*argv));
	char *errpath = xasprintf("%s/gnuplot.err", dir);
	struct proc p;
	int ret = 0;

	argv[0] = "gnuplot";
	for (size_t i = 0; i < n; i++)
		argv[i + 1] = scripts[i];
	memset(&p, 0, sizeof(p));
	if (proc_start(&p, (char **)argv, dir, NULL, errpath, err) < 0) {
		if (strstr(err->msg, strerror(ENOENT)))
			err_set(err, ERR_HOST, "gnuplot is not installed or not in PATH; charts need it "
					       "(apt-get install gnuplot-nox)");
		ret = -1;
	} else if (!proc_wait(&p, 120000)) {
		proc_stop(&p, 1000);
		ret = err_set(err, ERR_HOST, "gnuplot did not finish within 120 s (charts in %s)", dir);
	} else if (proc_exit_code(&p) != 0) {
		strbuf_reset(msg);
		strbuf_read_file(msg, errpath);
		ret = 1;
	}
	unlink(errpath);
	free(errpath);
	free(argv);
	return ret;
}


/* One gnuplot process on the scripts of charts v[0..n) (gnuplot_process: 0 ok, 1 failed with *msg, -1 err). */
static int gnuplot_on(const struct chart_set *cs, const struct chart *v, size_t n, struct strbuf *msg,
		      struct errbuf *err)
{
	const char **scripts = xcalloc(n ? n : 1, sizeof(*scripts));
	int ret;

	for (size_t i = 0; i < n; i++)
		scripts[i] = v[i].script;
	ret = gnuplot_process(cs->dir, scripts, n, msg, err);
	free(scripts);
	return ret;
}

/* The last line of what gnuplot said: it says what went wrong. */
static const char *last_line(struct strbuf *msg)
{
	while (msg->len && (msg->buf[msg->len - 1] == '\n' || msg->buf[msg->len - 1] == ' '))
		msg->buf[--msg->len] = '\0';
	return strrchr(msg->buf, '\n') ? strrchr(msg->buf, '\n') + 1 : msg->buf;
}

/*
 * Charts [first, first + *n) after their process failed: each run alone; one that still fails is left out
 * with a warning (*n counts down). 0, or -1 with err.
 */
static int leave_out_failed(struct chart_set *cs, size_t first, size_t *n, struct strbuf *msg, struct errbuf *err)
{
	for (size_t i = first; i < first + *n;) {
		int one = gnuplot_on(cs, &cs->v[i], 1, msg, err);

		if (one < 0)
			return -1;
		if (one == 0) {
			i++;
			continue;
		}
		cli_warn("chart '%s' could not be drawn, left out: gnuplot: %.200s", cs->v[i].stem, last_line(msg));
		chart_set_drop(cs, i);
		(*n)--;
	}
	return 0;
}

int gnuplot_run(struct chart_set *cs, unsigned flags, struct errbuf *err)
{
	struct strbuf msg;
	int ret = 0;

	strbuf_init(&msg);
	for (size_t first = 0; first < cs->n && ret == 0;) {
		size_t n = cs->n - first < CHARTS_PER_CALL ? cs->n - first : CHARTS_PER_CALL;
		int rc = gnuplot_on(cs, &cs->v[first], n, &msg, err);

		if (rc == 1 && !(flags & GNUPLOT_LEAVE_OUT))
			ret = err_set(err, ERR_HOST, "gnuplot failed in %s: %.400s", cs->dir, msg.buf);
		else if (rc < 0 || (rc == 1 && leave_out_failed(cs, first, &n, &msg, err) < 0))
			ret = -1;
		first += n;
	}
	strbuf_release(&msg);
	return ret;
}
