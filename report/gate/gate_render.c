/*
 * gate_render: the gate's outputs - the terminal table, Markdown (CI job summary, pull-request comment),
 * JUnit XML, JSON with the raw samples - and the next steps under a failing gate. Everything user-given is
 * escaped for its format (report/text/escape.h).
 */
#include "report/gate/gate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "report/text/escape.h"
#include "report/gate/gate_fmt.h"
#include "report/text/json_print.h"

/* ---- formatting helpers ------------------------------------------------------------------------------ */

void gate_fmt_value(char *buf, size_t len, double v)
{
	double a = fabs(v);

	if (isnan(v))
		snprintf(buf, len, "-");
	else if (a >= 1000)
		snprintf(buf, len, "%.0f", v);
	else if (a >= 10)
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "%.3g", v);
}

void gate_fmt_pct(char *buf, size_t len, double ratio)
{
	if (isnan(ratio))
		snprintf(buf, len, "-");
	else if (isinf(ratio) || ratio <= 0)
		snprintf(buf, len, "%s", ratio <= 0 ? "-100%" : "+inf");
	else
		snprintf(buf, len, "%+.1f%%", (ratio - 1) * 100);
}

void gate_fmt_interval(char *buf, size_t len, const struct gate_cell *c)
{
	char lo[32], hi[32];

	if (isnan(c->ratio_lo)) {
		snprintf(buf, len, "-");
		return;
	}
	if (c->ratio_lo <= 0 && isinf(c->ratio_hi)) {
		snprintf(buf, len, "unbounded");
		return;
	}
	gate_fmt_pct(lo, sizeof(lo), c->ratio_lo);
	gate_fmt_pct(hi, sizeof(hi), c->ratio_hi);
	snprintf(buf, len, "[%s, %s]", lo, hi);
}

void gate_fmt_q(char *buf, size_t len, double q)
{
	if (isnan(q))
		snprintf(buf, len, "-");
	else if (q < 0.001)
		snprintf(buf, len, "<0.001");
	else
		snprintf(buf, len, "%.3f", q);
}

size_t gate_count_valid(const struct gate_side *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->n; i++)
		n += !s->runs[i].invalid;
	return n;
}

static void summary_line(const struct gate *g, struct strbuf *out)
{
	strbuf_addf(out, "%zu regression%s, %zu improvement%s, %zu equivalent, %zu inconclusive, %zu invalid",
		    g->count[GATE_REGRESSION], g->count[GATE_REGRESSION] == 1 ? "" : "s",
		    g->count[GATE_IMPROVEMENT], g->count[GATE_IMPROVEMENT] == 1 ? "" : "s",
		    g->count[GATE_EQUIVALENT], g->count[GATE_INCONCLUSIVE], g->count[GATE_INVALID]);
}

/* Which intervals the judged cells used: "t intervals" (below 10 runs), "rank intervals" or both; the
 * 20%-trimmed ones (a cell with an outlier) named after them. */
static const char *method_text(const struct gate *g)
{
	int t = 0, rank = 0, trim = 0;

	for (size_t i = 0; i < g->ncells; i++)
		if (g->cells[i].method) {
			if (!strcmp(g->cells[i].method, "yuen-t") || !strcmp(g->cells[i].method, "trimmed-t"))
				trim = 1;
			else if (strstr(g->cells[i].method, "-t"))
				t = 1;
			else
				rank = 1;
		}
	if (trim)
		return g->opts.paired ? (rank ? "paired t (20%-trimmed for outliers) and signed-rank intervals"
					      : "paired t intervals (20%-trimmed for outliers)")
				      : (rank ? "Welch t (Yuen's trimmed for outliers) and Mann-Whitney intervals"
					      : "Welch t intervals (Yuen's trimmed for outliers)");
	if (t && rank)
		return g->opts.paired ? "paired t and signed-rank intervals" : "Welch t and Mann-Whitney intervals";
	if (rank || (!t && g->opts.method == GATE_METHOD_RANK))
		return g->opts.paired ? "signed-rank intervals" : "Mann-Whitney intervals";
	return g->opts.paired ? "paired t intervals" : "Welch t intervals";
}

