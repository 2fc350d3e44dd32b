/*
 * suite: bench's own suite file (docs/suite-format.md). A small INI format that names what to run ([workload]
 * sections of fio options, [vdbench] sections of vdbench parameters, `profile =` references to job files,
 * parameter files, other suites or HCIbench names), the fio options every workload shares ([options]), a
 * [matrix], durations, the --quick form, repetitions, labels, targets, the measurement method's keys and
 * `baseline = on` (kept as method.baseline; build.c makes it the typed run_method.baseline of every run of the
 * suite: bench/baseline_plan.c reads it).
 * The built-in library (profiles/library/NAME.suite) is written in it.
 */
#include "profiles/suite.h"

#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "core/suggest.h"
#include "core/units.h"
#include "profiles/fio_job.h"
#include "profiles/text.h"

void suite_init(struct suite *s)
{
	memset(s, 0, sizeof(*s));
	kvlist_init(&s->labels);
	kvlist_init(&s->options);
	kvlist_init(&s->matrix);
	kvlist_init(&s->method);
	kvlist_init(&s->gate);
	config_list_init(&s->configs);
}

/* The malloc'd members of a suite and of an item, freed by suite_release. */
static const size_t suite_strs[] = {
	offsetof(struct suite, file),          offsetof(struct suite, name),
	offsetof(struct suite, description),   offsetof(struct suite, engine),
	offsetof(struct suite, ramp),          offsetof(struct suite, runtime),
	offsetof(struct suite, quick_ramp),    offsetof(struct suite, quick_runtime),
	offsetof(struct suite, quick_size),    offsetof(struct suite, options_lines),
	offsetof(struct suite, targets),
};
static const size_t item_strs[] = {
	offsetof(struct suite_item, name), offsetof(struct suite_item, opt_line),
	offsetof(struct suite_item, text), offsetof(struct suite_item, file),
};

void suite_release(struct suite *s)
{
	if (!s)
		return;
	free_members(s, suite_strs, sizeof(suite_strs) / sizeof(suite_strs[0]));
	kvlist_release(&s->labels);
	kvlist_release(&s->options);
	kvlist_release(&s->matrix);
	kvlist_release(&s->method);
	kvlist_release(&s->gate);
	for (size_t i = 0; i < s->nitems; i++) {
		kvlist_release(&s->items[i].opts);
		kvlist_release(&s->items[i].labels);
	}
	array_free_members(s->items, s->nitems, sizeof(*s->items), item_strs,
			   sizeof(item_strs) / sizeof(item_strs[0]));
	config_list_release(&s->configs);
	suite_init(s);
}

/* Cuts a trailing comment: '#' or ';' at the start or after a blank. */
static void cut_comment(char *p)
{
	for (char *c = p; *c; c++) {
		if ((*c == '#' || *c == ';') && (c == p || isspace((unsigned char)c[-1]))) {
			*c = '\0';
			return;
		}
	}
}

enum sect { S_NONE, S_SUITE, S_OPTIONS, S_MATRIX, S_WORKLOAD, S_VDBENCH, S_CONFIG };

static struct suite_item *add_item(struct suite *s, enum suite_item_kind kind, const char *name, const char *file,
				   int line)
{
	struct suite_item *it;

	ARRAY_GROW(s->items, s->cap, s->nitems + 1);
	it = &s->items[s->nitems++];
	*it = (struct suite_item){ .kind = kind, .name = name && *name ? xstrdup(name) : NULL };
	kvlist_init(&it->opts);
	kvlist_init(&it->labels);
	it->file = xstrdup(file);
	it->line = line;
	return it;
}

static int check_time(const char *v, const char *key, const char *file, int line, struct errbuf *err)
{
	uint64_t us;
	if (fio_parse_time_us(v, 1000000, &us) < 0)
		return err_set(err, ERR_INPUT, "%s:%d: '%s' is not a duration (e.g. 60, 90s, 2m, 1h), got '%s'", file,
			       line, key, v);
	return 0;
}

