/*
 * method_labels: the one list of the measurement method's labels (docs/method.md) and the two questions asked
 * of it: is a label the method's (never a group key of a table or a curve's configuration), and does it name
 * a point of a curve or sweep (see method_labels.h).
 */
#include "report/method_labels.h"

#include <stddef.h>
#include <string.h>

/*
 * The labels of the measurement method (docs/method.md), the one list: a key, or a prefix (ending in '.', or
 * "fio.ss" for fio.ss and fio.ss.*), and whether it names a point of a curve or sweep (where a run stands in
 * it) rather than a phase or a result of the method. The first entry that matches a key decides.
 */
static const struct method_label {
	const char *key;
	int prefix;
	int point;
} method_labels[] = {
	{ "curve_pct", 0, 1 },     { "vdbench.curve_pct", 0, 1 }, { "curve.target_iops", 0, 1 },
	{ "sweep.", 1, 1 },        { "curve.", 1, 0 },            { "ss_round", 0, 0 },
	{ "steady_state", 0, 0 },  { "ss.", 1, 0 },               { "precondition", 0, 0 },
	{ "precondition.", 1, 0 }, { "fio.ss", 1, 0 },
};

static const struct method_label *method_label(const char *key)
{
	for (size_t i = 0; i < sizeof(method_labels) / sizeof(method_labels[0]); i++) {
		const struct method_label *m = &method_labels[i];

		if (m->prefix ? !strncmp(key, m->key, strlen(m->key)) : !strcmp(key, m->key))
			return m;
	}
	return NULL;
}

int rep_label_is_method(const char *key)
{
	return method_label(key) != NULL;
}

int rep_label_is_curve_point(const char *key)
{
	const struct method_label *m = method_label(key);

	return m && m->point;
}
