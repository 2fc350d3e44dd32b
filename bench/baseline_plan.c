/*
 * baseline_plan: which baseline runs to make (see baseline_plan.h). A configuration's baselines are copies of
 * its workloads, one per distinct workload identity (core/identity.h: block size, pattern, mix, iodepth, jobs,
 * working set ...): before its setup one per raw member device (targets = that member, the configuration's
 * own fio options dropped) and one of all members at once, once built one on fio's null engine (the initiator's
 * CPU ceiling) and, when the configuration gives `baseline.fio`, one on its transport to a null export. Each is short
 * (BASELINE_RUNTIME_S) and keyed by sha256 of the configuration's name, the device identity of its members
 * (device_identity) and the workload identity: a done run stored under that key is reused. The consent rules
 * are the run path's: the members went through bench run's member checks when the suite was planned, and a
 * baseline run's targets are checked and prepared by its engine with the run's --destructive like every run;
 * a member that is mounted, swap or held (never written, whatever the flags) gets no baseline planned at all.
 */
#include "bench/baseline_plan.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "bench/cli.h"
#include "bench/config_record.h"
#include "core/identity.h"
#include "core/sha256.h"
#include "core/store_read.h"
#include "core/strbuf.h"
#include "engines/target.h"

/* Baseline runs of one plan run get seqs of their own past the plan's: plan->n + 1 + i x BASELINE_SLOTS + slot
 * (slot: the member's index; the CPU, members-together and transport baselines have the last three), so a
 * configuration has at most BASELINE_MEMBER_SLOTS members with a baseline (PLAN_MAX_RUNS x BASELINE_SLOTS fits
 * an unsigned). */
#define BASELINE_SLOTS 1000u
#define BASELINE_SLOT_CPU (BASELINE_SLOTS - 1)
#define BASELINE_SLOT_TOGETHER (BASELINE_SLOTS - 2)
#define BASELINE_SLOT_TRANSPORT (BASELINE_SLOTS - 3)
#define BASELINE_MEMBER_SLOTS (BASELINE_SLOTS - 3)

/* The options of a workload that name files: a member baseline opens the member, nothing else. */
static const char *const file_opts[] = { "filename", "directory", "filename_format", "opendir", NULL };

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash && slash[1] ? slash + 1 : path;
}

/* One baseline copy of `src`, labelled phase=baseline and baseline.kind. */
static struct run_spec *baseline_copy(struct plan *out, const struct run_spec *src, const char *kind)
{
	struct run_spec *b = plan_add_copy(out, src);

	kvlist_set(&b->labels, "phase", "baseline");
	kvlist_set(&b->labels, "baseline.kind", kind);
	return b;
}

int baseline_plan_members(const struct plan *in, struct plan *out, struct errbuf *err)
{
	unsigned seq = 0;

	for (size_t i = 0; i < in->n; i++) {
		const struct run_spec *s = &in->runs[i];

		if (s->njobs || !s->ntargets)
			return err_set(err, ERR_USAGE, "run '%s': a baseline runs one job on one member at a time: "
				       "give the members with --target and a workload of one job", s->name);
		for (size_t t = 0; t < s->ntargets; t++) {
			struct run_spec *b = baseline_copy(out, s, "member");

			for (size_t k = 0; k < b->ntargets; k++)
				free(b->targets[k]);
			b->ntargets = 0;
			run_spec_add_target(b, s->targets[t]);
			b->seq = ++seq;
			kvlist_set(&b->labels, "baseline.member", base_name(s->targets[t]));
		}
	}
	return 0;
}

/* ---- what identifies a baseline ---------------------------------------------------------------------- */

/* A /sys attribute of block device `member` (config_sys_attr), appended as " name=value". */
static void sys_attr(struct strbuf *out, const char *member, const char *attr, const char *name)
{
	char *v = config_sys_attr(member, attr);

	if (v && *v)
		strbuf_addf(out, " %s=%s", name, v);
	free(v);
}

/*
 * The identity of a member device as one line: a block device by its size, model, serial, WWID and (a loop
 * device) backing file, as /sys says; a file by its canonical path (bench sizes a file target itself, so its
 * size is no identity: it is the working set's).
 */
