/*
 * node_exporter: the collector of remote hosts. One libcurl easy handle per host, kept open between samples
 * (the connection is reused), with a connect timeout, a total timeout, no signals (CURLOPT_NOSIGNAL: it runs in
 * the session's threads), an error buffer and a cap on the answer's size. The answer is parsed as Prometheus
 * text exposition format and mapped onto a collect_snapshot.
 */
#include "collectors/node_exporter.h"

#include <curl/curl.h>
#include <errno.h>
#include <pthread.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/proc.h"
#include "core/strbuf.h"

/* ---- the text format ---- */

const char *prom_label_value(const struct prom_sample *s, const char *name)
{
	for (size_t i = 0; i < s->nlabels; i++)
		if (!strcmp(s->label[i].name, name))
			return s->label[i].value;
	return NULL;
}

static int is_name_start(char c, int colon_ok)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (colon_ok && c == ':');
}

static int is_name_char(char c, int colon_ok)
{
	return is_name_start(c, colon_ok) || (c >= '0' && c <= '9');
}

static char *skip_blank(char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* Cuts the next blank-separated token at p; returns it and advances *pp past it. */
static char *token(char **pp)
{
	char *p = skip_blank(*pp), *start = p;

	while (*p && *p != ' ' && *p != '\t')
		p++;
	if (*p)
		*p++ = '\0';
	*pp = p;
	return start;
}

static int parse_labels(char **pp, struct prom_sample *s, const char *what, struct errbuf *err)
{
	char *p = *pp;   /* just after '{' */

	for (;;) {
		char *name, *w;

		p = skip_blank(p);
		if (*p == '}') {
			p++;
			break;
		}
		if (!is_name_start(*p, 0))
			return err_set(err, ERR_INPUT, "%s:%d: bad label name at '%.20s'", what, s->lineno, p);
		name = p;
		while (is_name_char(*p, 0))
			p++;
		char *name_end = p;
		p = skip_blank(p);
		if (*p != '=')
			return err_set(err, ERR_INPUT, "%s:%d: expected '=' after label name", what, s->lineno);
		*name_end = '\0';
		p = skip_blank(p + 1);
		if (*p != '"')
			return err_set(err, ERR_INPUT, "%s:%d: label value must be quoted", what, s->lineno);
		w = ++p;
		if (s->nlabels == PROM_MAX_LABELS)
			return err_set(err, ERR_INPUT, "%s:%d: more than %d labels", what, s->lineno, PROM_MAX_LABELS);
		s->label[s->nlabels].name = name;
		s->label[s->nlabels].value = w;
		for (;;) {
			if (*p == '\0')
				return err_set(err, ERR_INPUT, "%s:%d: unterminated label value", what, s->lineno);
			if (*p == '"') {
				p++;
				break;
			}
			if (*p == '\\') {
				char e = p[1];
				if (e == 'n')
					*w++ = '\n';
				else if (e == '\\' || e == '"')
					*w++ = e;
				else
					return err_set(err, ERR_INPUT, "%s:%d: bad escape '\\%c' in label value", what,
						       s->lineno, e ? e : ' ');
				p += 2;
				continue;
			}
			*w++ = *p++;
		}
		*w = '\0';
		s->nlabels++;
		p = skip_blank(p);
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p == '}') {
			p++;
			break;
		}
		return err_set(err, ERR_INPUT, "%s:%d: expected ',' or '}' after label value", what, s->lineno);
	}
	*pp = p;
	return 0;
}