static void settings_line(const struct gate *g, struct strbuf *out)
{
	unsigned mask = g->opts.judged ? g->opts.judged : GATE_JUDGE_DEFAULT;
	int first = 1;

	strbuf_adds(out, "judged: ");
	for (int k = 0; k < GG_NR; k++)
		if (mask >> k & 1) {
			double t = g->opts.group_threshold[k] > 0 ? g->opts.group_threshold[k] : g->opts.threshold;
			strbuf_addf(out, "%s%s +-%g%%", first ? "" : ", ", gate_group_name((enum gate_group)k), t * 100);
			first = 0;
		}
	if (g->ninfo)
		strbuf_addf(out, " (%zu more cells shown as information)", g->ninfo);
	strbuf_adds(out, "; ");
	strbuf_addf(out, "threshold +-%g%%, %g%% intervals", g->opts.threshold * 100, g->opts.conf * 100);
	if (!isnan(g->conf_achieved_min) && g->conf_achieved_min > g->opts.conf + 1e-9)
		strbuf_addf(out, " (achieved >= %.1f%%)", g->conf_achieved_min * 100);
	strbuf_addf(out, ", %s, %s, Benjamini-Hochberg over %zu cells, at least %u valid runs per side",
		    g->opts.paired ? "paired by repetition" : "independent runs", method_text(g),
		    g->ncells - g->ninfo - g->count[GATE_INVALID], gate_min_runs(&g->opts));
}


/*
 * The excluded runs with their reasons, then the notes (workloads on one side, runs' steady state, ...), one
 * line each, escaped by esc: "<exc>baseline run 12 (name, repetition 1): reason" and "<note>text";
 * `first` before the first line. Returns the number of lines.
 */
static size_t emit_runs_and_notes(const struct gate *g, struct strbuf *out, void (*esc)(struct strbuf *, const char *),
				  const char *exc, const char *note, const char *first)
{
	size_t n = 0;

	for (int side = 0; side < 2; side++) {
		const struct gate_side *s = side ? g->cand : g->base;
		for (size_t i = 0; s && i < s->n; i++) {
			if (!s->runs[i].invalid)
				continue;
			strbuf_addf(out, "%s%s%s run %lld (", n++ ? "" : first, exc, side ? "candidate" : "baseline",
				    (long long)s->runs[i].id);
			esc(out, s->runs[i].name);
			strbuf_addf(out, ", repetition %u): ", s->runs[i].repetition);
			esc(out, s->runs[i].invalid);
			strbuf_addc(out, '\n');
		}
	}
	for (size_t i = 0; i < g->nnotes; i++) {
		strbuf_addf(out, "%s%s", n++ ? "" : first, note);
		esc(out, g->notes[i]);
		strbuf_addc(out, '\n');
	}
	return n;
}

/* ---- text ------------------------------------------------------------------------------------------------ */


void gate_text_cell(struct strbuf *sb, const char *s)
{
	strbuf_reset(sb);
	esc_text(sb, s);
}

/*
 * Prints rows (the first is the header) as aligned columns; bit k of right_mask right-aligns column k.
 * The last column is not padded. Frees the strings.
 */
void gate_emit_table(struct strbuf *out, struct gate_trow *rows, size_t nrows, int ncols, unsigned right_mask)
{
	size_t width[GATE_TCOLS] = { 0 };

	for (size_t i = 0; i < nrows; i++)
		for (int k = 0; k < ncols; k++)
			if (strlen(rows[i].col[k]) > width[k])
				width[k] = strlen(rows[i].col[k]);
	for (size_t i = 0; i < nrows; i++) {
		for (int k = 0; k < ncols; k++) {
			int right = (right_mask >> k) & 1;
			size_t l = strlen(rows[i].col[k]);
			if (right)
				for (size_t s = l; s < width[k]; s++)
					strbuf_addc(out, ' ');
			strbuf_adds(out, rows[i].col[k]);
			if (k == ncols - 1)
				break;
			if (!right)
				for (size_t s = l; s < width[k]; s++)
					strbuf_addc(out, ' ');
			strbuf_adds(out, "  ");
		}
		while (out->len && out->buf[out->len - 1] == ' ')
			out->buf[--out->len] = '\0';
		strbuf_addc(out, '\n');
		for (int k = 0; k < ncols; k++)
			free(rows[i].col[k]);
	}
}