static void device_identity(const char *member, struct strbuf *out)
{
	char *real = realpath(member, NULL);
	struct stat st;

	strbuf_addf(out, "member %s:", real ? real : member);
	if (stat(member, &st) == 0 && S_ISBLK(st.st_mode)) {
		strbuf_adds(out, " block");
		sys_attr(out, member, "size", "sectors");
		sys_attr(out, member, "device/model", "model");
		sys_attr(out, member, "device/serial", "serial");
		sys_attr(out, member, "wwid", "wwid");
		sys_attr(out, member, "loop/backing_file", "backing_file");
	} else {
		strbuf_adds(out, " file");
	}
	strbuf_addc(out, '\n');
	free(real);
}

/* sha256 of text, its first 16 hex digits (64 bits: a label, not a secret) into hex. */
static void short_hash(const char *text, char hex[17])
{
	struct sha256 c;
	char full[65];

	sha256_init(&c);
	sha256_update(&c, text, strlen(text));
	sha256_hex(&c, full);
	memcpy(hex, full, 16);
	hex[16] = '\0';
}

/* The initiator's identity for a CPU baseline: this machine's name and the configuration record's host facts. */
static void initiator_identity(const struct kvlist *labels, struct strbuf *out)
{
	static const char *const keys[] = { "cfg.hostname", "cfg.kernel", "cfg.cpu", "cfg.cpus", "cfg.fio" };
	struct utsname u;

	if (uname(&u) == 0)
		strbuf_addf(out, "initiator %s\n", u.nodename);
	for (size_t k = 0; labels && k < sizeof(keys) / sizeof(keys[0]); k++)
		strbuf_addf(out, "%s=%s\n", keys[k], kvlist_get(labels, keys[k], ""));
}

/* ---- what is stored --------------------------------------------------------------------------------- */

struct stored_ctx {
	struct kvlist done; /* baseline.key -> run id (the newest done run) */
};

static int want_baseline(void *ctx, const struct kvlist *labels)
{
	(void)ctx;
	return !strcmp(kvlist_get(labels, "phase", ""), "baseline") && kvlist_get(labels, "baseline.key", NULL);
}

static int take_baseline(void *ctx, struct store_run *r, struct errbuf *err)
{
	struct stored_ctx *sc = ctx;
	const char *key, *old;
	char id[32];

	(void)err;
	if (strcmp(r->status, "done"))
		return 0;
	key = kvlist_get(&r->labels, "baseline.key", "");
	old = kvlist_get(&sc->done, key, NULL);
	if (old && strtoll(old, NULL, 10) > r->id)
		return 0; /* the newest done run of a key stands for it */
	snprintf(id, sizeof(id), "%lld", (long long)r->id);
	kvlist_set(&sc->done, key, id);
	return 0;
}

/* ---- a configuration's baselines ------------------------------------------------------------------- */

/* What one call plans: the configuration, its set hash, the stored keys, the output. */
struct cfg_plan {
	const struct plan *plan;
	const struct suite_config *c;
	struct plan *out;
	struct stored_ctx stored;
	char set[17];            /* label baseline.set: the configuration and the identity of its members (or
	                            initiator): the baselines explain takes together for one of its runs */
	const char *ident;       /* the members' or the initiator's identity text */
	int quiet;               /* -q: no "baseline reused" lines */
};

/* Whether the configuration asked for baselines: its suite said `baseline = on` (core/model.h run_method). */
static int config_wants(const struct plan *plan, size_t first, size_t end)
{
	for (size_t i = first; i < end; i++)
		if (plan->runs[i].method.baseline)
			return 1;
	return 0;
}

/* Whether a run of [first, end) is on fio. */
static int runs_on_fio(const struct plan *plan, size_t first, size_t end)
{
	for (size_t i = first; i < end; i++)
		if (!plan->runs[i].engine || !strcmp(plan->runs[i].engine, "fio"))
			return 1;
	return 0;
}

/* A run the baselines stand for: a measured workload of one job, not a preconditioning phase nor a point of a
 * curve or sweep (a curve's max run is measured unthrottled: it counts). */
