/*
 * options: the one option table of `bench plan` and `bench run`, its parser, its help and the step both
 * commands share from arguments to a checked plan (options.h). A row says everything about an option; the
 * parser knows no option by name.
 */
#include "bench/options.h"

#include <ctype.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "bench/cli.h"
#include "core/hostsfile.h"
#include "core/paths.h"
#include "core/suggest.h"
#include "core/strbuf.h"
#include "core/units.h"
#include "engines/engine.h"
#include "engines/fio_check.h"
#include "engines/target.h"

#define HELP_COLUMN 26

/* The handlers of the table (an opt_handler each, defined below it). */
typedef int opt_fn(struct run_args *a, const struct bench_option *o, const char *v);
static opt_fn opt_flag, opt_text, opt_target, opt_matrix, opt_repeat, opt_label, opt_engine_opt, opt_hosts, opt_grace,
	opt_format, opt_db, opt_method, opt_rounds;

#define F(member) offsetof(struct run_args, member)
#define OPT_FLAG(member) opt_flag, F(member)
#define OPT_TEXT(member) opt_text, F(member)
#define OPT_CALL(fn) fn, 0
#define OPT_ID(key) NULL, 0 /* a row of the commands that switch on its key */
#define V (OPT_VALUE)
#define VS (OPT_VALUE | OPT_SUITE)
#define S (OPT_SUITE)
#define VSM (OPT_VALUE | OPT_SUITE | OPT_METHOD)
#define SM (OPT_SUITE | OPT_METHOD)

