/*
 * spec_json: serialisation of run specs (see spec_json.h).
 */
#include "core/spec_json.h"
#include "core/strbuf.h"

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static cJSON *kv_to_json(const struct kvlist *l)
{
	cJSON *a = cJSON_CreateArray();

	for (size_t i = 0; i < l->n; i++) {
		cJSON *pair = cJSON_CreateArray();
		cJSON_AddItemToArray(pair, cJSON_CreateString(l->v[i].key));
		cJSON_AddItemToArray(pair, l->v[i].value ? cJSON_CreateString(l->v[i].value) : cJSON_CreateNull());
		cJSON_AddItemToArray(a, pair);
	}
	return a;
}

static void add_str(cJSON *o, const char *k, const char *v)
{
	if (v)
		cJSON_AddStringToObject(o, k, v);
}

static char *get_str(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsString(v) ? xstrdup(v->valuestring) : NULL;
}

static double get_num(const cJSON *o, const char *k, double def)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsNumber(v) ? v->valuedouble : def;
}

/* The fields of a workload in the stored JSON, in order, with their JSON kind (read back with the default). */
enum wl_kind { WL_STR, WL_U64, WL_INT, WL_UINT, WL_OPTS };

static const struct wl_field {
	const char *key;
	enum wl_kind kind;
	size_t off;
	double def;
} wl_fields[] = {
#define F(key, kind, def) { #key, kind, offsetof(struct workload, key), def }
	F(tool, WL_STR, 0), F(rw, WL_STR, 0), F(bs_bytes, WL_U64, 0), F(bssplit, WL_STR, 0), F(read_pct, WL_INT, -1),
	F(random_pct, WL_INT, -1), F(iodepth, WL_UINT, 0), F(numjobs, WL_UINT, 0), F(runtime_s, WL_UINT, 0),
	F(ramp_s, WL_UINT, 0), F(size, WL_STR, 0), F(compress_pct, WL_INT, 0), F(dedupe_pct, WL_INT, 0),
	F(opts, WL_OPTS, 0), F(src_file, WL_STR, 0), F(src_line, WL_INT, 0),
#undef F
};

static cJSON *workload_to_json(const struct workload *w)
{
	cJSON *wl = cJSON_CreateObject();

	for (size_t i = 0; i < sizeof(wl_fields) / sizeof(wl_fields[0]); i++) {
		const struct wl_field *f = &wl_fields[i];
		const char *p = (const char *)w + f->off;

		switch (f->kind) {
		case WL_STR: add_str(wl, f->key, *(char *const *)p); break;
		case WL_U64: cJSON_AddNumberToObject(wl, f->key, (double)*(const uint64_t *)p); break;
		case WL_INT: cJSON_AddNumberToObject(wl, f->key, *(const int *)p); break;
		case WL_UINT: cJSON_AddNumberToObject(wl, f->key, *(const unsigned *)p); break;
		case WL_OPTS: cJSON_AddItemToObject(wl, f->key, kv_to_json((const struct kvlist *)p)); break;
		}
	}
	return wl;
}

static cJSON *targets_to_json(char *const *targets, size_t n)
{
	cJSON *t = cJSON_CreateArray();

	for (size_t i = 0; i < n; i++)
		cJSON_AddItemToArray(t, cJSON_CreateString(targets[i]));
	return t;
}

/* ---- the method and configuration (model.h struct run_method) ---------------------------------------- */

int run_method_is_default(const struct run_method *m)
{
	return m->kind == RUN_METHOD_PLAIN && !m->precond_skipped && m->config_index < 0 && !m->config_name &&
	       !m->baseline;
}