static int run_measured(const struct run_spec *s)
{
	return !s->njobs && (s->method.kind == RUN_METHOD_PLAIN || s->method.kind == RUN_METHOD_CURVE_MAX);
}

/* Whether run i is measured and the first of its workload identity (*identity, malloc'd) in [first, i]. */
static int run_eligible(const struct plan *plan, size_t first, size_t i, char **identity)
{
	*identity = NULL;
	if (!run_measured(&plan->runs[i]))
		return 0;
	*identity = run_spec_identity(&plan->runs[i]);
	for (size_t j = first; j < i; j++) {
		char *other;
		int same;

		if (!run_measured(&plan->runs[j]))
			continue;
		other = run_spec_identity(&plan->runs[j]);
		same = !strcmp(other, *identity);
		free(other);
		if (same) {
			free(*identity);
			*identity = NULL;
			return 0;
		}
	}
	return 1;
}

/* Reused (said) or planned: the run of `key`, what it measures in `what`. Returns 1 when planned. */
static int reuse_or_plan(struct cfg_plan *cp, const char *key, const char *what)
{
	const char *id = kvlist_get(&cp->stored.done, key, NULL);

	if (!id)
		return 1;
	if (!cp->quiet)
		fprintf(stderr, "configuration '%s': baseline reused (run %s): %s\n", cli_safe(cp->c->name), id, cli_safe(what));
	return 0;
}

/* The key of one baseline: its kind, the configuration, the members' (initiator's) identity, the workload's. */
static void baseline_key(const struct cfg_plan *cp, const char *kind, const char *member, const char *identity,
			 char key[17])
{
	char *text = xasprintf("bench baseline 1\n%s\nconfig %s\n%s%s\nworkload %s\n", kind, cp->c->name, cp->ident,
			       member ? member : "", identity);

	short_hash(text, key);
	free(text);
}

/* A configuration's baseline copy: short, once, no method annotation (curve, sweep, baseline: it is none of
 * them), labelled with its key and set. */
static void baseline_finish(struct run_spec *b, const struct cfg_plan *cp, const char *key, size_t i, size_t slot)
{
	size_t k = 0;

	while (k < b->engine_opts.n)
		if (!strncmp(b->engine_opts.v[k].key, "method.", 7))
			kvlist_del(&b->engine_opts, b->engine_opts.v[k].key);
		else
			k++;
	run_method_clear_kind(&b->method); /* a plain run of its configuration, whatever method the original had */
	b->repetition = 1;
	if (!b->wl.runtime_s || b->wl.runtime_s > BASELINE_RUNTIME_S)
		b->wl.runtime_s = BASELINE_RUNTIME_S;
	if (b->wl.ramp_s > BASELINE_RAMP_S)
		b->wl.ramp_s = BASELINE_RAMP_S;
	/* a seq of its own, past the plan's and unique per run and slot: the store keeps a (seq, repetition) row
	 * per suite, and a baseline must never be taken for an attempt of a workload run */
	b->seq = (unsigned)(cp->plan->n + 1 + i * BASELINE_SLOTS + slot);
	kvlist_set(&b->labels, "baseline.key", key);
	kvlist_set(&b->labels, "baseline.set", cp->set);
	kvlist_set(&b->labels, "config", cp->c->name);
}

/* A copy of run s named `name` (malloc'd, taken over) on `targets` (n of them) as they are: the configuration's
 * own fio options (the built stack's transport) and every option that names files dropped, so the targets are
 * what fio opens, on fio. */
static struct run_spec *raw_copy(struct cfg_plan *cp, const struct run_spec *s, const char *kind, char *name,
				 char *const *targets, size_t n)
{
	struct run_spec *b = baseline_copy(cp->out, s, kind);

	for (size_t k = 0; k < b->ntargets; k++)
		free(b->targets[k]);
	b->ntargets = 0;
	for (size_t t = 0; t < n; t++)
		run_spec_add_target(b, targets[t]);
	for (size_t k = 0; k < cp->c->fio_opts.n; k++)
		kvlist_del(&b->engine_opts, cp->c->fio_opts.v[k].key);
	for (size_t k = 0; file_opts[k]; k++) {
		kvlist_del(&b->engine_opts, file_opts[k]);
		kvlist_del(&b->wl.opts, file_opts[k]);
	}
	free(b->engine);
	b->engine = xstrdup("fio");
	free(b->name);
	b->name = name;
	return b;
}