/* In the order --help lists them: first what changes the plan (both commands), then each command's own. */
const struct bench_option bench_options[] = {
	{ "target", OK_TARGET, OPT_ANYRUN | OPT_HOSTS, VS, OPT_CALL(opt_target), "PATH",
	  "file or block device to run against (repeatable: several targets, one job each);\n"
	  "a file is created and filled by bench; default: the profile's targets, else\n"
	  "bench-target.dat in the work directory" },
	{ "quick", 0, OPT_ANYRUN, S, OPT_FLAG(plan.quick), NULL,
	  "shrink warm-up (ramp), runtime and working set to try a suite in minutes\n"
	  "(built-in suites: 2 s ramp, 10 s run, 256 MiB per target)" },
	{ "runtime", 0, OPT_ANYRUN, VS, OPT_TEXT(plan.runtime), "DURATION",
	  "every run's measured time (fio runtime=, time_based), after --quick; the run\n"
	  "keeps its name, its identity says what ran (a gate against full-length runs is\n"
	  "INVALID naming runtime), e.g. --runtime 60s" },
	{ "ramp", 0, OPT_ANYRUN, VS, OPT_TEXT(plan.ramp), "DURATION", "every run's warm-up before measuring (fio ramp_time=)" },
	{ "size", OK_SIZE, OPT_ANYRUN | OPT_LAB, VS, OPT_TEXT(plan.size), "SIZE", "every run's working set per target (fio size=), e.g. 1g; lab: each server's target\n"
	  "file (default 32m)" },
	{ "iodepth", 0, OPT_ANYRUN, VS, OPT_TEXT(plan.iodepth), "N", "every run's queue depth per job (fio iodepth=)" },
	{ "numjobs", 0, OPT_ANYRUN, VS, OPT_TEXT(plan.numjobs), "N", "every run's jobs per target (fio numjobs=)" },
	{ "matrix", 0, OPT_ANYRUN, VS, OPT_CALL(opt_matrix), "KEY=V1,V2",
	  "cross every workload with these values (repeatable; first --matrix outermost):\n"
	  "bs, rdpct, randpct, iodepth (or threads), numjobs, or any fio option" },
	{ "repeat", 0, OPT_ANYRUN, VS, OPT_CALL(opt_repeat), "N",
	  "run the whole list N times (repetition outermost; repetitions for 'bench gate')" },
	{ "each-job", 0, OPT_ANYRUN, S, OPT_FLAG(plan.each_job), NULL,
	  "a fio job file: one run per job section, one after another (default: the jobs\n"
	  "between two stonewalls run together, as fio runs them, as one run of several jobs)" },
	{ "interleave", 0, OPT_ANYRUN, S, OPT_FLAG(interleave), NULL,
	  "with two or more profiles and --repeat: alternate them in blocks (A B, B A, ...)\n"
	  "so that drift cancels; each run gets the label profile=<argument>" },
	{ "engine", 0, OPT_ANYRUN, VS, OPT_TEXT(plan.engine), "NAME",
	  "load generator for every run: fio (default), sim (modelled target, docs/sim.md), null" },
	{ "engine-opt", 0, OPT_ANYRUN, VS, OPT_CALL(opt_engine_opt), "KEY=VALUE",
	  "an option for the engine, added to every run's fio job (repeatable), e.g.\n"
	  "--engine sim --engine-opt sim_preset=nvmeof-rdma" },
	{ "hosts", OK_HOSTS, OPT_ANYRUN | OPT_HOSTS, VS, OPT_CALL(opt_hosts), "FILE",
	  "run on the fio servers of a hosts file (see docs/hosts.md); hosts: the file to check,\n"
	  "start or stop (required)" },
	{ "label", OK_LABEL, OPT_ANYRUN | OPT_IMPORT, VS, OPT_CALL(opt_label), "KEY=VALUE",
	  "label the suite and its runs (repeatable), e.g. --label stack=mdadm-raid5; import:\n"
	  "the imported suites and runs" },
	{ "workdir", 0, OPT_ANYRUN, VS, OPT_TEXT(plan.workdir), "DIR",
	  "where default target files go (default: the current directory)" },
	{ "curve", 0, OPT_ANYRUN, VSM, OPT_CALL(opt_method), "P1,P2,...",
	  "a response-time curve of every workload: the max run, then each point throttled\n"
	  "to P % of the max run's measured total IOPS (docs/method.md), e.g. 10,50,90,100" },
	{ "sweep", 0, OPT_ANYRUN, VSM, OPT_CALL(opt_method), "KEY=V1,V2",
	  "run every workload at each value of iodepth, numjobs or rate, in order,\n"
	  "e.g. iodepth=1,2,4,8 (with --until: stop once a limit is passed)" },
	{ "until", 0, OPT_ANYRUN, VSM, OPT_CALL(opt_method), "EXPR",
	  "a limit that ends a sweep (repeatable): p99>DUR, lat>DUR, iops_gain<PCT%,\n"
	  "e.g. 'p99>1ms'; the point that passes it is stored and the sweep ends" },
	{ "precondition", 0, OPT_ANYRUN, SM, OPT_FLAG(method.precondition), NULL,
	  "the SNIA sequence before each target's workloads: purge, 2 x working set of\n"
	  "128 KiB sequential writes, rounds until steady state (docs/method.md)" },
	{ "max-rounds", 0, OPT_ANYRUN, VSM, OPT_CALL(opt_rounds), "N",
	  "most steady-state rounds of a --precondition (default 25, at least 5)" },
	{ "round-time", 0, OPT_ANYRUN, VSM, OPT_CALL(opt_rounds), "DURATION",
	  "length of a steady-state round (default 60s; --quick: the workload's runtime)" },
	{ "no-fio-check", 0, OPT_ANYRUN, 0, OPT_FLAG(no_fio_check), NULL,
	  "do not have the local fio parse every job file first (fio --parse-only; for a\n"
	  "machine without fio: plan only)" },
	{ "resume", 0, OPT_RUN, 0, OPT_FLAG(run.resume), NULL,
	  "finish the newest suite started with the same arguments: run only what is not 'done'" },
	{ "allow-partial", OK_ALLOW_PARTIAL, OPT_RUN_BASELINE | OPT_HOSTS, S, OPT_FLAG(run.allow_partial), NULL,
	  "go on without hosts that cannot be reached; their runs are 'partial' (hosts check:\n"
	  "exit 0 while at least one initiator is fine)" },
	{ "stop-on-host-failure", 0, OPT_RUN_BASELINE, S, OPT_FLAG(run.stop_on_host_failure), NULL,
	  "stop the suite (exit 4) when a host is lost mid-run (default: go on)" },
	{ "logs", 0, OPT_RUN_BASELINE, S, OPT_FLAG(run.logs), NULL,
	  "ask fio for IOPS, bandwidth and latency logs and store them as samples" },
	{ "no-collectors", 0, OPT_RUN_BASELINE, S, OPT_FLAG(run.no_collectors), NULL,
	  "do not sample CPU (/proc/stat, node_exporter) and disk IOs during runs" },
	{ "grace", 0, OPT_RUN_BASELINE, V, OPT_CALL(opt_grace), "SECONDS",
	  "time allowed beyond ramp + runtime before a run is stopped (default 60)" },
	{ "destructive", OK_DESTRUCTIVE, OPT_ANYRUN | OPT_HOSTS, S, OPT_FLAG(run.destructive), NULL,
	  "allow writing block devices that hold a filesystem, partitions or data" },
	{ "overwrite-files", OK_OVERWRITE_FILES, OPT_ANYRUN | OPT_HOSTS, S, OPT_FLAG(run.overwrite_files), NULL,
	  "allow writing existing files bench did not create (docs/safety.md)" },
	{ "stop-on-config-failure", 0, OPT_RUN_BASELINE, S, OPT_FLAG(run.stop_on_config_failure), NULL,
	  "stop the suite (exit 4) when a configuration's setup or check fails (default: its\n"
	  "runs are 'failed', its teardown runs and the next configuration is built)" },
	{ "quiet", 'q', OPT_RUN_BASELINE | OPT_GATE, 0, OPT_FLAG(run.quiet), NULL,
	  "run: no per-run progress lines; gate: no table on stdout (files and exit code only)" },
	/* ---- rows of several commands (each means one thing and has one unit everywhere) ---- */
	{ "db", OK_DB, OPT_STORED, V, OPT_CALL(opt_db), "PATH",
	  "database file (default bench.db); report, gate, trend and export open it read-only" },
	{ "where", OK_WHERE, OPT_REPORT | OPT_TREND | OPT_EXPORT | OPT_DB, V, OPT_ID(OK_WHERE), "KEY=VALUE",
	  "select runs: a label (stack=zfs-raidz) or a workload parameter: name, tool, rw, bs,\n"
	  "read_pct, random_pct, iodepth, numjobs, engine, suite, status; repeat to narrow" },
	{ "format", OK_FORMAT, OPT_PLAN | OPT_REPORT | OPT_TREND | OPT_EXPORT | OPT_DB, V, OPT_CALL(opt_format),
	  "FORMAT",
	  "output format: plan, db: text (default) or json; report: text (default), csv, json,\n"
	  "markdown (md) or html; trend: text (default), markdown (md) or json; export: csv,\n"
	  "json, influx (line protocol) or openmetrics" },
	{ "verbose", 'v', OPT_PLAN | OPT_REPORT | OPT_PROFILES, 0, OPT_FLAG(verbose), NULL,
	  "plan: also print each run's fio job (the translation of vdbench runs); report: also\n"
	  "every run with status and error, hosts, CPU, disks and stalls; profiles show: the file" },
	{ "output", 'o', OPT_EXPORT | OPT_DB, V, OPT_ID('o'), "FILE",
	  "write to FILE instead of standard output (db: show --raw)" },
	{ "timeout", OK_TIMEOUT, OPT_HOSTS | OPT_EXPORT, V, OPT_ID(OK_TIMEOUT), "DURATION",
	  "a duration: 3s, 500ms, 2m; a bare number is seconds. hosts check: probe timeout per\n"
	  "server (default 3s, at most 10m); export --push: a whole request, per attempt (default 10s)" },
	{ "dry-run", OK_DRY_RUN, OPT_HOSTS | OPT_DB, 0, OPT_ID(OK_DRY_RUN), NULL,
	  "say what would be done, do nothing (hosts start/stop: the ssh commands; db rm, relabel,\n"
	  "merge: the runs)" },
	{ "all", OK_ALL, OPT_EXPORT | OPT_DB, 0, OPT_ID(OK_ALL), NULL, "also runs that are not done or partial" },
	{ "threshold", OK_THRESHOLD, OPT_GATE | OPT_TREND, V, OPT_ID(OK_THRESHOLD), "PCT",
	  "smallest change that matters, in percent (default 5); trend: a newest step worse\n"
	  "than this is a regression" },
	{ "confidence", OK_CONFIDENCE, OPT_GATE | OPT_TREND, V, OPT_ID(OK_CONFIDENCE), "PCT",
	  "confidence level of the intervals, in percent (default 95; gate: also 100 - the\n"
	  "false discovery rate)" },
	{ "match", OK_MATCH, OPT_REPORT | OPT_GATE, V, OPT_ID(OK_MATCH), "identity|name",
	  "pair workloads across the two sides by identity (every option that changes the load;\n"
	  "default) or by run name (report: with --compare)" },
	{ "dpi", OK_DPI, OPT_REPORT | OPT_TREND, V, OPT_ID(OK_DPI), "N",
	  "PNG resolution of the charts, for print (e.g. 300; default 96: screen)" },
	/* ---- import ---- */
	{ "run", OK_RUN, OPT_IMPORT, V, OPT_ID(OK_RUN), "ID",
	  "fio log files: add the time series to the existing run ID instead of creating a run\n"
	  "named after the file; a log imported again replaces its series" },
	{ "append", OK_APPEND, OPT_IMPORT, 0, OPT_ID(OK_APPEND), NULL,
	  "with --run: add to the run's series instead of replacing them" },
	{ "again", OK_AGAIN, OPT_IMPORT, 0, OPT_ID(OK_AGAIN), NULL,
	  "store a file whose content was imported before (by default it is skipped with a note)" },
	{ "csv", OK_CSV, OPT_IMPORT, V, OPT_ID(OK_CSV), "FILE",
	  "import a table of published results (CSV with labels as columns and metrics with units\n"
	  "in the header): one run per row, one suite per table" },
	{ "map", OK_MAP, OPT_IMPORT, V, OPT_ID(OK_MAP), "SPEC", "with --csv: how the file's columns map to bench's names" },
	/* ---- report ---- */
	{ "by", OK_BY, OPT_REPORT, V, OPT_ID(OK_BY), "KEY[,KEY]",
	  "group rows by these labels or parameters instead of the full label set" },
	{ "compare", OK_COMPARE, OPT_REPORT, V, OPT_ID(OK_COMPARE), "KEY=A:B",
	  "ratio table: runs labelled KEY=A against KEY=B (the baseline), e.g.\n"
	  "--compare transport=nvmeof:iser --by stack; several values before the colon compare each" },
	{ "show", OK_SHOW, OPT_REPORT, V, OPT_ID(OK_SHOW), "WHAT",
	  "comparison in text and markdown: values, ratios or values,ratios" },
	{ "order", OK_ORDER, OPT_REPORT, V, OPT_ID(OK_ORDER), "KEY=V1,..",
	  "groups in this order of their key's values (the rest after them, as found)" },
	{ "alias", OK_ALIAS, OPT_REPORT, V, OPT_ID(OK_ALIAS), "K=V:ALIAS",
	  "show label value V of K as ALIAS in charts and the HTML report (repeatable)" },
	{ "title", OK_TITLE, OPT_REPORT, V, OPT_ID(OK_TITLE), "TEXT", "the HTML report's title" },
	{ "caption", OK_CAPTION, OPT_REPORT, V, OPT_ID(OK_CAPTION), "TEXT",
	  "a caption under every chart and the HTML report's title" },
	{ "log", OK_LOG, OPT_REPORT, V, OPT_ID(OK_LOG), "WHEN", "log y axis on bar charts: auto (default), on, off" },
	{ "names", OK_NAMES, OPT_REPORT, V, OPT_ID(OK_NAMES), "HOW",
	  "workload tick labels: full (wrapped; default) or short (W1, W2... with a legend)" },
	{ "color", OK_COLOR, OPT_REPORT, V, OPT_ID(OK_COLOR), "WHEN", "ANSI colours in text: auto (default), always, never" },
	{ "colour", OK_COLOR, OPT_REPORT, V, OPT_ID(OK_COLOR), "WHEN", "the same as --color" },
	{ "charts", OK_CHARTS, OPT_REPORT, V, OPT_ID(OK_CHARTS), "DIR",
	  "also write gnuplot charts (PNG and SVG) into DIR (needs gnuplot)" },
	{ "html", OK_HTML, OPT_REPORT, V, OPT_ID(OK_HTML), "FILE",
	  "also write one self-contained HTML report (tables, charts, metadata) to FILE" },
	{ "p99-limit", OK_P99_LIMIT, OPT_REPORT, V, OPT_ID(OK_P99_LIMIT), "DUR",
	  "the latency limit of \"max IOPS at p99 <= X\" for curves and sweeps (1ms, 500us; a bare\n"
	  "number is ms; default 1ms); repeat for several columns" },
	{ "explain", OK_EXPLAIN, OPT_REPORT, 0, OPT_ID(OK_EXPLAIN), NULL,
	  "for every row: the ceiling this setup could reach, the % of it measured and what\n"
	  "limited the result, with the evidence (docs/explain.md)" },
	{ "map", OK_MAP, OPT_REPORT, V, OPT_ID(OK_MAP), "FILE",
	  "with --compare and --match name: a file of 'NAME = NAME' lines that pair workload\n"
	  "names of the two sides (a published table's names with a suite's)" },
	{ "jobs", OK_JOBS, OPT_REPORT, 0, OPT_ID(OK_JOBS), NULL,
	  "also list the per-job figures of runs of several jobs fio ran together" },
	/* ---- gate ---- */
	{ "baseline", OK_BASELINE, OPT_GATE, V, OPT_ID(OK_BASELINE), "SEL", "the reference runs (required)" },
	{ "candidate", OK_CANDIDATE, OPT_GATE, V, OPT_ID(OK_CANDIDATE), "SEL", "the runs under test (required)" },
	{ "min-runs", OK_MIN_RUNS, OPT_GATE, V, OPT_ID(OK_MIN_RUNS), "N",
	  "valid runs per side a cell needs, else INVALID (default: what the method needs)" },
	{ "method", OK_METHOD, OPT_GATE, V, OPT_ID(OK_METHOD), "auto|t|rank",
	  "the interval: auto (default) t below 10 runs per side, rank from 10" },
	{ "paired", OK_PAIRED, OPT_GATE, 0, OPT_ID(OK_PAIRED), NULL,
	  "pair runs by repetition number and use the signed-rank interval of the differences" },
	{ "min-runtime", OK_MIN_RUNTIME, OPT_GATE, V, OPT_ID(OK_MIN_RUNTIME), "DURATION",
	  "exclude runs measured for less than this (10, 500ms, 1m; a bare number is seconds)" },
	{ "on-inconclusive", OK_ON_INCONCLUSIVE, OPT_GATE, V, OPT_ID(OK_ON_INCONCLUSIVE), "pass|fail",
	  "an INCONCLUSIVE gate exits 0 (pass) or 1 (fail) instead of 6" },
	{ "strict", OK_STRICT, OPT_GATE, 0, OPT_ID(OK_STRICT), NULL, "the same as --on-inconclusive fail" },
	{ "allow-diff", OK_ALLOW_DIFF, OPT_GATE, V, OPT_ID(OK_ALLOW_DIFF), "OPTION",
	  "the sides may differ in this fio option or item (rate_iops, engine, targets, hosts);\n"
	  "repeat for several" },
	{ "allow-invalid", OK_ALLOW_INVALID, OPT_GATE, 0, OPT_ID(OK_ALLOW_INVALID), NULL,
	  "INVALID cells do not fail the gate" },
	{ "allow-unsteady", OK_ALLOW_UNSTEADY, OPT_GATE, 0, OPT_ID(OK_ALLOW_UNSTEADY), NULL,
	  "include runs not at steady state; every output still says so" },
	{ "markdown", OK_MARKDOWN, OPT_GATE, V, OPT_ID(OK_MARKDOWN), "FILE",
	  "write a Markdown summary (CI job summary, pull-request comment); - = stdout" },
	{ "junit", OK_JUNIT, OPT_GATE, V, OPT_ID(OK_JUNIT), "FILE", "write JUnit XML: one testcase per cell" },
	{ "json", OK_JSON, OPT_GATE, V, OPT_ID(OK_JSON), "FILE", "write every verdict with the raw samples as JSON" },
	{ "calibrate", OK_CALIBRATE, OPT_GATE, 0, OPT_ID(OK_CALIBRATE), NULL,
	  "A/A mode: prints the noise (CV) per cell and how many runs per side --threshold needs" },
	{ "plan", OK_PLAN, OPT_GATE, 0, OPT_ID(OK_PLAN), NULL,
	  "the same from the noise measured so far; without --candidate, from the baseline alone" },
	{ "run", OK_RUN, OPT_GATE, V, OPT_ID(OK_RUN), "SUITE",
	  "run the suite's baseline and candidate side by side, pair after pair, judging after\n"
	  "each pair, until every chosen metric is decided or --budget is spent (docs/gate.md)" },
	{ "budget", OK_BUDGET, OPT_GATE, V, OPT_ID(OK_BUDGET), "N|DURATION",
	  "with --run: most pairs (a number) or most time (10m) before the gate stops\n"
	  "INCONCLUSIVE (default 12 pairs)" },
	/* ---- trend ---- */
	{ "metric", OK_METRIC, OPT_GATE | OPT_TREND, V, OPT_ID(OK_METRIC), "KEY",
	  "gate: what the verdict judges: iops, mbps, lat (mean), p99, cpu_per_io, or all\n"
	  "(default iops,mbps,p99; the rest is shown as information; per-metric thresholds:\n"
	  "--threshold iops=5%,p99=15%); trend: the one metric of the history: iops (default),\n"
	  "mbps, cpu_pct, read_lat_ms, write_lat_ms, read_p99_ms, write_p99_ms" },
	{ "sort", OK_SORT, OPT_TREND, V, OPT_ID(OK_SORT), "KEY",
	  "order of the runs: started_at (default) or a label; numbers sort as numbers" },
	{ "order", OK_RENAMED, OPT_TREND, V | OPT_HIDDEN, OPT_ID(OK_RENAMED), "sort", "renamed --sort" },
	{ "pvalue", OK_PVALUE, OPT_TREND, V, OPT_ID(OK_PVALUE), "P", "significance of a split (default 0.001)" },
	{ "min-segment", OK_MIN_SEGMENT, OPT_TREND, V, OPT_ID(OK_MIN_SEGMENT), "N", "fewest runs of a segment (default 5)" },
	{ "chart", OK_CHART, OPT_TREND, V, OPT_ID(OK_CHART), "DIR",
	  "also write a gnuplot chart per series into DIR (PNG and SVG; needs gnuplot)" },
	/* ---- hosts ---- */
	{ "no-targets", OK_NO_TARGETS, OPT_HOSTS, 0, OPT_ID(OK_NO_TARGETS), NULL,
	  "check: only probe the servers, skip the target read" },
	/* ---- lab ---- */
	{ "dir", OK_DIR, OPT_LAB, V, OPT_ID(OK_DIR), "DIR", "where the lab lives (default ./bench-lab)" },
	{ "port", OK_PORT, OPT_LAB, V, OPT_ID(OK_PORT), "PORT", "fio server port on every address (default 8765)" },
	{ "base", OK_BASE, OPT_LAB, V, OPT_ID(OK_BASE), "ADDR",
	  "address of the first server, inside 127.0.0.0/8 (default 127.0.0.11)" },
	{ "netns", OK_NETNS, OPT_LAB, 0, OPT_ID(OK_NETNS), NULL,
	  "up: each host in its own network namespace (lab1..labN and a target host) with sshd,\n"
	  "a fio server and node_exporter, on 198.18.0.0/15 (docs/lab.md)" },
	{ "link", OK_LINK, OPT_LAB, V, OPT_ID(OK_LINK), "RATE",
	  "with --netns: shape every host's link to RATE (tc), e.g. 1gbit, 10gbit" },
	/* ---- export ---- */
	{ "histogram", OK_HISTOGRAM, OPT_EXPORT, V, OPT_ID(OK_HISTOGRAM), "RUN",
	  "write the latency histogram of this run for the sim ioengine instead" },
	{ "ddir", OK_DDIR, OPT_EXPORT, V, OPT_ID(OK_DDIR), "DIR",
	  "with --histogram: read, write, trim or total (default)" },
	{ "no-samples", OK_NO_SAMPLES, OPT_EXPORT, 0, OPT_ID(OK_NO_SAMPLES), NULL, "runs only" },
	{ "samples", OK_SAMPLES, OPT_EXPORT, 0, OPT_ID(OK_SAMPLES), NULL, "csv: one row per sample instead of one per run" },
	{ "push", OK_PUSH, OPT_EXPORT, V, OPT_ID(OK_PUSH), "URL",
	  "send to a server instead: influx to an InfluxDB 1.x base URL, openmetrics to a Pushgateway" },
	{ "influx-db", OK_INFLUX_DB, OPT_EXPORT, V, OPT_ID(OK_INFLUX_DB), "NAME", "InfluxDB database (default bench)" },
	{ "job", OK_JOB, OPT_EXPORT, V, OPT_ID(OK_JOB), "NAME", "Pushgateway job of the group (default bench)" },
	{ "batch", OK_BATCH, OPT_EXPORT, V, OPT_ID(OK_BATCH), "N", "InfluxDB points per request (default 5000)" },
	{ "connect-timeout", OK_CONNECT_TIMEOUT, OPT_EXPORT, V, OPT_ID(OK_CONNECT_TIMEOUT), "DURATION",
	  "time to connect, per attempt (default 3s; a bare number is seconds)" },
	{ "retries", OK_RETRIES, OPT_EXPORT, V, OPT_ID(OK_RETRIES), "N", "attempts after a failed one (default 2)" },
	/* ---- db ---- */
	{ "set", OK_SET, OPT_DB, V, OPT_ID(OK_SET), "KEY=VALUE", "relabel: set a label (repeatable)" },
	{ "unset", OK_UNSET, OPT_DB, V, OPT_ID(OK_UNSET), "KEY", "relabel: remove a label (repeatable)" },
	{ "raw", OK_RAW, OPT_DB, 0, OPT_ID(OK_RAW), NULL, "show: write fio's stored output" },
	{ "artifact", OK_ARTIFACT, OPT_DB, V, OPT_ID(OK_ARTIFACT), "NAME", "show --raw: which stored output" },
	{ "help", 'h', OPT_ALL, 0, OPT_FLAG(help), NULL, "show this help" },
	{ NULL, 0, 0, 0, NULL, 0, NULL, NULL },
};