/* The measurement method's keys: kept as text with their place; bench/runloop_method.c parses and checks them. */
static int method_key(struct suite *s, const char *key, const char *val, const char *file, int line,
		      struct errbuf *err)
{
	char *k = xasprintf("method.%s", key), *at = xasprintf("method.%s.at", key), *where;
	const char *old = kvlist_get(&s->method, k, NULL);
	int rc = 0;

	where = xasprintf("%s:%d", file, line);
	if (!strcmp(key, "precondition") && strcmp(val, "on") && strcmp(val, "off")) {
		rc = err_set(err, ERR_INPUT, "%s: 'precondition' must be on or off, got '%s'", where, val);
	} else if (!strcmp(key, "until") && old) {
		char *joined = xasprintf("%s;%s", old, val);
		kvlist_set(&s->method, k, joined);
		free(joined);
	} else {
		kvlist_set(&s->method, k, val);
		kvlist_set(&s->method, at, where);
	}
	if (!strcmp(key, "until") && !kvlist_get(&s->method, at, NULL))
		kvlist_set(&s->method, at, where);
	free(where);
	free(k);
	free(at);
	return rc;
}

/* gate.metric, gate.threshold, gate.budget: kept as text with their place; bench gate --run checks them. */
static int gate_key(struct suite *s, const char *key, const char *val, const char *file, int line,
		    struct errbuf *err)
{
	const char *k = key + 5;
	char *at, *where;

	if (strcmp(k, "metric") && strcmp(k, "threshold") && strcmp(k, "budget"))
		return err_set(err, ERR_INPUT, "%s:%d: unknown gate key '%s' (gate.metric, gate.threshold, "
			       "gate.budget)", file, line, key);
	at = xasprintf("%s.at", k);
	where = xasprintf("%s:%d", file, line);
	kvlist_set(&s->gate, k, val);
	kvlist_set(&s->gate, at, where);
	free(at);
	free(where);
	return 0;
}

/* The keys of [suite], for the message of an unknown one (with the closest as "did you mean"). */
static const char *const suite_keys[] = {
	"name", "description", "label", "engine", "repeat", "ramp", "runtime", "quick.ramp", "quick.runtime",
	"quick.size", "targets", "profile", "curve", "sweep", "until", "precondition", "baseline", "gate.metric",
	"gate.threshold", "gate.budget",
};

static int unknown_key(const char *key, const char *file, int line, struct errbuf *err)
{
	size_t n = sizeof(suite_keys) / sizeof(suite_keys[0]);
	const char *near = suggest_closest(key, suite_keys, n);
	struct strbuf all;
	int rc;

	strbuf_init(&all);
	for (size_t i = 0; i < n; i++)
		strbuf_addf(&all, "%s%s", i ? " " : "", suite_keys[i]);
	if (near)
		rc = err_set(err, ERR_INPUT, "%s:%d: unknown suite key '%s': did you mean '%s'? (%s)", file, line, key,
			     near, all.buf);
	else
		rc = err_set(err, ERR_INPUT, "%s:%d: unknown suite key '%s' (%s)", file, line, key, all.buf);
	strbuf_release(&all);
	return rc;
}

