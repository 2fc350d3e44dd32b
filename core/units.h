/*
 * units: parsing of numbers with units as users write them: sizes ("4k", "1GiB", "256KB"), durations
 * ("90", "2m", "1h", "500ms"), percentages and plain integers, with full error checks.
 * These read what users type on bench's command line (--where bs=4k, --size 1.5g, CSV cells): powers of 1024
 * for k/m/g/t/p with or without "b"/"ib", decimals allowed. They are not fio's rules: fio options (job
 * files, fio JSON, stored workloads) are read by core/fio_options.h only, which knows kb_base and KiB.
 */
#ifndef BENCH_CORE_UNITS_H
#define BENCH_CORE_UNITS_H

#include <stdint.h>

/* Returns 0 and sets *out, or -1 when s is not a valid size. */
int parse_size(const char *s, uint64_t *out);
/* Duration in seconds; a bare number is seconds (`default_unit_s` multiplies it, e.g. 1). -1 on error. */
int parse_duration_s(const char *s, double *out);
/* Whole number in [min, max]; -1 on error. */
int parse_long(const char *s, long min, long max, long *out);
/* Decimal number (strtod, whole string); -1 on error. */
int parse_double(const char *s, double *out);
/* "5", "5%" or "2.5" strictly between lo and hi (percent) -> a fraction (0.05); -1 on error. */
int parse_percent_fraction(const char *s, double lo, double hi, double *out);

/*
 * A network rate as tc takes and prints it (tc(8) "RATES"): a decimal number and bit, kbit, mbit, gbit or tbit
 * in any case ("1gbit", "500Mbit", "8bit": powers of 1000), bits per second. *end (may be NULL) is set past the
 * unit; the caller says what may follow. -1 when s starts with no positive number and unit.
 */
int parse_bit_rate(const char *s, double *bps, const char **end);

/* Milliseconds since the epoch as UTC text "2026-12-01T20:34:51.950Z" (the store's form of times). buf >= 32. */
const char *format_utc_ms(int64_t epoch_ms, char *buf, unsigned long len);

/* "4k", "256k", "1m", "512" (bytes): the short form HCIbench names use. buf >= 32 bytes. */
const char *format_size_short(uint64_t bytes, char *buf, unsigned long len);

#endif