char *gate_metric_label(const struct gate_metric_info *mi)
{
	return mi->unit[0] ? xasprintf("%s (%s)", mi->title, mi->unit) : xstrdup(mi->title);
}

void gate_render_text(const struct gate *g, struct strbuf *out)
{
	static const char *const head[GATE_TCOLS] = { "VERDICT", "WORKLOAD", "METRIC", "BASELINE", "CANDIDATE", "CHANGE",
						 "INTERVAL", "q", "RUNS", "NOTE" };
	struct gate_trow *rows = xcalloc(g->ncells + 1, sizeof(*rows));
	struct strbuf sb;

	strbuf_init(&sb);
	for (int k = 0; k < GATE_TCOLS; k++)
		rows[0].col[k] = xstrdup(head[k]);
	for (size_t i = 0; i < g->ncells; i++) {
		const struct gate_cell *c = &g->cells[i];
		const struct gate_metric_info *mi = gate_metric_info(c->metric);
		char b[64], k[64], ch[64], iv[96], q[32], n[32];

		gate_fmt_value(b, sizeof(b), c->base_median * mi->scale);
		gate_fmt_value(k, sizeof(k), c->cand_median * mi->scale);
		gate_fmt_pct(ch, sizeof(ch), c->ratio);
		gate_fmt_interval(iv, sizeof(iv), c);
		gate_fmt_q(q, sizeof(q), c->q);
		snprintf(n, sizeof(n), "%zu/%zu", c->nbase, c->ncand);
		rows[i + 1].col[0] = xstrdup(gate_verdict_name(c->verdict));
		gate_text_cell(&sb, c->workload);
		rows[i + 1].col[1] = xstrdup(sb.buf);
		rows[i + 1].col[2] = gate_metric_label(mi);
		rows[i + 1].col[3] = xstrdup(b);
		rows[i + 1].col[4] = xstrdup(k);
		rows[i + 1].col[5] = xstrdup(ch);
		rows[i + 1].col[6] = xstrdup(iv);
		rows[i + 1].col[7] = xstrdup(q);
		rows[i + 1].col[8] = xstrdup(n);
		gate_text_cell(&sb, c->note ? c->note : "");
		rows[i + 1].col[9] = xstrdup(sb.buf);
	}

	strbuf_adds(out, "baseline ");
	gate_text_cell(&sb, g->base ? g->base->selection : "");
	strbuf_addf(out, "'%s' (%zu runs, %zu valid), candidate ", sb.buf, g->base ? g->base->n : 0,
		    g->base ? gate_count_valid(g->base) : 0);
	gate_text_cell(&sb, g->cand ? g->cand->selection : "");
	strbuf_addf(out, "'%s' (%zu runs, %zu valid)\n", sb.buf, g->cand ? g->cand->n : 0,
		    g->cand ? gate_count_valid(g->cand) : 0);
	settings_line(g, out);
	strbuf_adds(out, "\n\n");
	gate_emit_table(out, rows, g->ncells + 1, GATE_TCOLS, (1u << 3) | (1u << 4) | (1u << 5) | (1u << 7) | (1u << 8));
	free(rows);

	emit_runs_and_notes(g, out, esc_text, "excluded: ", "note: ", "");
	gate_render_next_steps(g, out, 0);
	strbuf_addf(out, "gate: %s: ", gate_headline(g));
	summary_line(g, out);
	strbuf_addc(out, '\n');
	strbuf_release(&sb);
}

/* ---- markdown ---------------------------------------------------------------------------------------------- */