static int suite_key(struct suite *s, char *key, char *val, const char *file, int line, struct errbuf *err)
{
	int common;

	if (!val)
		return err_set(err, ERR_INPUT, "%s:%d: '%s' needs a value (key = value)", file, line, key);
	if ((common = profile_common_key(key, val, &s->name, &s->description, &s->labels, file, line, err)) != 0)
		return common < 0 ? -1 : 0;
	if (!strcmp(key, "engine")) {
		free(s->engine);
		s->engine = xstrdup(val);
		s->engine_line = line;
	} else if (!strcmp(key, "repeat")) {
		long n;
		if (parse_long(val, 1, 10000, &n) < 0)
			return err_set(err, ERR_INPUT, "%s:%d: 'repeat' must be a whole number 1..10000, got '%s'", file,
				       line, val);
		s->repeat = (unsigned)n;
	} else if (!strcmp(key, "ramp") || !strcmp(key, "runtime") || !strcmp(key, "quick.ramp") ||
		   !strcmp(key, "quick.runtime")) {
		char **slot = !strcmp(key, "ramp") ? &s->ramp : !strcmp(key, "runtime") ? &s->runtime :
			      !strcmp(key, "quick.ramp") ? &s->quick_ramp : &s->quick_runtime;
		if (check_time(val, key, file, line, err) < 0)
			return -1;
		free(*slot);
		*slot = xstrdup(val);
	} else if (!strcmp(key, "quick.size")) {
		uint64_t b;
		if (fio_parse_size(val, &b) < 0 || !b)
			return err_set(err, ERR_INPUT, "%s:%d: 'quick.size' is not a size (e.g. 256m), got '%s'", file,
				       line, val);
		free(s->quick_size);
		s->quick_size = xstrdup(val);
	} else if (!strcmp(key, "targets")) {
		free(s->targets);
		s->targets = xstrdup(val);
	} else if (!strncmp(key, "targets.", 8)) {
		return err_set(err, ERR_INPUT, "%s:%d: '%s': bench has no host groups; give targets with 'targets =' "
			       "(this host) or target= per host in the hosts file (docs/hosts.md)", file, line, key);
	} else if (!strcmp(key, "profile")) {
		struct suite_item *it = add_item(s, SUITE_PROFILE, NULL, file, line);
		it->text = xstrdup(val);
	} else if (!strcmp(key, "curve") || !strcmp(key, "sweep") || !strcmp(key, "until") ||
		   !strcmp(key, "precondition")) {
		return method_key(s, key, val, file, line, err);
	} else if (!strcmp(key, "baseline")) {
		if (strcmp(val, "on") && strcmp(val, "off"))
			return err_set(err, ERR_INPUT, "%s:%d: 'baseline' must be on or off, got '%s'", file, line, val);
		/* no place kept: the annotation is on every run's engine options, where a line number would make
		 * the runs of two suite files unlike for the gate */
		kvlist_set(&s->method, "method.baseline", val);
	} else if (!strncmp(key, "gate.", 5)) {
		return gate_key(s, key, val, file, line, err);
	} else {
		return unknown_key(key, file, line, err);
	}
	return 0;
}

static int workload_key(struct suite_item *it, char *key, char *val, const char *file, int line, struct errbuf *err)
{
	if (!strncmp(key, "bench.", 6)) {
		const char *k = key + 6;
		if (!strcmp(k, "disks")) {
			long n;
			if (!val || parse_long(val, 1, 100000, &n) < 0)
				return err_set(err, ERR_INPUT, "%s:%d: 'bench.disks' must be a whole number >= 1, got '%s'",
					       file, line, val ? val : "");
			it->disks = (unsigned)n;
		} else if (!strncmp(k, "label.", 6) && k[6] && val) {
			kvlist_set(&it->labels, k + 6, val);
		} else {
			return err_set(err, ERR_INPUT, "%s:%d: unknown bench key '%s' (bench.disks, bench.label.KEY)",
				       file, line, key);
		}
		return 0;
	}
	for (const char *c = key; *c; c++)
		if (!isalnum((unsigned char)*c) && *c != '_' && *c != '-')
			return err_set(err, ERR_INPUT, "%s:%d: '%s' is not a fio option name", file, line, key);
	kvlist_add(&it->opts, fio_option_canonical(key), val);
	it->opt_line = xrealloc(it->opt_line, it->opts.n * sizeof(int));
	it->opt_line[it->opts.n - 1] = line;
	return 0;
}

