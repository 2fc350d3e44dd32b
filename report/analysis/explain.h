/*
 * explain: the ceiling model of `bench report --explain` (docs/explain.md has the table and each rule's source).
 * For one stored run it computes, from the run's figures (report/figures.h, through rep_run), its workload and
 * the facts stored with it (the sim engine's model options, fio's rate caps, CPU rows), every ceiling it has the
 * figures for, and from them the verdict: what limited the result, the ceiling of that limit, the measured IOPS
 * as a % of it, and the evidence (the figures and the rule that give the ceiling).
 *
 * The rules, one row each in the table of explain.c (explain_rules):
 *   rate cap         fio rate_iops= / rate= per job x jobs x hosts;
 *   transport        the link's IOPS cap, its bandwidth / block size (sim_link_iops, sim_link_bw; a sim_preset's);
 *   network          the shaped network's rate / 8 / block size (label cfg.net.rate_bps, the lab's tc);
 *   initiator CPU    the CPU baseline's IOPS per host x hosts (the workload on fio's null engine, stored
 *                    as phase=baseline, baseline.kind=cpu); IOPS at 100 % busy from the measured CPU: fio's
 *                    job threads and (a weak rule) the initiators' host CPU rows (neither with an engine that
 *                    busy-waits);
 *   target CPU       IOPS at 100 % busy of the targets' CPU rows;
 *   member devices   members x units / device time, divided by the member operations one IO costs on the
 *                    layout (RAID0 1, RAID1/10 writes 2, RAID5 small writes 4, RAID6 6; reads 1 per chunk);
 *   member baselines the members' own stored IOPS (phase=baseline runs) added, over the same member operations
 *                    (a configuration's own when its suite said `baseline = on`: explain.c pick_baselines);
 *   queue depth      Little's law: iodepth x jobs x hosts / mean latency.
 * A resource (every rule but queue depth) limits a result that reached EXPLAIN_AT_LIMIT_PCT of its ceiling; of
 * several, the lowest ceiling; the weak rule (a host's CPU, which others' load can fill) only when no other
 * resource is at its limit. Without one,
 * queue depth when the result reached that share of Little's law's ceiling (at the modelled service time when
 * the model is stored, else at the measured mean latency, unless that latency is well above the modelled
 * service time); else "unexplained". A limit whose figures are not stored is never named; a run on the null
 * engine (no IO, placeholder figures) is "unexplained" with that as its evidence.
 * Nothing here prints or reads the store.
 */
#ifndef BENCH_REPORT_EXPLAIN_H
#define BENCH_REPORT_EXPLAIN_H

#include <stddef.h>

#include "report/load.h"

/* A result at or above this % of a resource's ceiling is limited by that resource. */
#define EXPLAIN_AT_LIMIT_PCT 90.0
/* Queue depth is not the answer when the mean latency is above this factor of the modelled service time. */
#define EXPLAIN_QUEUED_FACTOR 1.25

enum explain_limit {
	EXPLAIN_RATE_CAP = 0,
	EXPLAIN_TRANSPORT,
	EXPLAIN_INITIATOR_CPU,
	EXPLAIN_TARGET_CPU,
	EXPLAIN_DEVICES,
	EXPLAIN_QUEUE_DEPTH,
	EXPLAIN_UNEXPLAINED,
	EXPLAIN_NR
};

/* The most stored runs a check names as its evidence (baselines). */
#define EXPLAIN_MAX_RUNS 16

/* One rule that had its figures: its ceiling for the run and the evidence. */
struct explain_check {
	enum explain_limit limit;
	double ceiling_iops;   /* IOs per second */
	double pct;            /* measured as % of ceiling_iops */
	int at_limit;          /* the resource is at its limit: pct >= EXPLAIN_AT_LIMIT_PCT */
	int weak;              /* the initiator host's CPU: others' load can fill it, so it is named only when
	                          no other resource is at its limit */
	char evidence[512];    /* "iodepth 1 x 1 job at 1.00 ms mean latency = 1,000 IOPS (Little's law)" */
	int64_t runs[EXPLAIN_MAX_RUNS]; /* the stored runs the ceiling comes from (baselines), by id */
	size_t nruns;
};

struct explain_verdict {
	double measured_iops;  /* the run's IOPS, all directions; NAN: not measured (then no verdict but that) */
	enum explain_limit limit;
	double ceiling_iops;   /* of the limit; NAN for "unexplained" without any ceiling */
	double pct;            /* measured as % of ceiling_iops; NAN as ceiling */
	char evidence[768];    /* the limit's evidence and "measured N = P %", or why nothing explains it */
	struct explain_check checks[EXPLAIN_NR + 4]; /* (three rules for the transport: the sim's link, the shaped
	                                              * network and its baseline; member devices: the sim model and
	                                              * baselines;
	                                              * three for initiator CPU: its baseline, fio's job threads
	                                              * and the host) */
	size_t nchecks;        /* every rule that had its figures, in table order */
};

/* "rate cap", "network/transport", "initiator CPU", "target CPU", "member devices", "queue depth",
 * "unexplained"; and the JSON/CSV key form ("rate_cap", "transport", ...). */
const char *explain_limit_title(enum explain_limit l);
const char *explain_limit_key(enum explain_limit l);

/*
 * The verdict of run r (its figures, workload and stored facts). `baselines` (may be NULL) holds stored runs
 * labelled phase=baseline: those that stand for r (r's workload identity; of r's configuration when the suite
 * measured them, `baseline = on`) with a baseline.member=DEV label are the member devices' own IOPS, and with
 * a layout named by r's labels (raid=, stack= or config= holding raid0, raid1, raid5, raid6, raid10, raidz,
 * raidz2, mirror or stripe) give a member-devices ceiling (one labelled baseline.kind=members, all members at
 * once, caps their sum); one labelled baseline.kind=cpu is the initiator's CPU ceiling (per host, x r's hosts);
 * one labelled baseline.kind=transport (the workload over the same transport to a null export, from as many
 * hosts as r) the network and transport's. `disks` (may be NULL: report/load.h rep_run_disks) are r's disk rows:
 * the member operations r did per IO, which the member-baselines ceiling takes over the layout's rule.
 */
struct cpuview_run;
void explain_run(const struct rep_run *r, const struct rep_set *baselines, const struct cpuview_run *disks,
		 struct explain_verdict *v);

/* The model table for docs and `--explain` headings: rule i's limit, its formula and its source (NULL past
 * the end). */
const char *explain_rule_text(size_t i, enum explain_limit *limit, const char **source);

#endif
