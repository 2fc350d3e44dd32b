/*
 * sim_model: the modelled storage target behind the sim ioengine, free of fio so that unit tests can drive it.
 *
 * An IO submitted at time t (nanoseconds on any monotonic clock) passes
 *   transport: a fixed per-IO overhead, then an optional link IOPS cap and link bandwidth cap (shared by all
 *              IOs of the job; the link transfer time of the IO's bytes is added);
 *   layout:    none (one device), raid0, raid1, raid5, raid6 or raid10 over `members` devices with a chunk
 *              size: the IO becomes member operations (parity RAID: read-modify-write or reconstruct-write
 *              for partial stripes, no reads for full stripes or stripes completed by a sequential stream);
 *   devices:   each member has `units` parallel units; an operation takes the unit free first, waits for the
 *              device's IOPS cap and bandwidth cap, and holds the unit for a device time drawn from the
 *              distribution (fixed, lognormal with mean and cv, or an empirical histogram) or for its
 *              bandwidth-cap transfer time, whichever ends later.
 * The IO completes when its last member operation ends (writes of a read-modify-write start after its reads).
 * All of it is computed at submission (a reservation calendar), so the completion time is known at once.
 * Every number is deterministic for a given configuration, seed and stream number.
 */
#ifndef BENCH_ENGINES_SIM_MODEL_H
#define BENCH_ENGINES_SIM_MODEL_H

#include <stddef.h>
#include <stdint.h>

/* the presets and the sim_* value parsers (sim_preset_names, sim_parse_duration_ns, sim_parse_bytes), shared
 * with the explain model */
#include "core/sim_presets.h"

enum sim_dist { SIM_DIST_FIXED, SIM_DIST_LOGNORMAL, SIM_DIST_EMPIRICAL };
enum sim_raid { SIM_RAID_NONE, SIM_RAID0, SIM_RAID1, SIM_RAID5, SIM_RAID6, SIM_RAID10 };
enum sim_op { SIM_READ, SIM_WRITE, SIM_TRIM, SIM_SYNC };

struct sim_config {
	double transport_ns;     /* per-IO transport overhead, nanoseconds */
	double link_bw;          /* link bandwidth cap, bytes per second; 0 = none */
	double link_iops;        /* link IOPS cap; 0 = none */
	enum sim_dist dist;      /* device time distribution */
	double lat_ns;           /* device time per operation: the fixed value or the lognormal mean, ns */
	double cv;               /* lognormal coefficient of variation (stddev / mean) */
	char hist_path[4096];    /* empirical histogram file (bench export --histogram), "" = none */
	unsigned units;          /* parallel units per device */
	double iops;             /* IOPS cap per device; 0 = none */
	double bw;               /* bandwidth cap per device, bytes per second; 0 = none */
	enum sim_raid raid;      /* layout over the members */
	unsigned members;        /* number of devices */
	uint64_t chunk_bytes;    /* RAID chunk (stripe unit), bytes */
	uint64_t seed;           /* random seed */
	double spin_ns;          /* longest busy-wait before a completion; < 0 = adaptive */
	double cpu_ns;           /* initiator CPU burnt by the job's thread per IO at submission (thread CPU
	                            time, ns; 0 = none): makes the initiator's CPU the binding limit */
	/* sim_stall=START:LEN[:FACTOR][@WHERE]: device time x FACTOR (default 20) from START to START + LEN after
	 * the job's first IO (ramp included), only where the process's working directory contains WHERE
	 * (a lab host runs in DIR/host<i>: "@host2"); 0 length = no stall */
	double stall_at_ns, stall_len_ns, stall_factor;
	char stall_where[256];
};

/* The built-in defaults: fixed 100 us, 1 unit, no caps, no RAID, one device, 512 KiB chunk, seed 1. */
void sim_config_defaults(struct sim_config *c);

/*
 * Sets one option by its name without the "sim_" prefix ("preset", "lat", "raid", ...) from its text.
 * "preset" overwrites the model options with the preset's values; apply it first. Returns 0, or -1 with a
 * message ("sim_lat: ...") in err.
 */
int sim_config_set(struct sim_config *c, const char *name, const char *value, char *err, size_t errlen);

/* Checks the combination (members per layout, units, cv ...). Returns 0 or -1 with a message. */
int sim_config_check(const struct sim_config *c, char *err, size_t errlen);

struct sim_model;

/* A model for one fio job; `stream` (e.g. the job number) varies the random sequence. NULL + err on failure. */
struct sim_model *sim_model_new(const struct sim_config *c, uint64_t stream, char *err, size_t errlen);
void sim_model_free(struct sim_model *m); /* NULL ok */

/* Submits one IO at now_ns; returns its completion time in the same clock (>= now_ns). */
double sim_model_submit(struct sim_model *m, double now_ns, enum sim_op op, uint64_t offset, uint64_t len);

/*
 * Wear hook (the write cliff and drift of sim_engine.c): `factor` is called for every member operation, with
 * write = 1 for a data or parity write, before its device time is drawn, and returns the factor the drawn
 * device time is multiplied by. NULL (the default) = 1.
 */
void sim_model_set_wear(struct sim_model *m, double (*factor)(void *ctx, unsigned member, int write, double bytes),
			void *ctx);

/* One device-time draw, ns (tests). */
double sim_model_draw(struct sim_model *m);

/*
 * Member operations of the last submitted IO, for tests: reads that its writes wait for (read-modify-write or
 * reconstruct-write), and all other operations (data reads, data and parity writes).
 */
void sim_model_last_ops(const struct sim_model *m, unsigned *rmw_reads, unsigned *others);

#endif