/* One key = value line of section `cur`. */
static int suite_line(struct suite *s, enum sect cur, struct suite_item *item, char *key, char *val, const char *name,
		      int line, struct errbuf *err)
{
	int r = 0;

	switch (cur) {
	case S_NONE:
		return err_set(err, ERR_INPUT, "%s:%d: '%s' outside of a [section]", name, line, key);
	case S_SUITE:
		r = suite_key(s, key, val, name, line, err);
		break;
	case S_OPTIONS:
		r = 0;
		for (const char *c = key; *c; c++)
			if (!isalnum((unsigned char)*c) && *c != '_' && *c != '-')
				r = err_set(err, ERR_INPUT, "%s:%d: '%s' is not a fio option name", name, line,
					     key);
		if (!r) {
			kvlist_add(&s->options, fio_option_canonical(key), val);
			s->options_lines = xrealloc(s->options_lines, s->options.n * sizeof(int));
			s->options_lines[s->options.n - 1] = line;
		}
		break;
	case S_MATRIX: {
		char **v;
		if (!val || !(v = split_list(val, ',', NULL))) {
			r = err_set(err, ERR_INPUT, "%s:%d: matrix '%s' needs values v1,v2,... without empty items",
				     name, line, key);
			break;
		}
		free_list(v);
		kvlist_set(&s->matrix, key, val);
		r = 0;
		break;
	}
	case S_WORKLOAD:
		r = workload_key(item, key, val, name, line, err);
		break;
	case S_VDBENCH:
		r = 0;
		break;
	case S_CONFIG:
		r = config_key(&s->configs.v[s->configs.n - 1], key, val, name, line, err);
		break;
	}
	return r;
}

/* A section that stands once in a file ([options], [matrix]): records its line in *first_line, or -1 with err
 * when it was seen before. */
static int section_once(int *first_line, const char *sec, const char *name, int line, struct errbuf *err)
{
	if (*first_line) {
		err_set(err, ERR_INPUT, "%s:%d: duplicate section [%s] (first at line %d)", name, line, sec, *first_line);
		return -1;
	}
	*first_line = line;
	return 0;
}

/* One [section NAME] header line `l` (trimmed, starting with '['): sets *cur and *item. */
static int suite_section(struct suite *s, char *l, const char *name, int line, enum sect *cur,
			 struct suite_item **item, struct strbuf *vdb, int *seen_suite, struct errbuf *err)
{
	size_t ll;
	char *hdr, *arg;

	cut_comment(l);
	l = profile_trim(l);
	ll = strlen(l);
	if (ll < 3 || l[ll - 1] != ']') {
		err_set(err, ERR_INPUT, "%s:%d: section header '%s' is not of the form [name]", name, line, l);
		return -1;
	}
	l[ll - 1] = '\0';
	hdr = profile_trim(l + 1);
	arg = hdr + strcspn(hdr, " \t");
	if (*arg)
		*arg++ = '\0';
	arg = profile_trim(arg);
	if (vdb->len && *item)
		(*item)->text = strbuf_detach(vdb, NULL);
	*item = NULL;
	if (!strcmp(hdr, "suite") && !*arg) {
		if ((*seen_suite)++) {
			err_set(err, ERR_INPUT, "%s:%d: duplicate section [suite]", name, line);
			return -1;
		}
		*cur = S_SUITE;
	} else if (!strcmp(hdr, "options") && !*arg) {
		if (section_once(&s->options_line, hdr, name, line, err) < 0)
			return -1;
		*cur = S_OPTIONS;
	} else if (!strcmp(hdr, "matrix") && !*arg) {
		if (section_once(&s->matrix_line, hdr, name, line, err) < 0)
			return -1;
		*cur = S_MATRIX;
	} else if (!strcmp(hdr, "workload") || !strcmp(hdr, "vdbench")) {
		for (size_t i = 0; *arg && i < s->nitems; i++) {
			if (s->items[i].name && !strcmp(s->items[i].name, arg)) {
				err_set(err, ERR_INPUT, "%s:%d: duplicate section [%s %s] (first at line %d)",
					name, line, hdr, arg, s->items[i].line);
				return -1;
			}
		}
		*cur = !strcmp(hdr, "workload") ? S_WORKLOAD : S_VDBENCH;
		*item = add_item(s, *cur == S_WORKLOAD ? SUITE_WORKLOAD : SUITE_VDBENCH, arg, name, line);
	} else if (!strcmp(hdr, "config")) {
		const struct suite_config *dup = config_list_find(&s->configs, arg);
		if (!*arg || dup) {
			if (dup)
				err_set(err, ERR_INPUT, "%s:%d: duplicate section [config %s] (first at line %d)",
					name, line, arg, dup->line);
			else
				err_set(err, ERR_INPUT, "%s:%d: [config NAME] needs a name", name, line);
			return -1;
		}
		config_list_add(&s->configs, arg, name, line);
		*cur = S_CONFIG;
	} else {
		err_set(err, ERR_INPUT,
			"%s:%d: unknown section '[%s]' (suite, options, matrix, workload, vdbench, config)", name,
			line, hdr);
		return -1;
	}
	return 0;
}

