/*
 * test_sha256: core/sha256.c against the FIPS 180-4 / NIST example vectors (empty, "abc", the 448-bit and
 * 896-bit messages, a million 'a's fed in uneven pieces) and across the padding edges (55, 56, 63, 64 bytes).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "core/sha256.h"
#include "testutil.h"

static void digest_of(const char *s, size_t len, char hex[65])
{
	struct sha256 c;

	sha256_init(&c);
	sha256_update(&c, s, len);
	sha256_hex(&c, hex);
}

static void test_vectors(void **state)
{
	static const char *const cases[][2] = {
		{ "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
		{ "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
		{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
		{ "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrs"
		  "mnopqrstnopqrstu",
		  "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1" },
	};
	char hex[65];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		digest_of(cases[i][0], strlen(cases[i][0]), hex);
		assert_string_equal(hex, cases[i][1]);
	}
}

static void test_million_a(void **state)
{
	char chunk[997], hex[65];
	size_t left = 1000000;
	struct sha256 c;

	(void)state;
	memset(chunk, 'a', sizeof(chunk));
	sha256_init(&c);
	for (size_t k = 1; left; k = k % 984 + 13) { /* 13..996 bytes */ /* pieces of many sizes, across block edges */
		size_t n = k < left ? k : left;
		sha256_update(&c, chunk, n);
		left -= n;
	}
	sha256_hex(&c, hex);
	assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

/* Lengths at the padding edges: one piece or byte by byte, the same digest. */
static void test_pieces(void **state)
{
	static const size_t lens[] = { 55, 56, 57, 63, 64, 65, 119, 120, 128 };
	char msg[128], a[65], b[65];

	(void)state;
	for (size_t i = 0; i < sizeof(msg); i++)
		msg[i] = (char)('A' + i % 26);
	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		struct sha256 c;

		digest_of(msg, lens[i], a);
		sha256_init(&c);
		for (size_t k = 0; k < lens[i]; k++)
			sha256_update(&c, msg + k, 1);
		sha256_hex(&c, b);
		assert_string_equal(a, b);
	}
	digest_of(msg, 55, a);
	digest_of(msg, 56, b);
	assert_string_not_equal(a, b);
}

TU_MAIN(cmocka_unit_test(test_vectors), cmocka_unit_test(test_million_a), cmocka_unit_test(test_pieces))
