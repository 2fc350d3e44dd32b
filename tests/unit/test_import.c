/*
 * test_import: import_batch_finish (import/import.c), what bench import's reader thread does to a batch before
 * it is stored: the command's labels over the batch's suite labels, those under each new run's own labels, a
 * seq for runs without one, the spec's JSON; runs that attach to an existing run left as they are.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "import/import.h"
#include "core/spec_json.h"
#include "core/strbuf.h"

static void test_finish(void **state)
{
	struct import_batch b;
	struct kvlist cmd;
	struct imported_run *r;
	char *json;

	(void)state;
	import_batch_init(&b);
	kvlist_init(&cmd);
	kvlist_set(&b.suite_labels, "stack", "file");
	kvlist_set(&b.suite_labels, "host", "a");
	kvlist_set(&cmd, "stack", "cli");   /* the command's label wins over the file's suite label */
	r = import_batch_add(&b);
	r->spec.name = xstrdup("one");
	kvlist_set(&r->spec.labels, "host", "b"); /* the run's own label wins over the suite's */
	r = import_batch_add(&b);
	r->spec.name = xstrdup("two");
	r->spec.seq = 7;
	r = import_batch_add(&b);
	r->target_run_id = 12; /* a log attached to run 12: untouched */

	import_batch_finish(&b, &cmd);
	assert_string_equal(kvlist_get(&b.suite_labels, "stack", ""), "cli");
	assert_string_equal(kvlist_get(&b.suite_labels, "host", ""), "a");
	r = &b.runs[0];
	assert_string_equal(kvlist_get(&r->spec.labels, "stack", ""), "cli");
	assert_string_equal(kvlist_get(&r->spec.labels, "host", ""), "b");
	assert_int_equal(r->spec.seq, 1);
	assert_non_null(r->spec_json);
	json = run_spec_to_json(&r->spec);
	assert_string_equal(r->spec_json, json);
	free(json);
	assert_int_equal(b.runs[1].spec.seq, 7);
	assert_string_equal(kvlist_get(&b.runs[1].spec.labels, "host", ""), "a");
	assert_non_null(b.runs[1].spec_json);
	assert_int_equal(b.runs[2].spec.labels.n, 0);
	assert_null(b.runs[2].spec_json);

	import_batch_finish(&b, NULL); /* again, no command labels: the JSON made anew, nothing leaks */
	assert_non_null(b.runs[0].spec_json);
	kvlist_release(&cmd);
	import_batch_release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_finish),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