static int parse_line(char *line, struct prom_sample *s, const char *what, struct errbuf *err)
{
	char *p = skip_blank(line), *tok, *end;
	char c;

	if (!is_name_start(*p, 1))
		return err_set(err, ERR_INPUT, "%s:%d: expected a metric name at '%.20s'", what, s->lineno, p);
	s->name = p;
	while (is_name_char(*p, 1))
		p++;
	c = *p;
	*p = '\0';
	if (c == '{') {
		p++;
		if (parse_labels(&p, s, what, err) < 0)
			return -1;
	} else if (c == ' ' || c == '\t') {
		p++;
		p = skip_blank(p);
		if (*p == '{') {
			p++;
			if (parse_labels(&p, s, what, err) < 0)
				return -1;
		}
	} else if (c == '\0') {
		return err_set(err, ERR_INPUT, "%s:%d: '%s' has no value", what, s->lineno, s->name);
	} else {
		return err_set(err, ERR_INPUT, "%s:%d: bad character '%c' in metric name", what, s->lineno, c);
	}
	tok = token(&p);
	if (!*tok)
		return err_set(err, ERR_INPUT, "%s:%d: '%s' has no value", what, s->lineno, s->name);
	errno = 0;
	s->value = strtod(tok, &end);
	if (end == tok || *end || (errno == ERANGE && isfinite(s->value) && s->value != 0))
		return err_set(err, ERR_INPUT, "%s:%d: bad value '%.40s' for '%s'", what, s->lineno, tok, s->name);
	tok = token(&p);
	if (*tok) {
		long long ts;
		errno = 0;
		ts = strtoll(tok, &end, 10);
		if (errno || *end || end == tok)
			return err_set(err, ERR_INPUT, "%s:%d: bad timestamp '%.40s'", what, s->lineno, tok);
		s->has_timestamp = 1;
		s->timestamp_ms = ts;
	}
	if (*skip_blank(p))
		return err_set(err, ERR_INPUT, "%s:%d: unexpected text after the value of '%s'", what, s->lineno,
			       s->name);
	return 0;
}

struct prom_ctx {
	const char *what;
	int (*fn)(void *ctx, const struct prom_sample *s, struct errbuf *err);
	void *ctx;
};

static int prom_line(void *ctx, char *line, int lineno, struct errbuf *err)
{
	const struct prom_ctx *c = ctx;
	size_t len = strlen(line);
	struct prom_sample s;
	char *p;

	if (len && line[len - 1] == '\r')
		line[len - 1] = '\0';
	p = skip_blank(line);
	if (*p == '\0' || *p == '#')
		return 0;
	memset(&s, 0, sizeof(s));
	s.lineno = lineno;
	return parse_line(p, &s, c->what, err) < 0 || c->fn(c->ctx, &s, err) < 0 ? -1 : 0;
}

int prom_parse(const char *text, size_t len, const char *what,
	       int (*fn)(void *ctx, const struct prom_sample *s, struct errbuf *err), void *ctx, struct errbuf *err)
{
	struct prom_ctx c = { what, fn, ctx };

	return collect_each_line(text, len, what, prom_line, &c, err);
}

/* ---- node_exporter metrics ---- */

enum disk_metric { DM_READS, DM_WRITES, DM_READ_BYTES, DM_WRITTEN_BYTES, DM_IO_TIME, DM_NR };

static const char *const disk_metric_names[DM_NR] = {
	"node_disk_reads_completed_total", "node_disk_writes_completed_total", "node_disk_read_bytes_total",
	"node_disk_written_bytes_total", "node_disk_io_time_seconds_total",
};

struct ne_ctx {
	struct collect_snapshot *out;
	const char *what;
	size_t ncpu_samples;
};

static int counter_value(const struct prom_sample *s, const char *what, double scale, uint64_t *out,
			 struct errbuf *err)
{
	double v = s->value * scale;

	if (!isfinite(v) || v < 0 || v >= 18446744073709551616.0)
		return err_set(err, ERR_INPUT, "%s:%d: '%s' is not a valid counter value: %g", what, s->lineno, s->name,
			       s->value);
	*out = (uint64_t)(v + 0.5);
	return 0;
}

