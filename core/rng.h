/*
 * rng: the two generators bench's random numbers come from, in one place: splitmix64 (seeding) and
 * xoshiro256** (the stream). Self-contained (no other bench file), so the sim ioengine compiles it in too.
 */
#ifndef BENCH_CORE_RNG_H
#define BENCH_CORE_RNG_H

#include <stdint.h>

/* splitmix64: advances *x and returns the next 64-bit value (fills xoshiro states from one seed). */
uint64_t rng_splitmix64(uint64_t *x);
/* xoshiro256**: advances the state s[0..4) and returns the next 64-bit value. */
uint64_t rng_xoshiro256ss(uint64_t s[4]);

#endif
