/*
 * json_print: a cJSON tree written into a strbuf, for the renderers that build JSON with cJSON (the gate's
 * and the trend's --format json). A leaf of report/: it uses nothing of report/.
 */
#ifndef BENCH_REPORT_JSON_PRINT_H
#define BENCH_REPORT_JSON_PRINT_H

#include <cjson/cJSON.h>

#include "core/strbuf.h"

/* Appends root printed by cJSON_Print (formatted) and a newline to out (nothing when cJSON cannot print it),
 * then cJSON_Delete()s root. */
void json_print_delete(struct strbuf *out, cJSON *root);

#endif