#undef V
#undef VS
#undef S
#undef VSM
#undef SM

/* ---- handlers ------------------------------------------------------------------------------------------- */

/* Whether o is --help (listed last in the help, not among the options that change what runs). */
static int is_help(const struct bench_option *o)
{
	return o->handle == opt_flag && o->field == F(help);
}

static int opt_flag(struct run_args *a, const struct bench_option *o, const char *v)
{
	(void)v;
	*(int *)(void *)((char *)a + o->field) = 1;
	return 0;
}

static int opt_text(struct run_args *a, const struct bench_option *o, const char *v)
{
	if (!*v)
		return cli_usage(a->cmd_name, "--%s needs a value", o->name);
	*(const char **)(void *)((char *)a + o->field) = v;
	return 0;
}

static int opt_target(struct run_args *a, const struct bench_option *o, const char *v)
{
	struct plan_options *p = &a->plan;

	if (!*v)
		return cli_usage(a->cmd_name, "--%s needs a path", o->name);
	p->targets = xrealloc(p->targets, (p->ntargets + 1) * sizeof(*p->targets));
	p->targets[p->ntargets++] = xstrdup(v);
	return 0;
}

/* KEY=VALUE with KEY of letters, digits, '_', '-', '.'; `need_value`: a non-empty VALUE. */
static int key_value(struct run_args *a, const struct bench_option *o, const char *v, int need_value,
		     const char *form, struct kvlist *into)
{
	char *k, *val;

	if (kv_parse_label(v, &k, &val) < 0 || (need_value && !*val))
		return cli_usage(a->cmd_name, "--%s wants %s with a key of letters, digits, '_', '-', '.', got '%s'",
				 o->name, form, v);
	kvlist_set(into, k, val);
	free(k);
	free(val);
	return 0;
}