/* Member baselines of run i (its identity given) on every member alone; with two members or more, one more of
 * all of them at once (baseline.kind=members: one job per member, what they reach together when they share
 * this host's CPU, bus and backing store). */
static void plan_members_of(struct cfg_plan *cp, size_t i, const char *identity, char **member_ids)
{
	const struct run_spec *s = &cp->plan->runs[i];
	char key[17], *what;
	struct run_spec *b;

	for (size_t m = 0; m < cp->c->nmembers && m < BASELINE_MEMBER_SLOTS; m++) {
		const char *member = cp->c->members[m];

		what = xasprintf("member '%s', workload '%s'", base_name(member), s->name);
		baseline_key(cp, "member", member_ids[m], identity, key);
		if (reuse_or_plan(cp, key, what)) {
			b = raw_copy(cp, s, "member", xasprintf("baseline-%s-%s", base_name(member), s->name),
				     &cp->c->members[m], 1);
			kvlist_set(&b->labels, "baseline.member", base_name(member));
			baseline_finish(b, cp, key, i, m);
		}
		free(what);
	}
	if (cp->c->nmembers < 2 || cp->c->nmembers > BASELINE_MEMBER_SLOTS)
		return;
	what = xasprintf("the %zu members together, workload '%s'", cp->c->nmembers, s->name);
	baseline_key(cp, "members", NULL, identity, key);
	if (reuse_or_plan(cp, key, what)) {
		char n[24];

		b = raw_copy(cp, s, "members", xasprintf("baseline-members-%s", s->name), cp->c->members,
			     cp->c->nmembers);
		snprintf(n, sizeof(n), "%zu", cp->c->nmembers);
		kvlist_set(&b->labels, "baseline.members", n);
		baseline_finish(b, cp, key, i, BASELINE_SLOT_TOGETHER);
	}
	free(what);
}

/* The transport baseline of run i: the workload as the configuration runs it, with `baseline.fio` over its fio
 * options (a null export on the same transport, e.g. nbdkit's null plugin beside the stack's export): what the
 * initiators, the network and the transport reach when nothing below the transport costs anything. */
static void plan_transport_of(struct cfg_plan *cp, size_t i, const char *identity)
{
	const struct run_spec *s = &cp->plan->runs[i];
	struct strbuf opts;
	char key[17], *what = xasprintf("transport, workload '%s'", s->name);
	struct run_spec *b;

	strbuf_init(&opts);
	for (size_t k = 0; k < cp->c->baseline_fio.n; k++)
		strbuf_addf(&opts, "%s=%s\n", cp->c->baseline_fio.v[k].key, cp->c->baseline_fio.v[k].value);
	baseline_key(cp, "transport", opts.buf ? opts.buf : "", identity, key);
	if (reuse_or_plan(cp, key, what)) {
		b = baseline_copy(cp->out, s, "transport");
		for (size_t k = 0; k < cp->c->baseline_fio.n; k++)
			kvlist_set(&b->engine_opts, cp->c->baseline_fio.v[k].key, cp->c->baseline_fio.v[k].value);
		free(b->name);
		b->name = xasprintf("baseline-transport-%s", s->name);
		baseline_finish(b, cp, key, i, BASELINE_SLOT_TRANSPORT);
	}
	strbuf_release(&opts);
	free(what);
}

/* The initiator CPU baseline of run i: the workload on fio's null engine (no device, no transport). */
static void plan_cpu_of(struct cfg_plan *cp, size_t i, const char *identity)
{
	const struct run_spec *s = &cp->plan->runs[i];
	char key[17], *what = xasprintf("initiator CPU, workload '%s'", s->name);
	struct run_spec *b;

	baseline_key(cp, "cpu", NULL, identity, key);
	if (reuse_or_plan(cp, key, what)) {
		b = baseline_copy(cp->out, s, "cpu");
		kvlist_release(&b->engine_opts);
		kvlist_init(&b->engine_opts);
		kvlist_set(&b->engine_opts, "ioengine", "null"); /* after the workload's own: fio takes the last */
		if (!b->wl.size || strchr(b->wl.size, '%')) { /* no target to take a share of; no IO to cost more */
			free(b->wl.size);
			b->wl.size = xstrdup(BASELINE_CPU_SIZE);
		}
		free(b->engine);
		b->engine = xstrdup("fio");
		free(b->name);
		b->name = xasprintf("baseline-cpu-%s", s->name);
		baseline_finish(b, cp, key, i, BASELINE_SLOT_CPU);
	}
	free(what);
}