/* What a whole suite file must hold, checked once it is read (`line`: its last line). */
static int suite_check(const struct suite *s, int seen_suite, const char *name, int line, struct errbuf *err)
{
	if (!seen_suite && !s->nitems) {
		err_set(err, ERR_INPUT, "%s:%d: empty suite file: no [suite], [workload] or [vdbench] section", name,
			line ? line : 1);
		return -1;
	}
	for (size_t i = 0; i < s->nitems; i++) {
		if (s->items[i].kind == SUITE_VDBENCH && !s->items[i].text) {
			err_set(err, ERR_INPUT, "%s:%d: [vdbench] section without parameter lines", name,
				s->items[i].line);
			return -1;
		}
	}
	for (size_t i = 0; i < s->configs.n; i++) {
		const struct suite_config *c = &s->configs.v[i];
		if (c->nsteps[CONFIG_SETUP] && !c->nsteps[CONFIG_TEARDOWN]) {
			err_set(err, ERR_INPUT, "%s:%d: [config %s] has setup steps but no teardown", name, c->line,
				c->name);
			return -1;
		}
	}
	if (!s->nitems) {
		err_set(err, ERR_INPUT, "%s:%d: the suite names nothing to run (add [workload], [vdbench] or profile =)",
			name, line ? line : 1);
		return -1;
	}
	return 0;
}

int suite_parse_text(const char *text, size_t len, const char *name, struct suite *s, struct errbuf *err)
{
	const char *p = text, *end = text + len;
	enum sect cur = S_NONE;
	struct suite_item *item = NULL;
	struct strbuf vdb;
	int line = 0, rc = -1, seen_suite = 0, r;

	strbuf_init(&vdb);
	free(s->file);
	s->file = xstrdup(name);
	if (memchr(text, '\0', len)) {
		err_set(err, ERR_INPUT, "%s:1: binary data (NUL bytes), not a suite file", name);
		goto out;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char *raw = xstrndup(p, n), *l, *eq, *key, *val;

		line++;
		p = nl ? nl + 1 : end;
		l = profile_trim(raw);
		if (*l == '#' || *l == ';' || !*l) {
			free(raw);
			continue;
		}
		if (*l == '[') {
			r = suite_section(s, l, name, line, &cur, &item, &vdb, &seen_suite, err);
			free(raw);
			if (r < 0)
				goto out;
			continue;
		}
		if (cur == S_VDBENCH) {
			/* kept as written; the vdbench reader gives its own file:line from text_line */
			if (!vdb.len)
				item->text_line = line;
			strbuf_add(&vdb, raw, strlen(raw));
			strbuf_addc(&vdb, '\n');
			free(raw);
			continue;
		}
		cut_comment(l);
		l = profile_trim(l);
		eq = strchr(l, '=');
		val = NULL;
		if (eq) {
			*eq = '\0';
			val = profile_trim(eq + 1);
		}
		key = profile_trim(l);
		if (!*key) {
			err_set(err, ERR_INPUT, "%s:%d: a line without a key", name, line);
			free(raw);
			goto out;
		}
		r = suite_line(s, cur, item, key, val, name, line, err);
		free(raw);
		if (r < 0)
			goto out;
	}
	if (vdb.len && item)
		item->text = strbuf_detach(&vdb, NULL);
	if (suite_check(s, seen_suite, name, line, err) < 0)
		goto out;
	rc = 0;
out:
	strbuf_release(&vdb);
	return rc;
}

int suite_parse_file(const char *path, struct suite *out, struct errbuf *err)
{
	struct strbuf sb;
	int rc;

	strbuf_init(&sb);
	if (profile_read_file(&sb, path, err) < 0)
		return -1;
	rc = suite_parse_text(sb.buf, sb.len, path, out, err);
	strbuf_release(&sb);
	return rc;
}
