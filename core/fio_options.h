/*
 * fio_options: the one reader of fio options as fio 3.33 reads them (parse.c str_to_decimal, get_mult_bytes,
 * get_mult_time; options.c str_split_parse, split_parse_ddir, bssplit_ddir), turning a job's options into the
 * normalised fields of a workload (model.h) and giving each option's value in one canonical text for the
 * workload identity (identity.h). profiles/ (job files, suites, vdbench translations) and the importers
 * (fio JSON) both call it, so a job bench ran and fio's JSON of the same job give the same workload.
 *
 * fio's unit rules, as implemented here:
 *  - Sizes: a decimal number (hexadecimal when the text holds "0x"), then the first letter after the digits
 *    picks the unit; kb_base (default 1024, fio parses it before every other option) decides the base:
 *    kb_base=1024: k/kb/K/KB = 1024, KiB = 1000 (fio's "compatibility mode": IEC and SI swapped);
 *    kb_base=1000: k/kB = 1000, KiB = 1024. m/g/t/p likewise. No letter: bytes. "%" marks a percentage.
 *    fio stops at the first non-digit, so it reads "1.5k" as 1 byte: bench refuses such a value where it
 *    plans a job (FIO_OPT_STRICT) and reads it as fio did (1) where it imports what fio ran.
 *  - Times: a bare number is in the option's unit (seconds for runtime/ramp_time, microseconds for thinktime);
 *    us/usec, ms/msec, s, m, h, d. Plain integers (iodepth) take size suffixes too (iodepth=1k is 1024).
 *  - Per-direction values "r[,w[,t]]" (bs, rate, rate_iops, percentage_random, bssplit ...): one value applies
 *    to all directions, a value not followed by a comma applies to the directions after it, an empty one is
 *    fio's default.
 *  - bssplit "size/pct:size/pct" per direction: entries without a percentage share what is left equally.
 *  - rw: read write trim randread randwrite randtrim rw (alias readwrite) randrw trimwrite randtrimwrite,
 *    with an optional ":N" (sequential stride or new random offset every N IOs). rwmixread and rwmixwrite
 *    set one mix (read % = 100 - rwmixwrite), the later one in the list wins; percentage_random is per
 *    direction, and random_pct is the share of all IOs (weighted by the mix for rw/randrw).
 *  - bssplit percentages: fio's atoi, capped at 100; bench's plans (FIO_OPT_STRICT) also want them to add
 *    up to 100 when all are given (fio would scale them silently).
 *  - Option name aliases (readwrite, blocksize, timeout ...) are folded to the names fio prints.
 */
#ifndef BENCH_CORE_FIO_OPTIONS_H
#define BENCH_CORE_FIO_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "core/errbuf.h"
#include "core/kv.h"
#include "core/model.h"

enum fio_opt_flags {
	/* Refuse values fio would read other than they look ("1.5k" = 1 byte, "10sec" = 10 us, trailing
	 * letters): for job files bench plans. Without it the value is read exactly as fio read it. */
	FIO_OPT_STRICT = 1 << 0,
};

/* Where each option of a list was written (parallel to the list; entries may be NULL), for file:line. */
struct fio_opt_locs {
	const char **file;
	const int *line;
	size_t n;
};

/* fio's canonical name of an option ("readwrite" -> "rw", "blocksize" -> "bs"), or `name` itself. */
const char *fio_opt_canonical_name(const char *name);

/* The kb_base the options select (the last kb_base=, 1000 or 1024; 1024 when absent or not one of those). */
unsigned fio_opt_kb_base(const struct kvlist *opts);

/* A size as fio reads it with `kb_base` (1000 or 1024). Returns 0 and sets *out (bytes), 1 when the text is
 * a percentage ("50%": *out = 50), or -1 when fio would refuse it (or, with FIO_OPT_STRICT, misread it). */
int fio_opt_size(const char *s, unsigned kb_base, unsigned flags, uint64_t *out);

/* A time as fio reads it: a bare number is in `unit_us` microseconds (1000000 for seconds). Result in
 * microseconds. -1 when fio would refuse it (or, with FIO_OPT_STRICT, misread it). */
int fio_opt_time_us(const char *s, uint64_t unit_us, unsigned flags, uint64_t *out);

/*
 * Fills the normalised fields of w from a job's options (global then job options, in order, already merged by
 * the caller; the last occurrence of an option wins, as in fio): rw, bs_bytes, bssplit, read_pct, random_pct,
 * iodepth, numjobs, runtime_s, ramp_s, size, compress_pct, dedupe_pct, with fio's defaults where an option is
 * absent. Leaves w->tool, w->opts and w->src_* alone. On error returns -1 with "FILE:LINE: 'key' ..." in err
 * (the option's own place from `locs` when known, else file:line).
 */
int fio_options_normalise(const struct kvlist *opts, const struct fio_opt_locs *locs, const char *file, int line,
			  unsigned flags, struct workload *w, struct errbuf *err);

/* How an option takes part in the workload identity. */
enum fio_opt_role {
	FIO_OPT_LOAD = 0,     /* changes the load: part of the identity */
	FIO_OPT_MODELLED,     /* changes the load and is a normalised workload field (rw, bs, iodepth ...) */
	FIO_OPT_NO_LOAD,      /* does not change the load (name, filename, logs, reporting, duration) */
};

/* The role of an option (canonical or alias name). Options bench does not know are FIO_OPT_LOAD. */
enum fio_opt_role fio_opt_role(const char *name);

/*
 * The canonical text of one option's value for the identity (malloc'd): sizes and times in bytes and
 * microseconds, per-direction values expanded ("4k,8k" -> "4096,8192,8192", all equal -> one), bssplit with
 * its percentages filled in and sorted, flags as "1". NULL when the value is fio's default for the option
 * (so that an explicit default equals an absent option). A value that does not parse is kept verbatim.
 */
char *fio_opt_value_canonical(const char *name, const char *value, unsigned kb_base);

#endif