static int opt_matrix(struct run_args *a, const struct bench_option *o, const char *v)
{
	return key_value(a, o, v, 1, "KEY=V1,V2,...", &a->plan.matrix);
}

static int opt_label(struct run_args *a, const struct bench_option *o, const char *v)
{
	return key_value(a, o, v, 0, "KEY=VALUE", &a->labels);
}

static int opt_engine_opt(struct run_args *a, const struct bench_option *o, const char *v)
{
	return key_value(a, o, v, 0, "KEY=VALUE", &a->engine_opts);
}

static int opt_repeat(struct run_args *a, const struct bench_option *o, const char *v)
{
	long n;

	if (parse_long(v, 1, PLAN_MAX_RUNS, &n) < 0)
		return cli_usage(a->cmd_name, "--%s wants a whole number 1..%d, got '%s'", o->name, PLAN_MAX_RUNS, v);
	a->plan.repeat = (unsigned)n;
	return 0;
}

static int opt_grace(struct run_args *a, const struct bench_option *o, const char *v)
{
	long n;

	if (parse_long(v, 0, 86400, &n) < 0)
		return cli_usage(a->cmd_name, "--%s wants seconds 0..86400, got '%s'", o->name, v);
	a->run.grace_s = (unsigned)n;
	return 0;
}