cJSON *run_method_to_json(const struct run_method *m)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "kind", run_method_kind_name(m->kind));
	if (m->kind == RUN_METHOD_CURVE_POINT)
		cJSON_AddNumberToObject(o, "curve_pct", m->curve_pct);
	if (m->stopcurve_ms > 0)
		cJSON_AddNumberToObject(o, "stopcurve_ms", m->stopcurve_ms);
	if (m->kind == RUN_METHOD_SWEEP_POINT) {
		cJSON *u;

		add_str(o, "sweep_option", m->sweep_option);
		cJSON_AddNumberToObject(o, "sweep_value", m->sweep_value);
		cJSON_AddNumberToObject(o, "sweep_point", m->sweep_point);
		u = cJSON_AddArrayToObject(o, "until");
		for (size_t k = 0; k < m->nuntil; k++)
			cJSON_AddItemToArray(u, cJSON_CreateString(m->until[k]));
	}
	add_str(o, "precondition_class", m->precond_class);
	if (m->kind == RUN_METHOD_SS_ROUND) {
		cJSON_AddNumberToObject(o, "ss_round", m->ss_round);
		cJSON_AddNumberToObject(o, "max_rounds", m->max_rounds);
		cJSON_AddNumberToObject(o, "round_s", m->round_s);
	}
	add_str(o, "precondition_skipped", m->precond_skipped);
	if (m->config_index >= 0)
		cJSON_AddNumberToObject(o, "config_index", m->config_index);
	add_str(o, "config_name", m->config_name);
	if (m->baseline)
		cJSON_AddBoolToObject(o, "baseline", 1);
	return o;
}

/* What run_method_to_json wrote; absent (specs stored before it existed): plain, no configuration. */
static int run_method_from_json(const cJSON *o, struct run_method *m)
{
	const cJSON *kind = cJSON_GetObjectItemCaseSensitive(o, "kind"), *x;

	if (!o)
		return 0;
	if (!cJSON_IsObject(o) || !cJSON_IsString(kind) || run_method_kind_parse(kind->valuestring, &m->kind) < 0)
		return -1;
	m->curve_pct = get_num(o, "curve_pct", 0);
	m->stopcurve_ms = get_num(o, "stopcurve_ms", 0);
	m->sweep_option = get_str(o, "sweep_option");
	m->sweep_value = get_num(o, "sweep_value", 0);
	m->sweep_point = (unsigned)get_num(o, "sweep_point", 0);
	cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(o, "until")) {
		if (cJSON_IsString(x) && m->nuntil < RUN_METHOD_MAX_UNTIL)
			m->until[m->nuntil++] = xstrdup(x->valuestring);
	}
	m->precond_class = get_str(o, "precondition_class");
	m->ss_round = (unsigned)get_num(o, "ss_round", 0);
	m->max_rounds = (unsigned)get_num(o, "max_rounds", 0);
	m->round_s = (unsigned)get_num(o, "round_s", 0);
	m->precond_skipped = get_str(o, "precondition_skipped");
	m->config_index = (int)get_num(o, "config_index", -1);
	m->config_name = get_str(o, "config_name");
	m->baseline = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "baseline"));
	return 0;
}

char *run_spec_to_json(const struct run_spec *spec)
{
	cJSON *o = cJSON_CreateObject();
	char *text, *copy;

	add_str(o, "name", spec->name);
	cJSON_AddNumberToObject(o, "seq", spec->seq);
	cJSON_AddNumberToObject(o, "repetition", spec->repetition);
	add_str(o, "engine", spec->engine);
	cJSON_AddItemToObject(o, "engine_opts", kv_to_json(&spec->engine_opts));
	cJSON_AddItemToObject(o, "labels", kv_to_json(&spec->labels));
	cJSON_AddItemToObject(o, "targets", targets_to_json(spec->targets, spec->ntargets));
	add_str(o, "started_at", spec->started_at);
	add_str(o, "finished_at", spec->finished_at);
	cJSON_AddItemToObject(o, "workload", workload_to_json(&spec->wl));
	if (!run_method_is_default(&spec->method)) /* a plain run's spec stays as it was before the method was typed */
		cJSON_AddItemToObject(o, "run_method", run_method_to_json(&spec->method));
	if (spec->njobs) {
		/* a run of several jobs fio runs together: each job with its name, workload and targets */
		cJSON *jobs = cJSON_AddArrayToObject(o, "jobs");
		for (size_t j = 0; j < spec->njobs; j++) {
			cJSON *jo = cJSON_CreateObject();
			add_str(jo, "name", spec->jobs[j].name);
			cJSON_AddItemToObject(jo, "targets", targets_to_json(spec->jobs[j].targets, spec->jobs[j].ntargets));
			cJSON_AddItemToObject(jo, "workload", workload_to_json(&spec->jobs[j].wl));
			cJSON_AddItemToArray(jobs, jo);
		}
	}
	text = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	copy = xstrdup(text);
	cJSON_free(text);
	return copy;
}