/* The members' identities (malloc'd lines) and the set text; -1 with err when a member is never writable. */
static int members_identity(const struct suite_config *c, char **ids, struct strbuf *all, struct errbuf *err)
{
	for (size_t m = 0; m < c->nmembers; m++) {
		struct strbuf one;
		struct errbuf e2;

		errbuf_init(&e2);
		/* mounted, swap or held: never written, whatever the flags (engines/target.h); the rest of the consent
		 * rules are the run path's (its engine checks with the run's --destructive) */
		if (target_check(c->members[m], TARGET_DESTRUCTIVE, &e2) < 0)
			return err_set(err, ERR_INPUT, "member %s: %s: no member baseline is planned", c->members[m],
				       e2.msg);
		strbuf_init(&one);
		device_identity(c->members[m], &one);
		strbuf_adds(all, one.buf);
		ids[m] = strbuf_detach(&one, NULL);
	}
	return 0;
}

int baseline_plan_config(struct store *st, const struct plan *plan, const struct suite_config *c, size_t first,
			 size_t end, int built, int quiet, const struct host_list *hosts, const struct kvlist *labels,
			 const char *record, struct plan *out, struct errbuf *err)
{
	struct cfg_plan cp = { plan, c, out, { { 0 } }, "", NULL, quiet };
	char **ids = NULL, *settext = NULL;
	struct strbuf ident;
	int rc = -1;

	(void)record; /* the record's host facts come as labels; its text holds nothing the key needs */
	if (!config_wants(plan, first, end) || (!built && !c->nmembers))
		return 0;
	if (!built && !runs_on_fio(plan, first, end))
		return 0; /* a member baseline is a fio run: none for a configuration whose runs are on another engine */
	if (!built && c->host && strcmp(c->host, "local")) /* its members are that host's devices */
		return err_set(err, ERR_INPUT, "its members are on host '%s': member baselines are measured on this "
			       "host only ('bench baseline' on that host measures them)", c->host);
	if (!built && hosts && hosts->n) /* the load runs on the hosts; a member baseline would run here */
		return err_set(err, ERR_INPUT, "the workloads run on the hosts of --hosts: member baselines are measured "
			       "on this host only (run 'bench baseline' where the members are)");
	strbuf_init(&ident);
	kvlist_init(&cp.stored.done);
	ids = xcalloc(c->nmembers + 1, sizeof(*ids));
	if (!built && members_identity(c, ids, &ident, err) < 0)
		goto out;
	if (built)
		initiator_identity(labels, &ident);
	cp.ident = ident.buf ? ident.buf : "";
	settext = xasprintf("%s\nconfig %s\n%s", built ? "cpu" : "member", c->name, cp.ident);
	short_hash(settext, cp.set);
	if (st && store_read_runs_each(st, want_baseline, take_baseline, &cp.stored, err) < 0)
		goto out;
	for (size_t i = first; i < end; i++) {
		const char *engine = plan->runs[i].engine ? plan->runs[i].engine : "fio";
		char *identity;

		if ((!built && strcmp(engine, "fio")) || !run_eligible(plan, first, i, &identity))
			continue;
		if (built) {
			plan_cpu_of(&cp, i, identity);
			if (c->baseline_fio.n)
				plan_transport_of(&cp, i, identity);
		} else
			plan_members_of(&cp, i, identity, ids);
		free(identity);
	}
	rc = 0;
out:
	for (size_t m = 0; m < c->nmembers; m++)
		free(ids[m]);
	free(ids);
	free(settext);
	strbuf_release(&ident);
	kvlist_release(&cp.stored.done);
	return rc;
}