static int opt_format(struct run_args *a, const struct bench_option *o, const char *v)
{
	if (opt_choice(a->cmd_name, "--format", "text|json", v) < 0)
		return EXIT_USAGE;
	(void)o;
	a->format = v;
	return 0;
}

/* --curve, --sweep, --until: checked here (usage error), expanded by run_args_plan (runloop_method.c). */
static int opt_method(struct run_args *a, const struct bench_option *o, const char *v)
{
	struct method_settings *m = &a->method;
	struct errbuf err;

	errbuf_init(&err);
	if (method_check_arg(o->name, v, &err) < 0)
		return cli_usage(a->cmd_name, "%s", err.msg);
	if (!strcmp(o->name, "curve"))
		m->curve = v;
	else if (!strcmp(o->name, "sweep"))
		m->sweep = v;
	else if (m->nuntil < METHOD_MAX_UNTIL)
		m->until[m->nuntil++] = v;
	else
		return cli_usage(a->cmd_name, "--until: at most %d limits", METHOD_MAX_UNTIL);
	return 0;
}

static int opt_rounds(struct run_args *a, const struct bench_option *o, const char *v)
{
	double d;
	long n;

	if (!strcmp(o->name, "max-rounds")) {
		if (parse_long(v, SS_WINDOW_DEFAULT, 1000, &n) < 0)
			return cli_usage(a->cmd_name, "--%s wants a whole number %d..1000 (a window is %d rounds), got '%s'",
					 o->name, SS_WINDOW_DEFAULT, SS_WINDOW_DEFAULT, v);
		a->method.max_rounds = (unsigned)n;
		return 0;
	}
	if (parse_duration_s(v, &d) < 0 || d < 1 || d > 86400)
		return cli_usage(a->cmd_name, "--%s wants a duration of 1 s to 24 h (e.g. 60s, 2m), got '%s'", o->name, v);
	a->method.round_s = (unsigned)(d + 0.5);
	return 0;
}

/* The store of --db is opened by main for the commands that ask for one (cli_prepare); here it is only checked. */
static int opt_db(struct run_args *a, const struct bench_option *o, const char *v)
{
	return *v ? 0 : cli_usage(a->cmd_name, "--%s needs a path", o->name);
}

static int opt_hosts(struct run_args *a, const struct bench_option *o, const char *v)
{
	struct errbuf err;

	(void)o;
	errbuf_init(&err);
	host_list_release(&a->hosts);
	if (hostsfile_read(v, &a->hosts, &err) < 0)
		return cli_fail(&err);
	a->hosts_file = v;
	a->run.hosts = &a->hosts;
	return 0;
}

/* ---- parsing -------------------------------------------------------------------------------------------- */

void run_args_init(struct run_args *a, unsigned cmd)
{
	memset(a, 0, sizeof(*a));
	a->cmd = cmd;
	a->cmd_name = cmd == OPT_PLAN ? "plan" : cmd == OPT_BASELINE ? "baseline" : "run";
	plan_options_init(&a->plan);
	kvlist_init(&a->labels);
	kvlist_init(&a->engine_opts);
	host_list_init(&a->hosts);
	a->run.grace_s = 60;
	a->format = "text";
	method_settings_init(&a->method);
	a->suite_args = cJSON_CreateArray();
	{
		size_t n = 0;
		for (const struct engine_ops *const *e = engine_list(); *e; e++)
			n++;
		a->engine_names = xcalloc(n + 1, sizeof(*a->engine_names));
		for (size_t i = 0; i < n; i++)
			a->engine_names[i] = engine_list()[i]->name;
		a->plan.engines = a->engine_names;
	}
}

void run_args_release(struct run_args *a)
{
	if (!a)
		return;
	plan_options_release(&a->plan);
	kvlist_release(&a->labels);
	kvlist_release(&a->engine_opts);
	host_list_release(&a->hosts);
	config_list_release(a->run.configs);
	free(a->run.configs);
	free(a->profiles);
	free(a->engine_names);
	cJSON_Delete(a->suite_args);
	memset(a, 0, sizeof(*a));
}

/* NAME=value where NAME is an identifier and the whole argument is not an existing file: a variable. */
static int is_variable(const char *arg)
{
	const char *eq = strchr(arg, '=');
	struct stat st;

	if (!eq || eq == arg || (!isalpha((unsigned char)arg[0]) && arg[0] != '_'))
		return 0;
	for (const char *p = arg; p < eq; p++)
		if (!isalnum((unsigned char)*p) && *p != '_')
			return 0;
	return stat(arg, &st) != 0;
}