void gate_render_markdown(const struct gate *g, struct strbuf *out)
{
	strbuf_addf(out, "### bench gate: %s\n\n", gate_headline(g));
	summary_line(g, out);
	strbuf_adds(out, ". Baseline ");
	esc_markdown(out, g->base ? g->base->selection : "");
	strbuf_addf(out, " (%zu runs, %zu valid), candidate ", g->base ? g->base->n : 0,
		    g->base ? gate_count_valid(g->base) : 0);
	esc_markdown(out, g->cand ? g->cand->selection : "");
	strbuf_addf(out, " (%zu runs, %zu valid); ", g->cand ? g->cand->n : 0, g->cand ? gate_count_valid(g->cand) : 0);
	settings_line(g, out);
	strbuf_adds(out, ".\n\n");
	strbuf_addf(out, "| Verdict | Workload | Metric | Baseline | Candidate | Change | %g%% interval | q | Runs | Note |\n",
		    g->opts.conf * 100);
	strbuf_adds(out, "|---|---|---|---:|---:|---:|---|---:|---:|---|\n");
	for (size_t i = 0; i < g->ncells; i++) {
		const struct gate_cell *c = &g->cells[i];
		const struct gate_metric_info *mi = gate_metric_info(c->metric);
		char b[64], k[64], ch[64], iv[96], q[32];

		gate_fmt_value(b, sizeof(b), c->base_median * mi->scale);
		gate_fmt_value(k, sizeof(k), c->cand_median * mi->scale);
		gate_fmt_pct(ch, sizeof(ch), c->ratio);
		gate_fmt_interval(iv, sizeof(iv), c);
		gate_fmt_q(q, sizeof(q), c->q);
		strbuf_adds(out, "| ");
		if (gate_cell_fails(g, c) || c->verdict == GATE_INCONCLUSIVE)
			strbuf_addf(out, "**%s**", gate_verdict_name(c->verdict));
		else
			strbuf_adds(out, gate_verdict_name(c->verdict));
		strbuf_adds(out, " | ");
		esc_markdown(out, c->workload);
		strbuf_adds(out, " | ");
		esc_markdown(out, mi->title);
		if (mi->unit[0]) {
			strbuf_adds(out, " (");
			esc_markdown(out, mi->unit);
			strbuf_adds(out, ")");
		}
		strbuf_addf(out, " | %s | %s | %s | ", b, k, ch);
		esc_markdown(out, iv);
		strbuf_addf(out, " | ");
		esc_markdown(out, q);
		strbuf_addf(out, " | %zu/%zu | ", c->nbase, c->ncand);
		esc_markdown(out, c->note ? c->note : "");
		strbuf_adds(out, " |\n");
	}
	if (g->ncells == 0)
		strbuf_adds(out, "| - | - | - | - | - | - | - | - | - | no cells |\n");
	emit_runs_and_notes(g, out, esc_markdown, "- excluded ", "- ", "\n");
	gate_render_next_steps(g, out, 1);
}

/* ---- JUnit XML -------------------------------------------------------------------------------------------- */

static void xml_prop_num(struct strbuf *out, const char *name, double v)
{
	strbuf_addf(out, "        <property name=\"%s\" value=\"", name);
	if (isnan(v))
		strbuf_adds(out, "nan");
	else if (isinf(v))
		strbuf_adds(out, v > 0 ? "inf" : "-inf");
	else
		strbuf_addf(out, "%.6g", v);
	strbuf_adds(out, "\"/>\n");
}

static void cell_message(const struct gate_cell *c, struct strbuf *sb)
{
	const struct gate_metric_info *mi = gate_metric_info(c->metric);
	char ch[64], iv[96];

	gate_fmt_pct(ch, sizeof(ch), c->ratio);
	gate_fmt_interval(iv, sizeof(iv), c);
	strbuf_addf(sb, "%s: %s of %s", gate_verdict_name(c->verdict), mi->title, c->workload);
	if (!isnan(c->ratio))
		strbuf_addf(sb, " changed %s, interval %s, q %.3g, runs %zu/%zu", ch, iv, c->q, c->nbase, c->ncand);
	if (c->note)
		strbuf_addf(sb, "; %s", c->note);
}