static int json_to_kv(const cJSON *a, struct kvlist *l)
{
	const cJSON *pair;

	if (!a)
		return 0;
	if (!cJSON_IsArray(a))
		return -1;
	cJSON_ArrayForEach(pair, a) {
		const cJSON *k = cJSON_GetArrayItem(pair, 0), *v = cJSON_GetArrayItem(pair, 1);
		if (!cJSON_IsString(k))
			return -1;
		kvlist_add(l, k->valuestring, cJSON_IsString(v) ? v->valuestring : NULL);
	}
	return 0;
}

static int workload_from_json(const cJSON *wl, struct workload *w)
{
	if (!cJSON_IsObject(wl))
		return -1;
	for (size_t i = 0; i < sizeof(wl_fields) / sizeof(wl_fields[0]); i++) {
		const struct wl_field *f = &wl_fields[i];
		char *p = (char *)w + f->off;

		switch (f->kind) {
		case WL_STR: *(char **)p = get_str(wl, f->key); break;
		case WL_U64: *(uint64_t *)p = (uint64_t)get_num(wl, f->key, f->def); break;
		case WL_INT: *(int *)p = (int)get_num(wl, f->key, f->def); break;
		case WL_UINT: *(unsigned *)p = (unsigned)get_num(wl, f->key, f->def); break;
		case WL_OPTS:
			if (json_to_kv(cJSON_GetObjectItemCaseSensitive(wl, f->key), (struct kvlist *)p) < 0)
				return -1;
			break;
		}
	}
	return 0;
}

/* The jobs of a run of several jobs (absent for one job, and in every spec stored before jobs existed). */
static int jobs_from_json(const cJSON *a, struct run_spec *out)
{
	const cJSON *jo, *x;

	if (!a)
		return 0;
	if (!cJSON_IsArray(a))
		return -1;
	cJSON_ArrayForEach(jo, a) {
		const cJSON *name = cJSON_GetObjectItemCaseSensitive(jo, "name");
		struct job_spec *j;

		if (!cJSON_IsString(name))
			return -1;
		j = run_spec_add_job(out, name->valuestring);
		cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(jo, "targets")) {
			if (cJSON_IsString(x))
				job_spec_add_target(j, x->valuestring);
		}
		if (workload_from_json(cJSON_GetObjectItemCaseSensitive(jo, "workload"), &j->wl) < 0)
			return -1;
	}
	return 0;
}

int run_spec_from_json(const char *text, struct run_spec *out, struct errbuf *err)
{
	cJSON *o = cJSON_ParseWithLengthOpts(text, strlen(text) + 1, NULL, 1);
	const cJSON *t, *x;

	run_spec_init(out);
	if (!cJSON_IsObject(o)) {
		cJSON_Delete(o);
		return err_set(err, ERR_STORE, "stored run spec is not valid JSON");
	}
	out->name = get_str(o, "name");
	out->seq = (unsigned)get_num(o, "seq", 0);
	out->repetition = (unsigned)get_num(o, "repetition", 1);
	out->engine = get_str(o, "engine");
	if (json_to_kv(cJSON_GetObjectItemCaseSensitive(o, "engine_opts"), &out->engine_opts) < 0 ||
	    json_to_kv(cJSON_GetObjectItemCaseSensitive(o, "labels"), &out->labels) < 0)
		goto bad;
	t = cJSON_GetObjectItemCaseSensitive(o, "targets");
	cJSON_ArrayForEach(x, t) {
		if (cJSON_IsString(x))
			run_spec_add_target(out, x->valuestring);
	}
	out->started_at = get_str(o, "started_at"); /* absent in specs stored before: NULL */
	out->finished_at = get_str(o, "finished_at");
	if (workload_from_json(cJSON_GetObjectItemCaseSensitive(o, "workload"), &out->wl) < 0 ||
	    jobs_from_json(cJSON_GetObjectItemCaseSensitive(o, "jobs"), out) < 0 || out->njobs == 1 ||
	    run_method_from_json(cJSON_GetObjectItemCaseSensitive(o, "run_method"), &out->method) < 0)
		goto bad;
	cJSON_Delete(o);
	return 0;
bad:
	cJSON_Delete(o);
	run_spec_release(out);
	return err_set(err, ERR_STORE, "stored run spec has an unexpected shape");
}