/* The row named `name` (len bytes) that command `cmd` takes, else any row of that name (*other set), else NULL. */
static const struct bench_option *find_long(const char *name, size_t len, unsigned cmd, int *other)
{
	const struct bench_option *any = NULL;

	*other = 0;
	for (const struct bench_option *o = bench_options; o->name; o++) {
		if (strlen(o->name) != len || strncmp(o->name, name, len))
			continue;
		if (o->cmds & cmd)
			return o;
		any = o;
	}
	*other = any != NULL;
	return any;
}

static const struct bench_option *find_short(char c, unsigned cmd)
{
	for (const struct bench_option *o = bench_options; o->name; o++)
		if (o->key == c && (o->cmds & cmd))
			return o;
	return NULL;
}

/* "unknown option '--wehre' (did you mean '--where'?)": the closest of the rows command `cmd` shows. */
static int unknown_option(const char *name, unsigned cmd, const char *arg)
{
	const char *names[256], *best;
	char word[64];
	size_t n = 0;

	for (const struct bench_option *o = bench_options; o->name && n < 256; o++)
		if ((o->cmds & cmd) && !(o->flags & OPT_HIDDEN))
			names[n++] = o->name;
	snprintf(word, sizeof(word), "%s", arg + strspn(arg, "-"));
	word[strcspn(word, "=")] = '\0';
	best = arg[1] == '-' ? suggest_closest(word, names, n) : NULL;
	if (best)
		return cli_error(EXIT_USAGE, "%s: unknown option '%s' (did you mean '--%s'?)", name, arg, best);
	return cli_usage(name, "unknown option '%s'", arg);
}

/*
 * The row of the option at argv[*i] for command `cmd` and its value (advancing *i past a separate value), or
 * the usage error printed and returned. `other` names the command the row belongs to when cmd does not take it
 * (plan/run), else the error is "unknown option".
 */
static int find_option(const char *name, unsigned cmd, int argc, char **argv, int *i, const struct bench_option **out,
		       const char **value)
{
	const char *arg = argv[*i], *eq = NULL;
	const struct bench_option *o;
	int other = 0;

	*value = NULL;
	if (arg[1] != '-') {
		o = find_short(arg[1], cmd);
		if (o && arg[2] && (o->flags & OPT_VALUE))
			eq = arg + 1; /* -oFILE */
		else if (arg[2])
			o = NULL;
	} else {
		eq = strchr(arg + 2, '=');
		o = find_long(arg + 2, eq ? (size_t)(eq - arg - 2) : strlen(arg + 2), cmd, &other);
	}
	if (o && other && (cmd & OPT_BOTH) && (o->cmds & OPT_BOTH))
		return cli_usage(name, "'--%s' is an option of 'bench %s' only", o->name, cmd == OPT_PLAN ? "run" : "plan");
	if (!o || other)
		return unknown_option(name, cmd, arg);
	if (o->flags & OPT_HIDDEN)
		return cli_usage(name, "unknown option '%s' (did you mean '--%s'? the option was renamed)", arg,
				 o->metavar);
	if (o->flags & OPT_VALUE) {
		if (eq)
			*value = eq + 1;
		else if (*i + 1 < argc)
			*value = argv[++*i];
		else
			return cli_usage(name, "option '--%s' needs a value (%s)", o->name, o->metavar);
	} else if (eq) {
		return cli_usage(name, "option '--%s' takes no value, got '%s'", o->name, arg);
	}
	*out = o;
	return EXIT_OK;
}

/* One option at argv[*i] (advancing *i past a separate value). Returns 0 or the exit code. */
static int take_option(struct run_args *a, int argc, char **argv, int *i, cJSON *suite_opts)
{
	const struct bench_option *o = NULL;
	const char *value = NULL;
	int rc = find_option(a->cmd_name, a->cmd, argc, argv, i, &o, &value);

	if (rc != EXIT_OK)
		return rc;
	if (o->flags & OPT_SUITE) {
		cJSON_AddItemToArray(suite_opts, cJSON_CreateString(o->name));
		if (value)
			cJSON_AddItemToArray(suite_opts, cJSON_CreateString(value));
	}
	if (o->key == OK_DB)
		cli_set_db(value);
	return o->handle(a, o, value);
}

int run_args_parse(struct run_args *a, int argc, char **argv)
{
	cJSON *positional = cJSON_CreateArray(), *item;
	int only_positional = 0, rc = EXIT_OK;

	a->profiles = xcalloc((size_t)argc + 1, sizeof(*a->profiles));
	for (int i = 1; i < argc && !a->help; i++) {
		const char *arg = argv[i];

		if (!only_positional && !strcmp(arg, "--")) {
			only_positional = 1;
			continue;
		}
		if (!only_positional && arg[0] == '-' && arg[1]) {
			if ((rc = take_option(a, argc, argv, &i, a->suite_args)) != EXIT_OK)
				goto out;
			continue;
		}
		cJSON_AddItemToArray(positional, cJSON_CreateString(arg));
		if (is_variable(arg)) {
			const char *eq = strchr(arg, '=');
			char *key = xstrndup(arg, (size_t)(eq - arg));
			kvlist_set(&a->plan.vars, key, eq + 1);
			free(key);
			continue;
		}
		a->profiles[a->nprofiles++] = arg;
	}
	/* options first, then the positional arguments in order: the form --resume has always matched */
	while ((item = cJSON_DetachItemFromArray(positional, 0)))
		cJSON_AddItemToArray(a->suite_args, item);
out:
	cJSON_Delete(positional);
	return rc;
}

char *run_args_suite_text(const struct run_args *a)
{
	char *raw = cJSON_PrintUnformatted(a->suite_args), *copy = xstrdup(raw);

	cJSON_free(raw);
	return copy;
}

/* ---- help ----------------------------------------------------------------------------------------------- */

static void help_row(FILE *f, const struct bench_option *o)
{
	char head[64];
	const char *h = o->help;
	int n;

	if (o->key > 0 && o->key < 128)
		n = snprintf(head, sizeof(head), "  -%c, --%s%s%s", o->key, o->name, o->metavar ? " " : "",
			     o->metavar ? o->metavar : "");
	else
		n = snprintf(head, sizeof(head), "  --%s%s%s", o->name, o->metavar ? " " : "",
			     o->metavar ? o->metavar : "");
	fputs(head, f);
	if (n >= HELP_COLUMN - 1)
		fprintf(f, "\n%*s", HELP_COLUMN, "");
	else
		fprintf(f, "%*s", HELP_COLUMN - n, "");
	for (; *h; h++) {
		fputc(*h, f);
		if (*h == '\n')
			fprintf(f, "%*s", HELP_COLUMN, "");
	}
	fputc('\n', f);
}

