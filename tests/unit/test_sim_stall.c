/*
 * test_sim_stall: the sim model's injected stall (sim_stall=START:LEN[:FACTOR][@WHERE], issue 13): device time
 * multiplied inside the window after the first IO, untouched outside it and where the working directory does
 * not contain WHERE; malformed values are refused with the option's name.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "engines/sim/sim_model.c" /* as test_sim_model.c: the model is built into the .so only */

/* Completion time minus submission of one IO submitted at now on an idle device. */
static double service(struct sim_model *m, double now)
{
	return sim_model_submit(m, now, SIM_READ, 0, 4096) - now;
}

static void test_stall_window(void **state)
{
	struct sim_config c;
	struct sim_model *m;
	char err[256];

	(void)state;
	sim_config_defaults(&c); /* fixed 100 us */
	assert_int_equal(sim_config_set(&c, "stall", "1ms:2ms:10", err, sizeof(err)), 0);
	m = sim_model_new(&c, 1, err, sizeof(err));
	assert_non_null(m);
	assert_true(service(m, 1e9) == 100e3);            /* first IO: t = 0 of the stall clock */
	assert_true(service(m, 1e9 + 0.5e6) == 100e3);    /* before START */
	assert_true(service(m, 1e9 + 1.5e6) == 1000e3);   /* inside: x10 */
	assert_true(service(m, 1e9 + 10e6) == 100e3);     /* after START + LEN */
	sim_model_free(m);

	/* @WHERE not in the working directory: no stall on this "host" */
	assert_int_equal(sim_config_set(&c, "stall", "1ms:2ms@no-such-host-dir-xyz", err, sizeof(err)), 0);
	m = sim_model_new(&c, 1, err, sizeof(err));
	assert_non_null(m);
	assert_true(service(m, 1e9) == 100e3);
	assert_true(service(m, 1e9 + 1.5e6) == 100e3);
	sim_model_free(m);

	/* default factor 20 */
	assert_int_equal(sim_config_set(&c, "stall", "0s:1s", err, sizeof(err)), 0);
	assert_true(c.stall_factor == 20 && c.stall_where[0] == '\0');

	assert_int_equal(sim_config_set(&c, "stall", "4s", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "sim_stall"));
	assert_int_equal(sim_config_set(&c, "stall", "4s:2s:0.5", err, sizeof(err)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_stall_window) };
	return cmocka_run_group_tests(tests, NULL, NULL);
}
