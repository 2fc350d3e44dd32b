/*
 * push: the libcurl client of `bench export --push` (push.h). One easy handle per request; the answer body
 * is kept (up to PUSH_MAX_BODY bytes) only to quote its first line in an error. libcurl is initialised
 * once, through the node_exporter collector's init (collectors/node_exporter.h), so the process has one
 * curl_global_init.
 */
#include "export/push.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "collectors/node_exporter.h"
#include "core/strbuf.h"

#define PUSH_MAX_BODY 4096

char *push_url(const char *base, enum push_server to, const char *influx_db, const char *job)
{
	struct strbuf sb;
	size_t n = strlen(base);

	while (n > 0 && base[n - 1] == '/')
		n--;
	strbuf_init(&sb);
	strbuf_add(&sb, base, n);
	if (to == PUSH_INFLUXDB && !strstr(base, "/write")) {
		char *db = curl_easy_escape(NULL, influx_db ? influx_db : "bench", 0);
		strbuf_addf(&sb, "/write?db=%s&precision=ns", db ? db : "bench");
		curl_free(db);
	} else if (to == PUSH_INFLUXDB && !strstr(base, "precision=")) {
		strbuf_addf(&sb, "%cprecision=ns", strchr(base, '?') ? '&' : '?');
	} else if (to == PUSH_PUSHGATEWAY && !strstr(base, "/metrics/")) {
		strbuf_addf(&sb, "/metrics/job/%s", job ? job : "bench");
	} else {
		strbuf_reset(&sb);
		strbuf_adds(&sb, base);
	}
	return strbuf_detach(&sb, NULL);
}

long push_worst_case_ms(const struct push_opts *o)
{
	long total = 0, wait = o->backoff_ms;

	for (int i = 0; i <= o->retries; i++) {
		total += o->timeout_ms;
		if (i < o->retries) {
			total += wait;
			wait *= 2;
		}
	}
	return total;
}

static size_t on_body(char *data, size_t size, size_t nmemb, void *userdata)
{
	struct strbuf *body = userdata;
	size_t n = size * nmemb;

	if (body->len < PUSH_MAX_BODY)
		strbuf_add(body, data, n < PUSH_MAX_BODY - body->len ? n : PUSH_MAX_BODY - body->len);
	return n;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) != 0)
		;
}

/* The first line of the answer, printable, at most 200 bytes. */
static void first_line(const struct strbuf *body, char *out, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < body->len && n + 1 < len && n < 200; i++) {
		char c = body->buf[i];
		if (c == '\n' || c == '\r')
			break;
		out[n++] = (c >= 0x20 && c < 0x7f) ? c : '?';
	}
	out[n] = '\0';
}

/*
 * One attempt. Returns 0 (2xx), 1 (worth retrying: transport error, 5xx, 429) or -1 (final: 4xx, bad URL),
 * with err set on 1 and -1.
 */
static int attempt(CURL *h, const char *method, const char *url, struct curl_slist *hdr, const char *body,
		   size_t len, const struct push_opts *o, struct errbuf *err)
{
	char curl_err[CURL_ERROR_SIZE] = "";
	struct strbuf answer;
	char line[256];
	long status = 0;
	CURLcode rc;
	int ret;

	strbuf_init(&answer);
	curl_easy_reset(h);
	if (curl_easy_setopt(h, CURLOPT_URL, url) != CURLE_OK ||
	    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https") != CURLE_OK ||
	    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L) != CURLE_OK ||
	    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, o->connect_timeout_ms) != CURLE_OK ||
	    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, o->timeout_ms) != CURLE_OK ||
	    curl_easy_setopt(h, CURLOPT_ERRORBUFFER, curl_err) != CURLE_OK ||
	    curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, method) != CURLE_OK ||
	    curl_easy_setopt(h, CURLOPT_POSTFIELDS, body) != CURLE_OK ||
	    curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len) != CURLE_OK ||
	    curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdr) != CURLE_OK ||
	    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body) != CURLE_OK ||
	    curl_easy_setopt(h, CURLOPT_WRITEDATA, &answer) != CURLE_OK ||
	    curl_easy_setopt(h, CURLOPT_USERAGENT, "bench/" BENCH_VERSION_STRING) != CURLE_OK) {
		ret = -1;
		err_set(err, ERR_USAGE, "%s %s: unsupported URL or HTTP option", method, url);
		goto out;
	}
	rc = curl_easy_perform(h);
	if (rc != CURLE_OK) {
		ret = rc == CURLE_URL_MALFORMAT || rc == CURLE_UNSUPPORTED_PROTOCOL ? -1 : 1;
		err_set(err, ret < 0 ? ERR_USAGE : ERR_HOST, "%s %s: %s", method, url,
			curl_err[0] ? curl_err : curl_easy_strerror(rc));
		goto out;
	}
	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
	if (status >= 200 && status < 300) {
		ret = 0;
		goto out;
	}
	first_line(&answer, line, sizeof(line));
	ret = status >= 500 || status == 429 ? 1 : -1;
	err_set(err, ERR_HOST, "%s %s: HTTP %ld%s%s", method, url, status, line[0] ? ": " : "", line);
out:
	strbuf_release(&answer);
	return ret;
}

int push_request(const char *method, const char *url, const char *content_type, const char *body, size_t len,
		 const struct push_opts *o, struct errbuf *err)
{
	struct curl_slist *hdr = NULL;
	char *ct;
	CURL *h;
	long wait = o->backoff_ms;
	int rc = -1, tries = 0;

	if (node_exporter_global_init(err) < 0)
		return -1;
	h = curl_easy_init();
	if (!h)
		return err_set(err, ERR_HOST, "cannot create an HTTP handle");
	ct = xasprintf("Content-Type: %s", content_type);
	hdr = curl_slist_append(hdr, ct);
	hdr = curl_slist_append(hdr, "Expect:"); /* no 100-continue round trip */
	for (;;) {
		tries++;
		rc = attempt(h, method, url, hdr, body, len, o, err);
		if (rc <= 0 || tries > o->retries)
			break;
		sleep_ms(wait);
		wait *= 2;
	}
	if (rc > 0)
		err_prefix(err, "gave up after %d attempt%s", tries, tries == 1 ? "" : "s");
	curl_slist_free_all(hdr);
	free(ct);
	curl_easy_cleanup(h);
	return rc == 0 ? 0 : -1;
}

int push_influx(const char *url, const char *text, size_t len, size_t batch, const struct push_opts *o,
		size_t *written, struct errbuf *err)
{
	size_t pos = 0;

	*written = 0;
	while (pos < len) {
		size_t end = pos, lines = 0;

		while (end < len && lines < batch) {
			const char *nl = memchr(text + end, '\n', len - end);
			end = nl ? (size_t)(nl - text) + 1 : len;
			lines++;
		}
		if (push_request("POST", url, "text/plain; charset=utf-8", text + pos, end - pos, o, err) < 0)
			return -1;
		*written += lines;
		pos = end;
	}
	return 0;
}