void run_args_help(FILE *f, unsigned cmd)
{
	fprintf(f, "options that change what runs ('bench plan' and 'bench run' take them alike):\n");
	for (const struct bench_option *o = bench_options; o->name; o++)
		if ((o->cmds & OPT_BOTH) == OPT_BOTH && !is_help(o) && !(o->flags & OPT_METHOD))
			help_row(f, o);
	fprintf(f, "  %-*s%s\n", HELP_COLUMN - 2, "NAME=value",
		"a variable: $NAME in vdbench files, ${NAME} in fio job files");
	fprintf(f, "\nthe measurement method (docs/method.md; 'bench plan' and 'bench run' alike):\n");
	for (const struct bench_option *o = bench_options; o->name; o++)
		if (o->flags & OPT_METHOD)
			help_row(f, o);
	fprintf(f, "\noptions of %s:\n", cmd == OPT_PLAN ? "'bench plan' only" :
		cmd == OPT_BASELINE ? "'bench run' that 'bench baseline' takes" : "'bench run' only");
	for (const struct bench_option *o = bench_options; o->name; o++) /* baseline: run's rows it takes */
		if ((o->cmds & OPT_BOTH) == (cmd == OPT_BASELINE ? OPT_RUN : cmd) && (o->cmds & cmd))
			help_row(f, o);
	for (const struct bench_option *o = bench_options; o->name; o++)
		if (is_help(o))
			help_row(f, o);
}

/* ---- the other commands ---------------------------------------------------------------------------------- */

const char *opt_name(int key)
{
	for (const struct bench_option *o = bench_options; o->name; o++)
		if (o->key == key)
			return o->name;
	return "?";
}

void opt_help(FILE *f, unsigned cmd)
{
	fprintf(f, "options:\n");
	for (const struct bench_option *o = bench_options; o->name; o++)
		if ((o->cmds & cmd) && !(o->flags & OPT_HIDDEN) && !is_help(o))
			help_row(f, o);
	for (const struct bench_option *o = bench_options; o->name; o++)
		if (is_help(o))
			help_row(f, o);
}

/* Moves the arguments that are not options (positional[0..n-1], in order) after the options, as getopt_long
 * leaves argv, and sets optind to the first of them. */
static void put_positionals_last(int argc, char **argv, char **positional, int n)
{
	int w = 1;

	for (int r = 1; r < argc; r++) {
		int is_pos = 0;
		for (int k = 0; k < n && !is_pos; k++)
			is_pos = argv[r] == positional[k];
		if (!is_pos && strcmp(argv[r], "--"))
			argv[w++] = argv[r];
	}
	optind = w;
	for (int k = 0; k < n; k++)
		argv[w++] = positional[k];
	for (; w < argc; w++)
		argv[w] = NULL; /* the "--" */
}

int opt_getopt(const char *name, unsigned cmd, int argc, char **argv, int *i)
{
	static char **positional;
	static int npos, only_positional;
	const struct bench_option *o = NULL;
	const char *value = NULL;

	if (*i == 0) {
		free(positional);
		positional = xcalloc((size_t)argc + 1, sizeof(*positional));
		npos = only_positional = 0;
		*i = 1;
	} else {
		++*i;
	}
	optarg = NULL;
	for (; *i < argc; ++*i) {
		const char *arg = argv[*i];
		if (!only_positional && !strcmp(arg, "--")) {
			only_positional = 1;
			continue;
		}
		if (only_positional || arg[0] != '-' || !arg[1]) {
			positional[npos++] = argv[*i];
			continue;
		}
		if (find_option(name, cmd, argc, argv, i, &o, &value) != EXIT_OK)
			return '?';
		if (o->key == OK_DB) {
			if (!*value) {
				cli_usage(name, "--db needs a path");
				return '?';
			}
			cli_set_db(value);
		}
		optarg = (char *)value;
		return o->key;
	}
	put_positionals_last(argc, argv, positional, npos);
	free(positional);
	positional = NULL;
	return -1;
}

int opt_choice(const char *name, const char *opt, const char *choices, const char *value)
{
	char *copy = xstrdup(choices), *save = NULL;
	const char *names[32], *best;
	struct strbuf list;
	size_t n = 0;
	int found = -1;

	for (char *t = strtok_r(copy, "|", &save); t && n < 32; t = strtok_r(NULL, "|", &save)) {
		if (!strcmp(t, value))
			found = (int)n;
		names[n++] = t;
	}
	if (found >= 0)
		goto out;
	strbuf_init(&list);
	for (size_t k = 0; k < n; k++)
		strbuf_addf(&list, "%s%s", k ? (k + 1 == n ? " or " : ", ") : "", names[k]);
	best = suggest_closest(value, names, n);
	if (best)
		cli_usage(name, "%s wants %s, got '%s' (did you mean '%s'?)", opt, list.buf, value, best);
	else
		cli_usage(name, "%s wants %s, got '%s'", opt, list.buf, value);
	strbuf_release(&list);
out:
	free(copy);
	return found;
}

int opt_duration_ms(const char *name, const char *opt, const char *value, double max_s, long *ms)
{
	double s;

	if (parse_duration_s(value, &s) < 0 || !(s > 0))
		return cli_usage(name, "%s wants a duration such as 3s, 500ms or 2m (a bare number is seconds), got '%s'",
				 opt, value);
	if (s > max_s)
		return cli_usage(name, "%s wants a duration of at most %gs, got '%s' (a bare number is seconds: "
				 "write '%sms' for milliseconds)", opt, max_s, value, value);
	*ms = (long)(s * 1000.0 + 0.5);
	if (*ms < 1)
		*ms = 1;
	return 0;
}

/* ---- from arguments to a checked plan ------------------------------------------------------------------- */

static int check_engines(const struct run_args *a, const struct plan *p)
{
	struct strbuf names;

	if (a->plan.engine && !engine_find(a->plan.engine)) {
		strbuf_init(&names);
		for (const struct engine_ops *const *e = engine_list(); *e; e++)
			strbuf_addf(&names, "%s%s", names.len ? ", " : "", (*e)->name);
		cli_error(EXIT_INPUT, "--engine: unknown engine '%s' (engines: %s)", a->plan.engine, names.buf);
		strbuf_release(&names);
		return EXIT_INPUT;
	}

	for (size_t i = 0; i < p->n; i++) {
		const struct run_spec *s = &p->runs[i];
		const char *name = s->engine ? s->engine : "fio";
		const struct engine_ops *ops = engine_find(name);
		int rc;

		if (ops && (!a->hosts.n || (ops->flags & ENGINE_MULTIHOST)))
			continue;
		strbuf_init(&names);
		for (const struct engine_ops *const *e = engine_list(); *e; e++)
			strbuf_addf(&names, "%s%s", names.len ? ", " : "", (*e)->name);
		if (!ops)
			rc = cli_error(EXIT_INPUT, "%s%sunknown engine '%s' for run %u '%s' (engines: %s)",
				       s->wl.src_file ? s->wl.src_file : "", s->wl.src_file ? ": " : "", name, s->seq,
				       s->name ? s->name : "", names.buf);
		else
			rc = cli_error(EXIT_USAGE, "engine '%s' cannot run on the hosts of '%s' (run %u '%s')", name,
				       a->hosts_file, s->seq, s->name ? s->name : "");
		strbuf_release(&names);
		return rc;
	}
	return EXIT_OK;
}

