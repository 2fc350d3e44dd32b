/*
 * replay_main: a stand-in for libFuzzer's driver so that every fuzz target (tests/fuzz/fuzz_<name>.c) builds with
 * gcc as a plain program and runs in ctest as a regression test. It calls LLVMFuzzerTestOneInput on every file
 * named on the command line (directories are walked, recursively, in name order; dot files are skipped) and on a
 * fixed set of deterministic mutations of each:
 *   - truncations: the file cut at every `step` bytes (step = size / 48, at least 1);
 *   - `-n N` random mutations (default 48): 1 to 4 edits each from a seeded PRNG (xorshift64*, seed -s, default 1,
 *     mixed with the file's base name so a file's mutations do not depend on the order of the arguments): bit
 *     flips, bytes replaced or inserted from a list of troublemakers (NUL, quotes, newlines, separators, braces,
 *     digits), ranges deleted or duplicated, numbers replaced by huge, negative or non-finite ones.
 * Each input is passed in a malloc'd buffer of exactly its size (no terminating NUL), as libFuzzer does, so a parser
 * that reads past the length it was given is caught by AddressSanitizer.
 *
 * Compiled with -DREPLAY_SELECTORS=K, every input is run K times with a first byte 0..K-1 prepended: for targets
 * whose first byte picks the reader (fuzz_profiles.c).
 *
 * With -l (sanitizer builds) a leak check runs after every input, so a leak is blamed on the input that caused it.
 * On a crash (signal, or a sanitizer report when built with one) the input being run is written to
 * ./crash-<target>-<pid> and its origin (file, mutation number) is printed to stderr, so it can be added to
 * tests/fuzz/corpus/<name>/. Exit status 0 when every input ran, 2 for bad usage or an unreadable path.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef REPLAY_SELECTORS
#define REPLAY_SELECTORS 0
#endif

#if defined(__SANITIZE_ADDRESS__)
#define REPLAY_HAVE_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define REPLAY_HAVE_SANITIZER 1
#endif
#endif
#ifdef REPLAY_HAVE_SANITIZER
void __sanitizer_set_death_callback(void (*callback)(void));
int __lsan_do_recoverable_leak_check(void);
const char *__ubsan_default_options(void);

/* UBSan stops with abort() (the SIGABRT handler below then names the input) instead of a plain exit. */
const char *__ubsan_default_options(void)
{
	return "print_stacktrace=1:abort_on_error=1";
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What is running now, for the crash report. */
static const char *prog_name = "fuzz";
static const char *cur_file;
static long cur_mutation = -1; /* -1: the file itself; < -1: truncation at -(cur_mutation + 2) bytes */
static const uint8_t *cur_data;
static size_t cur_size;

static uint64_t nruns;
static int leak_check_each; /* -l */
static void report_crash(void);

/* After an input: with -l in a sanitizer build, a leak check that names the input which leaked. */
static void after_input(void)
{
#ifdef REPLAY_HAVE_SANITIZER
	if (leak_check_each && __lsan_do_recoverable_leak_check()) {
		report_crash();
		_exit(1);
	}
#endif
}

static void put_str(const char *s)
{
	size_t n = strlen(s);
	while (n) {
		ssize_t w = write(2, s, n);
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

static void put_num(long v)
{
	char buf[32];
	int i = (int)sizeof(buf) - 1;
	int neg = v < 0;
	unsigned long u = neg ? 0UL - (unsigned long)v : (unsigned long)v;

	buf[i] = '\0';
	do {
		buf[--i] = (char)('0' + u % 10);
		u /= 10;
	} while (u && i > 1);
	if (neg)
		buf[--i] = '-';
	put_str(buf + i);
}

/* Only async-signal-safe calls: it also runs from a signal handler. */
static void report_crash(void)
{
	char path[128];
	const char *base = strrchr(prog_name, '/');
	size_t n = 0;
	int fd;

	if (!cur_file)
		return;
	base = base ? base + 1 : prog_name;
	/* "crash-<base>-<pid>" without snprintf */
	{
		const char *pre = "crash-";
		char digits[24];
		int i = (int)sizeof(digits) - 1;
		unsigned long pid = (unsigned long)getpid();
		digits[i] = '\0';
		do {
			digits[--i] = (char)('0' + pid % 10);
			pid /= 10;
		} while (pid && i > 0);
		for (const char *s = pre; *s && n < sizeof(path) - 1; s++)
			path[n++] = *s;
		for (const char *s = base; *s && n < sizeof(path) - 1; s++)
			path[n++] = *s;
		if (n < sizeof(path) - 1)
			path[n++] = '-';
		for (const char *s = digits + i; *s && n < sizeof(path) - 1; s++)
			path[n++] = *s;
		path[n] = '\0';
	}
	put_str("replay: crash on input from '");
	put_str(cur_file);
	if (cur_mutation == -1) {
		put_str("' (unmodified)");
	} else if (cur_mutation < -1) {
		put_str("' truncated to ");
		put_num(-(cur_mutation + 2));
		put_str(" bytes");
	} else {
		put_str("' mutation ");
		put_num(cur_mutation);
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd >= 0) {
		size_t off = 0;
		while (off < cur_size) {
			ssize_t w = write(fd, cur_data + off, cur_size - off);
			if (w <= 0)
				break;
			off += (size_t)w;
		}
		close(fd);
		put_str("; input written to ");
		put_str(path);
	}
	put_str("\n");
}

static void on_signal(int sig)
{
	report_crash();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* xorshift64* */
static uint64_t rng_next(uint64_t *s)
{
	uint64_t x = *s;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1DULL;
}

static size_t rng_below(uint64_t *s, size_t n)
{
	return n ? (size_t)(rng_next(s) % n) : 0;
}

static void *xmalloc_or_die(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p) {
		fprintf(stderr, "replay: out of memory\n");
		exit(70);
	}
	return p;
}

/* Runs one input (with every selector byte when REPLAY_SELECTORS > 0) in an exactly sized buffer. */
static void run_one(const uint8_t *data, size_t size)
{
#if REPLAY_SELECTORS > 0
	for (unsigned k = 0; k < REPLAY_SELECTORS; k++) {
		uint8_t *buf = xmalloc_or_die(size + 1);
		buf[0] = (uint8_t)k;
		if (size)
			memcpy(buf + 1, data, size);
		cur_data = buf;
		cur_size = size + 1;
		LLVMFuzzerTestOneInput(buf, size + 1);
		after_input();
		nruns++;
		cur_data = NULL;
		free(buf);
	}
#else
	uint8_t *buf = xmalloc_or_die(size);
	if (size)
		memcpy(buf, data, size);
	cur_data = buf;
	cur_size = size;
	LLVMFuzzerTestOneInput(buf, size);
	after_input();
	nruns++;
	cur_data = NULL;
	free(buf);
#endif
}

static const char troublemakers[] = { '\0', '"', '\'', '\n', '\r', ',', ';', '=', '{', '}', '[', ']', ' ', '\t',
				      '\\', '-', '0', '9', '.', ':', '#', '<', '*', '/', (char)0xff, (char)0x80 };
static const char *const numbers[] = { "99999999999999999999999", "-1", "-9223372036854775808", "nan", "inf",
				       "1e309", "-0", "4294967296", "18446744073709551616", "0x", "1e-400", "" };

/* The length of a range of 1 to MAX bytes (one draw of RNG, always made) at POS of N bytes, cut at the end;
 * 0 when POS is the end. */
static size_t range_len(uint64_t *rng, size_t max, size_t pos, size_t n)
{
	size_t l = 1 + rng_below(rng, max);

	if (pos >= n)
		return 0;
	return l > n - pos ? n - pos : l;
}

/* One random edit of buf (length *len, capacity cap); keeps *len <= cap. */
static void mutate_once(uint64_t *rng, uint8_t *buf, size_t *len, size_t cap)
{
	size_t n = *len, pos = rng_below(rng, n + 1);

	switch (rng_below(rng, 7)) {
	case 0: /* flip a bit */
		if (n)
			buf[pos % n] ^= (uint8_t)(1u << rng_below(rng, 8));
		break;
	case 1: /* overwrite a byte */
		if (n)
			buf[pos % n] = (uint8_t)troublemakers[rng_below(rng, sizeof(troublemakers))];
		break;
	case 2: /* insert a byte */
		if (n < cap) {
			memmove(buf + pos + 1, buf + pos, n - pos);
			buf[pos] = (uint8_t)troublemakers[rng_below(rng, sizeof(troublemakers))];
			*len = n + 1;
		}
		break;
	case 3: { /* delete a range */
		size_t l = range_len(rng, 16, pos, n);
		if (l) {
			memmove(buf + pos, buf + pos + l, n - pos - l);
			*len = n - l;
		}
		break;
	}
	case 4: { /* duplicate a range */
		size_t l = range_len(rng, 64, pos, n);
		if (l && n + l <= cap) {
			memmove(buf + pos + l, buf + pos, n - pos);
			*len = n + l;
		}
		break;
	}
	case 5: { /* replace a number (run of digits) with an awkward one */
		const char *num = numbers[rng_below(rng, sizeof(numbers) / sizeof(numbers[0]))];
		size_t s = pos, e, nl = strlen(num);
		while (s < n && !(buf[s] >= '0' && buf[s] <= '9'))
			s++;
		if (s >= n)
			break;
		e = s;
		while (e < n && ((buf[e] >= '0' && buf[e] <= '9') || buf[e] == '.'))
			e++;
		if (n - (e - s) + nl > cap)
			break;
		memmove(buf + s + nl, buf + e, n - e);
		memcpy(buf + s, num, nl);
		*len = n - (e - s) + nl;
		break;
	}
	default: { /* cut the line here: newline or NUL */
		if (n < cap) {
			memmove(buf + pos + 1, buf + pos, n - pos);
			buf[pos] = rng_below(rng, 2) ? '\n' : '\0';
			*len = n + 1;
		}
		break;
	}
	}
}

static uint64_t name_hash(const char *path)
{
	const char *b = strrchr(path, '/');
	uint64_t h = 1469598103934665603ULL;

	for (const char *s = b ? b + 1 : path; *s; s++)
		h = (h ^ (uint8_t)*s) * 1099511628211ULL;
	return h;
}

static int read_all(const char *path, uint8_t **out, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t n = 0, cap = 0;

	if (!f)
		return -1;
	for (;;) {
		size_t r;
		if (n == cap) {
			uint8_t *nb;
			cap = cap ? cap * 2 : 65536;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				return -1;
			}
			buf = nb;
		}
		r = fread(buf + n, 1, cap - n, f);
		n += r;
		if (r == 0)
			break;
	}
	if (ferror(f)) {
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	*out = buf;
	*len = n;
	return 0;
}

static unsigned long nmut = 48;
static uint64_t seed = 1;
static size_t max_size = 1 << 20;
static unsigned long nfiles;

static int replay_file(const char *path)
{
	uint8_t *data, *buf;
	size_t len, cap, step;
	uint64_t rng;

	if (read_all(path, &data, &len) < 0) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	nfiles++;
	if (len > max_size)
		len = max_size;
	cur_file = path;
	cur_mutation = -1;
	run_one(data, len);
	step = len / 48 ? len / 48 : 1;
	for (size_t t = 0; t < len; t += step) {
		cur_mutation = -(long)t - 2;
		run_one(data, t);
	}
	cap = len + 256;
	buf = xmalloc_or_die(cap);
	rng = (seed * 0x9E3779B97F4A7C15ULL) ^ name_hash(path);
	if (!rng)
		rng = 1;
	for (unsigned long m = 0; m < nmut; m++) {
		size_t l = len;
		unsigned edits = 1 + (unsigned)rng_below(&rng, 4);
		if (len)
			memcpy(buf, data, len);
		for (unsigned e = 0; e < edits; e++)
			mutate_once(&rng, buf, &l, cap);
		cur_mutation = (long)m;
		run_one(buf, l);
	}
	free(buf);
	free(data);
	cur_file = NULL;
	return 0;
}

static int skip_entry(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

static int replay_path(const char *path)
{
	struct stat st;
	struct dirent **ents;
	int n, rc = 0;

	if (stat(path, &st) != 0) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode))
		return S_ISREG(st.st_mode) ? replay_file(path) : 0;
	n = scandir(path, &ents, skip_entry, alphasort);
	if (n < 0) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	for (int i = 0; i < n; i++) {
		size_t l = strlen(path) + strlen(ents[i]->d_name) + 2;
		char *child = xmalloc_or_die(l);
		snprintf(child, l, "%s/%s", path, ents[i]->d_name);
		if (replay_path(child) < 0)
			rc = -1;
		free(child);
		free(ents[i]);
	}
	free(ents);
	return rc;
}

static int parse_ulong(const char *s, unsigned long *out)
{
	char *end;
	errno = 0;
	*out = strtoul(s, &end, 10);
	return errno || end == s || *end || s[0] == '-' ? -1 : 0;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: %s [-n MUTATIONS] [-s SEED] [-m MAX_BYTES] [-l] FILE|DIR...\n"
		   "Runs the fuzz target on every file (directories are walked) and on MUTATIONS (default 48)\n"
		   "deterministic mutations plus truncations of each; SEED (default 1) picks the mutations.\n"
		   "-l: in a sanitizer build, check for leaks after every input and name the one that leaked (slow).\n",
		prog_name);
}

int main(int argc, char **argv)
{
	int opt, rc = 0;
	unsigned long v;
	struct timespec t0, t1;

	prog_name = argv[0];
	while ((opt = getopt(argc, argv, "n:s:m:lh")) != -1) {
		switch (opt) {
		case 'n':
			if (parse_ulong(optarg, &nmut) < 0)
				goto bad;
			break;
		case 's':
			if (parse_ulong(optarg, &v) < 0)
				goto bad;
			seed = v;
			break;
		case 'm':
			if (parse_ulong(optarg, &v) < 0 || v == 0)
				goto bad;
			max_size = v;
			break;
		case 'l':
			leak_check_each = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			goto bad;
		}
	}
	if (optind >= argc)
		goto bad;
	signal(SIGABRT, on_signal);
#ifdef REPLAY_HAVE_SANITIZER
	/* AddressSanitizer reports SIGSEGV and the like itself, then calls this */
	__sanitizer_set_death_callback(report_crash);
#else
	signal(SIGSEGV, on_signal);
	signal(SIGFPE, on_signal);
	signal(SIGBUS, on_signal);
	signal(SIGILL, on_signal);
#endif
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int i = optind; i < argc; i++)
		if (replay_path(argv[i]) < 0)
			rc = 2;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("replay: %lu files, %llu inputs, %.2f s\n", nfiles, (unsigned long long)nruns,
	       (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	if (!nfiles) {
		fprintf(stderr, "replay: no input files\n");
		rc = 2;
	}
	return rc;
bad:
	usage(stderr);
	return 2;
}
