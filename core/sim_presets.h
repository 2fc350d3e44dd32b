/*
 * sim_presets: the sim engine's model presets and the readers of its sim_* option values, in one place for
 * the two that need them: the engine (engines/sim/, a fio .so that compiles this file in: it must stay plain
 * C11 with nothing else of bench) and the explain model (report/analysis/explain.c, which reads a stored run's
 * sim_* options to give its device and transport ceilings). docs/sim.md "Options" and "Presets" are the user's
 * view of both. Nothing here prints; the parsers return -1 on text they do not read.
 */
#ifndef BENCH_CORE_SIM_PRESETS_H
#define BENCH_CORE_SIM_PRESETS_H

/*
 * One preset: the model options it sets (illustrative models, not measurements: a local NVMe SSD, and the same
 * SSD over NVMe-oF/RDMA, iSER and iSCSI/TCP). A preset always sets the lognormal device time distribution.
 */
struct sim_preset {
	const char *name;
	double transport_ns;   /* per-IO transport overhead, nanoseconds */
	double link_bw;        /* link bandwidth cap, bytes per second; 0 = none */
	double link_iops;      /* link IOPS cap; 0 = none */
	double lat_ns;         /* device time mean, nanoseconds */
	double cv;             /* lognormal coefficient of variation */
	unsigned units;        /* parallel units per device */
	double iops;           /* device IOPS cap; 0 = none */
	double bw;             /* device bandwidth cap, bytes per second; 0 = none */
};

/* The preset named `name`, or NULL. */
const struct sim_preset *sim_preset_find(const char *name);

/* The preset names, NULL-terminated (for messages: "one of local, nvmeof-rdma, ..."). */
extern const char *const sim_preset_names[];

/*
 * The sim_* option values. A plain non-negative finite number (leading blanks allowed, no sign): 0 with *out and
 * *rest (the text after it), or -1.
 */
int sim_parse_number(const char *s, double *out, const char **rest);
/*
 * The sim_* option values. These are not fio option values and deliberately not core/fio_options.h's rules:
 * sim_* are the model's own parameters (rates with "/s", fractions like sim_bw=1.5g/s or sim_lat=0.5ms,
 * nanoseconds) that fio hands to the engine as plain text. Durations: a number with ns, us/usec, ms/msec,
 * s/sec (any case); a bare number is microseconds. Returns 0 and sets *out (nanoseconds), or -1.
 */
int sim_parse_duration_ns(const char *s, double *out);
/* Rates/sizes: a number (fractions allowed) with optional k, m, g, t (powers of 1024), optional "b"/"ib" and
 * "/s". Unlike fio's kb_base=1024 rule, "KiB" is 1024 here too: the model's parameters are read as written.
 * Returns 0 and sets *out (bytes or bytes per second, or a plain count), or -1. */
int sim_parse_bytes(const char *s, double *out);

#endif