/* One step's host: "local" or a host of the hosts file (--hosts), else exit 3 naming the step's file:line. */
static int check_step_host(const struct run_args *a, const char *host, const char *origin)
{
	const char **names;
	const char *near;
	int rc;

	if (!host || !strcmp(host, "local"))
		return EXIT_OK;
	if (!a->hosts_file)
		return cli_error(EXIT_INPUT, "%s: step host '%s' needs a hosts file naming it (--hosts FILE)", origin,
				 host);
	for (size_t i = 0; i < a->hosts.n; i++)
		if (!strcmp(a->hosts.v[i].name, host))
			return EXIT_OK;
	names = xcalloc(a->hosts.n + 1, sizeof(*names));
	for (size_t i = 0; i < a->hosts.n; i++)
		names[i] = a->hosts.v[i].name;
	near = suggest_closest(host, names, a->hosts.n);
	if (near)
		rc = cli_error(EXIT_INPUT, "%s: step host '%s' is not in the hosts file '%s': did you mean '%s'?", origin,
			       host, a->hosts_file, near);
	else
		rc = cli_error(EXIT_INPUT, "%s: step host '%s' is not in the hosts file '%s'", origin, host,
			       a->hosts_file);
	free(names);
	return rc;
}

/* Every host a configuration step names (@HOST, or the configuration's host =) is known: at plan time, before a
 * database is opened or a run stored. */
static int check_config_hosts(const struct run_args *a, const struct config_list *cl)
{
	for (size_t i = 0; i < cl->n; i++) {
		const struct suite_config *c = &cl->v[i];
		for (int ph = 0; ph < CONFIG_NPHASES; ph++)
			for (size_t k = 0; k < c->nsteps[ph]; k++) {
				const struct config_step *st = &c->steps[ph][k];
				int rc = check_step_host(a, st->host ? st->host : c->host,
							 st->origin ? st->origin : c->file);
				if (rc != EXIT_OK)
					return rc;
			}
	}
	return EXIT_OK;
}

/*
 * The member devices of every configuration built on this host hold no data (unless --destructive) and are not
 * in use (never): the consent rules of engines/target.h, at plan time, before a database is opened or a run
 * stored. Members of a configuration whose steps run on another host are probed there by the run's preflight.
 */
static int check_config_members(const struct run_args *a, const struct config_list *cl)
{
	int flags = a->run.destructive ? TARGET_DESTRUCTIVE : 0;

	/* --resume may find a stack bench itself left built by a killed run on these members: the run loop tears
	 * it down first and checks the members then, before the configuration's setup (runloop.c) */
	if (a->cmd == OPT_RUN && a->run.resume)
		return EXIT_OK;
	for (size_t i = 0; i < cl->n; i++) {
		const struct suite_config *c = &cl->v[i];
		if (c->host && strcmp(c->host, "local"))
			continue;
		for (size_t m = 0; m < c->nmembers; m++) {
			struct errbuf err;
			errbuf_init(&err);
			if (target_check(c->members[m], flags, &err) < 0)
				return cli_error(EXIT_INPUT, "%s:%d: configuration '%s': member %s: %s", c->file, c->line,
						 c->name, c->members[m], err.msg);
		}
	}
	return EXIT_OK;
}

/*
 * What the command line adds to the plan, so that the plan holds exactly what the store will: --label joins
 * the suite's labels (a run's stored labels are its own, then the suite's: runloop.c), --engine-opt every run.
 */
static void apply_command_line(const struct run_args *a, struct plan *p)
{
	for (size_t k = 0; k < a->labels.n; k++)
		kvlist_set(&p->labels, a->labels.v[k].key, a->labels.v[k].value);
	for (size_t i = 0; i < p->n; i++)
		for (size_t k = 0; k < a->engine_opts.n; k++)
			kvlist_set(&p->runs[i].engine_opts, a->engine_opts.v[k].key, a->engine_opts.v[k].value);
}

/* fio parses every job file of the plan (engines/fio_check.h): its complaint is bad input (exit 3); a fio that
 * cannot be asked is a warning (plan on a machine without fio; run then fails as it always did). */
static int check_with_fio(const struct run_args *a, const struct plan *p)
{
	struct fio_check_opts o = { a->hosts.n ? &a->hosts : NULL, paths_sim_so(), NULL };
	struct errbuf err;

	errbuf_init(&err);
	if (a->no_fio_check)
		cli_warn("the job files were not checked by fio (--no-fio-check)");
	else if (fio_check_plan(p->runs, p->n, &o, NULL, &err) < 0 && err.kind == ERR_INPUT)
		return cli_fail(&err);
	else if (err.msg[0])
		cli_warn("the job files were not checked by fio: %s", err.msg);
	return EXIT_OK;
}

int run_args_start(struct run_args *a, unsigned cmd, int argc, char **argv, void (*usage)(void), struct plan *plan)
{
	int rc;

	run_args_init(a, cmd);
	plan_init(plan);
	if ((rc = run_args_parse(a, argc, argv)) != EXIT_OK)
		return rc;
	if (a->help) {
		usage();
		return EXIT_OK;
	}
	return run_args_plan(a, plan);
}

int run_args_plan(struct run_args *a, struct plan *out)
{
	struct errbuf err;
	int rc;

	errbuf_init(&err);
	if (!a->nprofiles)
		return cli_usage(a->cmd_name, "name a suite, a fio job file, a vdbench parameter file or an HCIbench "
				 "name (e.g. 'bench %s hcibench-easyrun --quick')", a->cmd_name);
	if (a->interleave && a->nprofiles < 2)
		return cli_usage(a->cmd_name, "--interleave needs two or more profiles to alternate");
	a->run.configs = xcalloc(1, sizeof(*a->run.configs));
	config_list_init(a->run.configs);
	rc = plan_build_full(a->profiles, a->nprofiles, a->interleave, &a->plan, &a->method, out, a->run.configs, &err);
	if (rc < 0) /* one error line: the warnings of a plan that is refused say nothing more */
		return cli_fail(&err);
	for (size_t i = 0; i < out->nwarnings; i++)
		cli_warn("%s", out->warnings[i]);
	if (!out->n)
		return cli_error(EXIT_INPUT, "'%s' expands to no runs", a->profiles[0]);

	if ((rc = check_engines(a, out)) != EXIT_OK || (rc = check_config_hosts(a, a->run.configs)) != EXIT_OK ||
	    (rc = check_config_members(a, a->run.configs)) != EXIT_OK)
		return rc;
	apply_command_line(a, out);
	return check_with_fio(a, out);
}