void gate_render_junit(const struct gate *g, struct strbuf *out)
{
	size_t failures = 0, skipped = 0;
	struct strbuf sb;

	strbuf_init(&sb);
	for (size_t i = 0; i < g->ncells; i++) {
		enum gate_verdict v = g->cells[i].verdict;
		if (g->cells[i].info)
			continue; /* information (not in --metric): a passing testcase */
		if (v == GATE_REGRESSION || (v == GATE_INCONCLUSIVE && gate_cell_fails(g, &g->cells[i])))
			failures++;
		else if (v == GATE_INCONCLUSIVE || v == GATE_INVALID)
			skipped++;
	}
	strbuf_adds(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	strbuf_addf(out, "<testsuites name=\"bench gate\" tests=\"%zu\" failures=\"%zu\" skipped=\"%zu\" errors=\"0\">\n",
		    g->ncells, failures, skipped);
	strbuf_addf(out, "  <testsuite name=\"bench gate\" tests=\"%zu\" failures=\"%zu\" skipped=\"%zu\" errors=\"0\" "
			 "time=\"0\">\n", g->ncells, failures, skipped);
	strbuf_adds(out, "    <properties>\n      <property name=\"baseline\" value=\"");
	esc_xml_attr(out, g->base ? g->base->selection : "");
	strbuf_adds(out, "\"/>\n      <property name=\"candidate\" value=\"");
	esc_xml_attr(out, g->cand ? g->cand->selection : "");
	strbuf_addf(out, "\"/>\n      <property name=\"threshold\" value=\"%g\"/>\n", g->opts.threshold);
	strbuf_addf(out, "      <property name=\"confidence\" value=\"%g\"/>\n", g->opts.conf);
	strbuf_addf(out, "      <property name=\"outcome\" value=\"%s\"/>\n    </properties>\n", gate_headline(g));
	for (size_t i = 0; i < g->ncells; i++) {
		const struct gate_cell *c = &g->cells[i];
		const struct gate_metric_info *mi = gate_metric_info(c->metric);

		strbuf_adds(out, "    <testcase classname=\"");
		esc_xml_attr(out, c->workload);
		strbuf_adds(out, "\" name=\"");
		esc_xml_attr(out, mi->title);
		strbuf_adds(out, "\" time=\"0\">\n      <properties>\n");
		strbuf_addf(out, "        <property name=\"metric\" value=\"%s\"/>\n", mi->key);
		strbuf_addf(out, "        <property name=\"verdict\" value=\"%s\"/>\n", gate_verdict_name(c->verdict));
		strbuf_addf(out, "        <property name=\"judged\" value=\"%s\"/>\n", c->info ? "false" : "true");
		xml_prop_num(out, "ratio", c->ratio);
		xml_prop_num(out, "ci_low", c->ratio_lo);
		xml_prop_num(out, "ci_high", c->ratio_hi);
		xml_prop_num(out, "confidence", c->s.conf);
		xml_prop_num(out, "p", c->s.p);
		xml_prop_num(out, "q", c->q);
		strbuf_addf(out, "        <property name=\"n\" value=\"%zu/%zu\"/>\n", c->nbase, c->ncand);
		strbuf_addf(out, "        <property name=\"n_baseline\" value=\"%zu\"/>\n", c->nbase);
		strbuf_addf(out, "        <property name=\"n_candidate\" value=\"%zu\"/>\n", c->ncand);
		strbuf_adds(out, "      </properties>\n");
		strbuf_reset(&sb);
		cell_message(c, &sb);
		if (c->info) {
			/* shown, not judged */
		} else if (c->verdict == GATE_REGRESSION || (c->verdict == GATE_INCONCLUSIVE && gate_cell_fails(g, c))) {
			strbuf_addf(out, "      <failure type=\"%s\" message=\"", gate_verdict_name(c->verdict));
			esc_xml_attr(out, sb.buf);
			strbuf_adds(out, "\">");
			esc_xml_text(out, sb.buf);
			strbuf_adds(out, "</failure>\n");
		} else if (c->verdict == GATE_INCONCLUSIVE || c->verdict == GATE_INVALID) {
			strbuf_adds(out, "      <skipped message=\"");
			esc_xml_attr(out, sb.buf);
			strbuf_adds(out, "\"/>\n");
		}
		strbuf_adds(out, "    </testcase>\n");
	}
	/* the excluded runs (why: status, short, not at steady state) and the notes, as the other outputs list them */
	strbuf_reset(&sb);
	if (emit_runs_and_notes(g, &sb, esc_xml_text, "excluded: ", "note: ", "")) {
		strbuf_adds(out, "    <system-out>");
		strbuf_add(out, sb.buf, sb.len);
		strbuf_adds(out, "    </system-out>\n");
	}
	strbuf_adds(out, "  </testsuite>\n</testsuites>\n");
	strbuf_release(&sb);
}

/* ---- JSON -------------------------------------------------------------------------------------------------- */

static cJSON *num_or_null(double v)
{
	return isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

static cJSON *side_json(const struct gate_side *s)
{
	cJSON *o = cJSON_CreateObject(), *ex = cJSON_CreateArray();

	cJSON_AddStringToObject(o, "selection", s ? s->selection : "");
	cJSON_AddNumberToObject(o, "runs", s ? (double)s->n : 0);
	cJSON_AddNumberToObject(o, "valid_runs", s ? (double)gate_count_valid(s) : 0);
	for (size_t i = 0; s && i < s->n; i++) {
		cJSON *r;
		if (!s->runs[i].invalid)
			continue;
		r = cJSON_CreateObject();
		cJSON_AddNumberToObject(r, "run_id", (double)s->runs[i].id);
		cJSON_AddStringToObject(r, "name", s->runs[i].name);
		cJSON_AddNumberToObject(r, "repetition", s->runs[i].repetition);
		cJSON_AddStringToObject(r, "reason", s->runs[i].invalid);
		cJSON_AddItemToArray(ex, r);
	}
	cJSON_AddItemToObject(o, "excluded", ex);
	return o;
}

static cJSON *samples_json(const double *v, const int64_t *id, size_t n)
{
	cJSON *a = cJSON_CreateArray();

	for (size_t i = 0; i < n; i++) {
		cJSON *s = cJSON_CreateObject();
		cJSON_AddNumberToObject(s, "run_id", (double)id[i]);
		cJSON_AddItemToObject(s, "value", num_or_null(v[i]));
		cJSON_AddItemToArray(a, s);
	}
	return a;
}

void gate_render_json(const struct gate *g, struct strbuf *out)
{
	cJSON *root = cJSON_CreateObject(), *opts = cJSON_CreateObject(), *counts = cJSON_CreateObject();
	cJSON *cells = cJSON_CreateArray(), *notes = cJSON_CreateArray();

	cJSON_AddStringToObject(root, "outcome", gate_headline(g));
	cJSON_AddNumberToObject(opts, "threshold", g->opts.threshold);
	cJSON_AddNumberToObject(opts, "confidence", g->opts.conf);
	cJSON_AddNumberToObject(opts, "min_runs", gate_min_runs(&g->opts));
	cJSON_AddBoolToObject(opts, "paired", g->opts.paired);
	cJSON_AddStringToObject(opts, "on_inconclusive", g->opts.on_inconclusive == GATE_INC_PASS ? "pass"
							 : g->opts.on_inconclusive == GATE_INC_FAIL ? "fail" : "own");
	cJSON_AddBoolToObject(opts, "allow_invalid", g->opts.allow_invalid);
	cJSON_AddItemToObject(root, "options", opts);
	for (int v = 0; v < GATE_VERDICT_NR; v++)
		cJSON_AddNumberToObject(counts, gate_verdict_name((enum gate_verdict)v), (double)g->count[v]);
	cJSON_AddItemToObject(root, "counts", counts);
	cJSON_AddItemToObject(root, "baseline", side_json(g->base));
	cJSON_AddItemToObject(root, "candidate", side_json(g->cand));
	for (size_t i = 0; i < g->ncells; i++) {
		const struct gate_cell *c = &g->cells[i];
		const struct gate_metric_info *mi = gate_metric_info(c->metric);
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "workload", c->workload);
		cJSON_AddStringToObject(o, "key", c->key);
		cJSON_AddStringToObject(o, "metric", mi->key);
		cJSON_AddStringToObject(o, "title", mi->title);
		cJSON_AddBoolToObject(o, "lower_is_better", mi->lower_is_better);
		cJSON_AddStringToObject(o, "verdict", gate_verdict_name(c->verdict));
		cJSON_AddBoolToObject(o, "judged", !c->info);
		cJSON_AddItemToObject(o, "ratio", num_or_null(c->ratio));
		cJSON_AddItemToObject(o, "ci_low", num_or_null(c->ratio_lo));
		cJSON_AddItemToObject(o, "ci_high", num_or_null(c->ratio_hi));
		cJSON_AddItemToObject(o, "confidence", num_or_null(c->s.conf));
		cJSON_AddItemToObject(o, "p", num_or_null(c->s.p));
		cJSON_AddItemToObject(o, "q", num_or_null(c->q));
		cJSON_AddBoolToObject(o, "exact", c->s.exact);
		if (c->method)
			cJSON_AddStringToObject(o, "method", c->method);
		cJSON_AddItemToObject(o, "baseline_median", num_or_null(c->base_median));
		cJSON_AddItemToObject(o, "candidate_median", num_or_null(c->cand_median));
		cJSON_AddItemToObject(o, "sd_log", num_or_null(c->sd_log));
		if (c->runs_needed)
			cJSON_AddNumberToObject(o, "runs_needed_per_side", c->runs_needed);
		if (c->note)
			cJSON_AddStringToObject(o, "note", c->note);
		cJSON_AddItemToObject(o, "baseline_samples", samples_json(c->base, c->base_run, c->nbase));
		cJSON_AddItemToObject(o, "candidate_samples", samples_json(c->cand, c->cand_run, c->ncand));
		cJSON_AddItemToArray(cells, o);
	}
	cJSON_AddItemToObject(root, "cells", cells);
	for (size_t i = 0; i < g->nnotes; i++)
		cJSON_AddItemToArray(notes, cJSON_CreateString(g->notes[i]));
	cJSON_AddItemToObject(root, "notes", notes);
	json_print_delete(out, root);
}


/* ---- next steps ---------------------------------------------------------------------------------------- */

/* s as one shell word: as it is when it only has safe characters, else in single quotes. */
static void shell_word(struct strbuf *out, const char *s)
{
	if (*s && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.,:=/+@%") == strlen(s)) {
		strbuf_adds(out, s);
		return;
	}
	strbuf_add_shell_word(out, s);
}

/* The `bench report` command that lists the runs of workload `name` of one side (raw text, unescaped). */
static void report_command(const struct gate *g, const struct gate_side *s, const char *name, struct strbuf *cmd)
{
	const char *sel = s->selection;

	strbuf_adds(cmd, "bench report -v");
	if (g->opts.db_path) {
		strbuf_adds(cmd, " --db ");
		shell_word(cmd, g->opts.db_path);
	}
	strbuf_adds(cmd, " --where ");
	{
		char *w = xasprintf("name=%s", name);
		shell_word(cmd, w);
		free(w);
	}
	if (!strncmp(sel, "suite:", 6))
		return; /* the ids below say which runs; report selects by label or parameter */
	if (!strncmp(sel, "latest:", 7))
		sel += 7;
	for (const char *p = sel; *p;) {
		size_t n = strcspn(p, ",");
		char *one = xasprintf("%.*s", (int)n, p);
		strbuf_adds(cmd, " --where ");
		shell_word(cmd, one);
		free(one);
		p += n + (p[n] == ',');
	}
}

/* "11 12 13" - the ids of the side's runs of workload key */
static void run_ids(const struct gate_side *s, const char *key, const char *name, struct strbuf *out)
{
	size_t n = 0, by_name = 0;

	for (size_t i = 0; s && i < s->n; i++)
		if (!strcmp(s->runs[i].key, key))
			strbuf_addf(out, "%s%lld", n++ ? " " : "", (long long)s->runs[i].id);
	/* else the runs of the same name and another identity the gate put beside it (docs/gate.md "Like for
	 * like": --allow-diff) */
	for (size_t i = 0; !n && s && i < s->n; i++)
		if (s->runs[i].name && !strcmp(s->runs[i].name, name))
			strbuf_addf(out, "%s%lld", by_name++ ? " " : "", (long long)s->runs[i].id);
	if (!n && !by_name)
		strbuf_adds(out, "none");
}

/* One workload's next step into raw (unescaped) text lines. */
static void workload_step(const struct gate *g, size_t first, struct strbuf *raw)
{
	const struct gate_cell *c0 = &g->cells[first];
	int any = 0;

	strbuf_addf(raw, "%s:", c0->workload);
	for (size_t i = first; i < g->ncells; i++) {
		const struct gate_cell *c = &g->cells[i];
		if (strcmp(c->key, c0->key) || (!gate_cell_fails(g, c) && c->verdict != GATE_INCONCLUSIVE))
			continue;
		strbuf_addf(raw, "%s %s %s", any++ ? "," : "", gate_metric_info(c->metric)->title,
			    gate_verdict_name(c->verdict));
		if (c->verdict == GATE_INCONCLUSIVE && c->runs_needed)
			strbuf_addf(raw, c->runs_needed >= 200 ? " (more than %u runs per side)" : " (~%u runs per side)",
				    c->runs_needed);
	}
	strbuf_adds(raw, "\n  baseline runs ");
	run_ids(g->base, c0->key, c0->workload, raw);
	strbuf_adds(raw, "; show them: ");
	report_command(g, g->base, c0->workload, raw);
	strbuf_adds(raw, "\n  candidate runs ");
	run_ids(g->cand, c0->key, c0->workload, raw);
	strbuf_adds(raw, "; show them: ");
	report_command(g, g->cand, c0->workload, raw);
	strbuf_adds(raw, "\n");
}

/* The lines of one step, escaped: Markdown as a list item with the run lines nested, text indented. */
static void emit_step(struct strbuf *out, char *raw, int markdown)
{
	int first = 1;

	for (char *line = raw; *line; first = 0) {
		char *end = strchr(line, '\n');
		if (end)
			*end = '\0';
		if (markdown) {
			strbuf_adds(out, first ? "- " : "  - ");
			esc_markdown(out, first ? line : line + 2);
		} else {
			strbuf_adds(out, "  ");
			esc_text(out, line);
		}
		strbuf_addc(out, '\n');
		if (!end)
			break;
		line = end + 1;
	}
}

void gate_render_next_steps(const struct gate *g, struct strbuf *out, int markdown)
{
	struct strbuf raw;
	int any = 0;

	if (!g->base || !g->cand || gate_outcome(g) == GATE_PASS)
		return;
	strbuf_init(&raw);
	for (size_t i = 0; i < g->ncells; i++) {
		const struct gate_cell *c = &g->cells[i];
		int seen = 0;

		if (!gate_cell_fails(g, c) && c->verdict != GATE_INCONCLUSIVE)
			continue;
		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(g->cells[j].key, c->key) &&
			       (gate_cell_fails(g, &g->cells[j]) || g->cells[j].verdict == GATE_INCONCLUSIVE);
		if (seen)
			continue;
		strbuf_reset(&raw);
		workload_step(g, i, &raw);
		if (!any++)
			strbuf_adds(out, markdown ? "\n**Next steps** (runs of each failing or undecided workload):\n\n"
						  : "next steps (runs of each failing or undecided workload):\n");
		emit_step(out, raw.buf, markdown);
	}
	strbuf_release(&raw);
}