/* ---- the load part of a stored spec ------------------------------------------------------------------ */

static const char *json_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

/* The end of a scalar (number, true, false, null): white space, a structural character, '"' or the end. */
static int json_delim(char c)
{
	switch (c) {
	case '\0': case ' ': case '\t': case '\r': case '\n': case ',': case ':': case '{': case '}': case '[': case ']':
	case '"':
		return 1;
	default:
		return 0;
	}
}

/* Past a JSON string at p ('"'); NULL when unterminated. *plain: it has no escape. */
static const char *json_skip_string(const char *p, int *plain)
{
	*plain = 1;
	for (p++; *p && *p != '"'; p++)
		if (*p == '\\') {
			*plain = 0;
			if (!*++p)
				return NULL;
		}
	return *p ? p + 1 : NULL;
}

/* Past one JSON value at p (objects and arrays by bracket depth); NULL when it does not end. */
static const char *json_skip_value(const char *p)
{
	int depth = 0, plain;

	do {
		p = json_ws(p);
		if (*p == '"') {
			if (!(p = json_skip_string(p, &plain)))
				return NULL;
		} else if (*p == '{' || *p == '[') {
			depth++;
			p++;
		} else if (*p == '}' || *p == ']') {
			if (--depth < 0)
				return NULL;
			p++;
		} else if (*p == ',' || *p == ':') {
			if (!depth)
				return NULL;
			p++;
		} else if (*p) {
			while (!json_delim(*p))
				p++;
		} else {
			return NULL;
		}
	} while (depth);
	return p;
}

/* A bookkeeping member of a run (name, seq, repetition, started_at, finished_at) with a plain value. */
static int bookkeeping(const char *key, size_t klen, const char *v, const char *end)
{
	static const char *const names[] = { "\"name\"", "\"seq\"", "\"repetition\"", "\"started_at\"",
					     "\"finished_at\"" };
	int plain = 1;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strlen(names[i]) != klen || strncmp(key, names[i], klen))
			continue;
		char *num_end;

		if (*v == '"')
			return json_skip_string(v, &plain) == end && plain ? 1 : -1;
		if (end - v == 4 && !strncmp(v, "null", 4))
			return 1;
		if (!(*v == '-' || (*v >= '0' && *v <= '9')))
			return -1;
		for (const char *q = v; q < end; q++)
			if (!strchr("0123456789-+.eE", *q))
				return -1;
		strtod(v, &num_end);
		return num_end == end ? 1 : -1;
	}
	return 0;
}

int run_spec_json_load_key(const char *json, struct strbuf *out)
{
	const char *p = json ? json_ws(json) : NULL;
	int plain;

	strbuf_reset(out);
	if (!p || *p != '{')
		return -1;
	p = json_ws(p + 1);
	while (*p != '}') {
		const char *key = p, *v, *end;
		int b;

		if (*p != '"' || !(p = json_skip_string(p, &plain)))
			return -1;
		v = json_ws(p);
		if (*v != ':')
			return -1;
		v = json_ws(v + 1);
		if (!(end = json_skip_value(v)))
			return -1;
		if ((b = bookkeeping(key, (size_t)(p - key), v, end)) < 0)
			return -1;
		if (!b) {
			strbuf_add(out, key, (size_t)(end - key));
			strbuf_addc(out, ',');
		}
		p = json_ws(end);
		if (*p == ',')
			p = json_ws(p + 1);
		else if (*p != '}')
			return -1;
	}
	return *json_ws(p + 1) ? -1 : 0;
}