static int ne_sample(void *ctx, const struct prom_sample *s, struct errbuf *err)
{
	struct ne_ctx *c = ctx;

	if (!strcmp(s->name, "node_cpu_seconds_total")) {
		const char *cpu = prom_label_value(s, "cpu"), *mode = prom_label_value(s, "mode");
		char *end;
		long n;
		int m;

		if (!cpu || !mode)
			return err_set(err, ERR_INPUT, "%s:%d: node_cpu_seconds_total without cpu or mode label", c->what,
				       s->lineno);
		errno = 0;
		n = strtol(cpu, &end, 10);
		if (errno || *end || end == cpu || n < 0 || n > INT_MAX)
			/* the value is decoded: quote it only up to a "\n" escape, the message stays one line */
			return err_set(err, ERR_INPUT, "%s:%d: bad cpu label '%.*s'", c->what, s->lineno,
				       (int)strcspn(cpu, "\n"), cpu);
		m = cpu_mode_parse(mode);
		if (m < 0)
			return 0;   /* a mode bench does not count */
		if (counter_value(s, c->what, 1e6, &collect_snapshot_cpu(c->out, (int)n)->v[m], err) < 0)
			return -1;
		c->ncpu_samples++;
		return 0;
	}
	if (!strcmp(s->name, "node_boot_time_seconds")) {
		if (isfinite(s->value) && s->value > 0)
			c->out->boot_time_s = s->value;
		return 0;
	}
	if (strncmp(s->name, "node_disk_", 10))
		return 0;
	for (int k = 0; k < DM_NR; k++) {
		const char *dev;
		struct disk_counters *d;
		uint64_t v = 0;

		if (strcmp(s->name, disk_metric_names[k]))
			continue;
		dev = prom_label_value(s, "device");
		if (!dev || !*dev)
			return err_set(err, ERR_INPUT, "%s:%d: '%s' without device label", c->what, s->lineno, s->name);
		d = collect_snapshot_disk(c->out, dev);
		switch (k) {
		case DM_READS:
			return counter_value(s, c->what, 1, &d->reads, err);
		case DM_WRITES:
			return counter_value(s, c->what, 1, &d->writes, err);
		case DM_READ_BYTES:
			if (counter_value(s, c->what, 1, &v, err) < 0)
				return -1;
			d->read_sectors = v / 512;
			return 0;
		case DM_WRITTEN_BYTES:
			if (counter_value(s, c->what, 1, &v, err) < 0)
				return -1;
			d->write_sectors = v / 512;
			return 0;
		default:
			return counter_value(s, c->what, 1000, &d->io_ticks_ms, err);
		}
	}
	return 0;
}

int node_exporter_parse(const char *text, size_t len, const char *what, struct collect_snapshot *out,
			struct errbuf *err)
{
	struct ne_ctx c = { .out = out, .what = what };

	out->cpu_unit_s = 1e-6;
	out->kind = COUNTER_RESETTABLE;
	if (prom_parse(text, len, what, ne_sample, &c, err) < 0)
		return -1;
	if (c.ncpu_samples == 0)
		return err_set(err, ERR_HOST, "%s: no node_cpu_seconds_total in the answer", what);
	return 0;
}

char *node_exporter_scrape_url(const char *url)
{
	if (strchr(url, '?'))
		return xstrdup(url);
	return xasprintf("%s?collect%%5B%%5D=cpu&collect%%5B%%5D=diskstats", url);
}

/* ---- HTTP ---- */

struct ne_priv {
	CURL *h;
	char *url;
	char curl_err[CURL_ERROR_SIZE];
	struct strbuf body;
	int too_big;
	const atomic_int *cancel;
};

static size_t on_body(char *data, size_t size, size_t nmemb, void *userdata)
{
	struct ne_priv *p = userdata;
	size_t n = size * nmemb;

	if (p->body.len + n > NODE_EXPORTER_MAX_BYTES) {
		p->too_big = 1;
		return 0;
	}
	strbuf_add(&p->body, data, n);
	return n;
}

static int on_progress(void *userdata, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow)
{
	struct ne_priv *p = userdata;

	(void)dltotal;
	(void)dlnow;
	(void)ultotal;
	(void)ulnow;
	return p->cancel && atomic_load(p->cancel) ? 1 : 0;
}

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;
static CURLcode curl_init_rc;

static void curl_init_once(void)
{
	curl_init_rc = curl_global_init(CURL_GLOBAL_DEFAULT);
}

int node_exporter_global_init(struct errbuf *err)
{
	pthread_once(&curl_once, curl_init_once);
	if (curl_init_rc != CURLE_OK)
		return err_set(err, ERR_HOST, "cannot initialise libcurl: %s", curl_easy_strerror(curl_init_rc));
	return 0;
}

