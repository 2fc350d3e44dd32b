/*
 * sha256: the SHA-256 digest (FIPS 180-4), written here so that bench needs no crypto library for the one
 * thing it hashes: the content of imported files, to tell a file imported again (bench import, import/import.h).
 * Not for secrets: no constant-time concerns.
 */
#ifndef BENCH_CORE_SHA256_H
#define BENCH_CORE_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct sha256 {
	uint32_t h[8];
	uint64_t len_bytes;      /* bytes hashed so far */
	unsigned char buf[64];   /* a block being filled */
	size_t nbuf;
};

void sha256_init(struct sha256 *c);
void sha256_update(struct sha256 *c, const void *data, size_t len);
/* The digest as 64 lower-case hex digits and a NUL; c is spent. */
void sha256_hex(struct sha256 *c, char hex[65]);

#endif