static int ne_open(struct collector *c, struct errbuf *err)
{
	struct ne_priv *p;
	const char *url = c->host ? c->host->exporter_url : NULL;
	unsigned total = c->timeout_ms ? c->timeout_ms : 2000;
	unsigned conn = c->connect_timeout_ms ? c->connect_timeout_ms : total;

	if (!url || !*url)
		return err_set(err, ERR_INPUT, "no exporter URL");
	if (node_exporter_global_init(err) < 0)
		return -1;
	p = xcalloc(1, sizeof(*p));
	strbuf_init(&p->body);
	p->url = node_exporter_scrape_url(url);
	p->cancel = c->cancel;
	c->priv = p;
	p->h = curl_easy_init();
	if (!p->h)
		return err_set(err, ERR_HOST, "'%s': cannot create an HTTP handle", url);
	if (conn > total)
		conn = total;
	if (curl_easy_setopt(p->h, CURLOPT_URL, p->url) != CURLE_OK ||
	    curl_easy_setopt(p->h, CURLOPT_PROTOCOLS_STR, "http,https") != CURLE_OK ||
	    curl_easy_setopt(p->h, CURLOPT_NOSIGNAL, 1L) != CURLE_OK ||
	    curl_easy_setopt(p->h, CURLOPT_CONNECTTIMEOUT_MS, (long)conn) != CURLE_OK ||
	    curl_easy_setopt(p->h, CURLOPT_TIMEOUT_MS, (long)total) != CURLE_OK ||
	    curl_easy_setopt(p->h, CURLOPT_ERRORBUFFER, p->curl_err) != CURLE_OK ||
	    curl_easy_setopt(p->h, CURLOPT_FAILONERROR, 1L) != CURLE_OK ||
	    curl_easy_setopt(p->h, CURLOPT_WRITEFUNCTION, on_body) != CURLE_OK ||
	    curl_easy_setopt(p->h, CURLOPT_WRITEDATA, p) != CURLE_OK ||
	    curl_easy_setopt(p->h, CURLOPT_NOPROGRESS, 0L) != CURLE_OK ||
	    curl_easy_setopt(p->h, CURLOPT_XFERINFOFUNCTION, on_progress) != CURLE_OK ||
	    curl_easy_setopt(p->h, CURLOPT_XFERINFODATA, p) != CURLE_OK ||
	    curl_easy_setopt(p->h, CURLOPT_USERAGENT, "bench/" BENCH_VERSION_STRING) != CURLE_OK)
		return err_set(err, ERR_HOST, "'%s': unsupported URL or HTTP option", url);
	return 0;
}

static int ne_sample_fn(struct collector *c, struct collect_snapshot *out, struct errbuf *err)
{
	struct ne_priv *p = c->priv;
	const char *url = c->host->exporter_url;
	CURLcode rc;
	long long t0;

	if (!p || !p->h)
		return err_set(err, ERR_HOST, "'%s': collector not open", url);
	strbuf_reset(&p->body);
	p->too_big = 0;
	p->curl_err[0] = '\0';
	t0 = mono_ms();
	rc = curl_easy_perform(p->h);
	/* node_exporter reads the counters while it answers: the middle of the exchange is the best estimate. */
	out->t_ms = t0 + (mono_ms() - t0) / 2;
	if (rc != CURLE_OK) {
		if (p->too_big)
			return err_set(err, ERR_HOST, "'%s': answer larger than %u bytes", url, NODE_EXPORTER_MAX_BYTES);
		return err_set(err, ERR_HOST, "'%s': %s", url,
			       p->curl_err[0] ? p->curl_err : curl_easy_strerror(rc));
	}
	if (node_exporter_parse(p->body.buf, p->body.len, url, out, err) < 0)
		return -1;
	return 0;
}

static void ne_close(struct collector *c)
{
	struct ne_priv *p = c->priv;

	if (!p)
		return;
	if (p->h)
		curl_easy_cleanup(p->h);
	strbuf_release(&p->body);
	free(p->url);
	free(p);
	c->priv = NULL;
}

const struct collector_ops collector_node_exporter = {
	.name = "node_exporter",
	.version = COLLECTOR_OPS_VERSION,
	.open = ne_open,
	.sample = ne_sample_fn,
	.close = ne_close,
};
