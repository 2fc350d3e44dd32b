/*
 * html: the self-contained HTML report (html.h). One page, inline CSS with a print stylesheet, inline SVG
 * charts, optionally one inline script of bench's own (sortable tables, filter box) and no external URL of any
 * kind. Anchors are generated ("g3"), never made from user text.
 */
#include "report/format/html.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/store_read.h"
#include "report/cpuview.h"
#include "report/text/escape.h"
#include "report/format/render.h"
#include "report/strlist.h"
#include "report/labels.h"

static const enum rep_metric ratio_cols[RM_NR] = { RM_IOPS, RM_MBPS, RM_RLAT, RM_WLAT, RM_RP99, RM_WP99, RM_CPU };
static const char *const ratio_names[RM_NR] = { "IOPS", "MiB/s", "read lat", "write lat", "read p99",
						"write p99", "CPU" };

static const char css[] =
	":root{--fg:#1d232b;--muted:#5d6873;--line:#dfe3e8;--bg:#ffffff;--head:#f4f6f8;--accent:#3566b5}\n"
	"*{box-sizing:border-box}\n"
	"body{margin:0;font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;"
	"color:var(--fg);background:#eef1f4}\n"
	"main{max-width:2200px;margin:0 auto;padding:24px 32px 64px;background:var(--bg);"
	"box-shadow:0 0 0 1px var(--line)}\n"
	"header{border-bottom:3px solid var(--accent);margin-bottom:18px;padding-bottom:10px}\n"
	"h1{font-size:26px;margin:0 0 4px}h2{font-size:20px;margin:34px 0 10px;padding-top:8px;"
	"border-top:1px solid var(--line)}h3{font-size:15px;margin:22px 0 8px;color:#27313b}\n"
	".sub{color:var(--muted)}\n"
	"nav{background:var(--head);border:1px solid var(--line);border-radius:6px;padding:10px 18px;"
	"columns:2 320px;margin:14px 0}\n"
	"nav ol{margin:0;padding-left:18px}nav a{color:var(--accent);text-decoration:none}"
	"nav a:hover{text-decoration:underline}\n"
	"table{border-collapse:collapse;margin:6px 0 14px;font-variant-numeric:tabular-nums}\n"
	"th,td{border:1px solid var(--line);padding:4px 9px;vertical-align:top}\n"
	"th{background:var(--head);font-weight:600;text-align:left;white-space:nowrap}\n"
	"td.n,th.n{text-align:right;white-space:nowrap}\n"
	"tbody tr:nth-child(even) td{background:#fafbfc}\n"
	"td.w{max-width:660px;overflow-wrap:anywhere}\n"
	"td.r{text-align:right;font-weight:600;white-space:nowrap}\n"
	"tbody tr td.good0{background:#d9f0d3}tbody tr td.good1{background:#a6dba0}"
	"tbody tr td.good2{background:#5aae61}tbody tr td.good3{background:#1b7837;color:#fff}\n"
	"tbody tr td.bad0{background:#f6e8c3}tbody tr td.bad1{background:#dfc27d}"
	"tbody tr td.bad2{background:#bf812d}tbody tr td.bad3{background:#8c510a;color:#fff}\n"
	"tr.unmatched td{color:var(--muted);font-style:italic}\n"
	".legend span{display:inline-block;padding:2px 8px;margin:0 4px 4px 0;border-radius:3px}\n"
	".spread{color:var(--muted);font-size:12px;font-weight:400}\n"
	".mark{color:#8c510a;font-weight:600;font-style:normal}.note{color:var(--muted);margin:2px 0}\n"
	"td.noise{outline:2px dashed #888;outline-offset:-3px}\n"
	".status-failed,.status-aborted{color:#b3261e;font-weight:600}.status-partial{color:#8c510a;font-weight:600}\n"
	"figure{margin:0;padding:10px;border:1px solid var(--line);border-radius:6px;min-width:0}\n"
	"figure svg{width:100%;height:auto;display:block}\n"
	".grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,var(--cell,560px)),1fr));"
	"gap:16px;margin:10px 0 26px;align-items:start}\n"
	".scroll{overflow-x:auto;max-width:100%}\n"
	"@media (max-width:900px){main{padding:14px 12px 40px}nav{columns:1}}\n"
	"figcaption{color:var(--muted);font-size:13px;margin-top:6px}\n"
	"dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:4px 18px}dl.meta dt{font-weight:600}"
	"dl.meta dd{margin:0}\n"
	"code{background:var(--head);padding:1px 4px;border-radius:3px}\n"
	"footer{margin-top:40px;color:var(--muted);font-size:12px}\n"
	"details.record{margin:4px 0;border:1px solid var(--line);border-radius:6px;padding:4px 10px}"
	"details.record summary{cursor:pointer}\n"
	"pre{background:var(--head);padding:8px;overflow-x:auto;font-size:12px;margin:6px 0}\n"
	".filter input{font:inherit;padding:3px 6px;width:22em}\n"
	"th.sort{cursor:pointer}th[aria-sort=ascending]::after{content:' \\25B2'}"
	"th[aria-sort=descending]::after{content:' \\25BC'}\n"
	/* print: A4, no table cut at the right edge (names and labels wrap, numbers never), rows and charts never
	 * split across pages, the header row repeated on each page, the records opened (also by the script) */
	"@media print{@page{size:A4;margin:12mm 10mm}\n"
	"body{background:#fff;font-size:9pt}main{max-width:none;padding:0;box-shadow:none}\n"
	"nav,.filter{display:none}.scroll{overflow:visible}\n"
	"table{width:100%;font-size:7pt}th{white-space:normal}td.w,td code{overflow-wrap:anywhere}\n"
	"thead{display:table-header-group}\n"
	"table,tr,figure,dl.meta,details{break-inside:avoid;page-break-inside:avoid}\n"
	"h2,h3{break-after:avoid;page-break-after:avoid}\n"
	".grid{display:block}figure{margin:0 0 10px}figure svg{max-height:250mm}\n"
	"pre{white-space:pre-wrap;font-size:7pt;overflow:visible}\n"
	"details::details-content{content-visibility:visible;display:block}}\n";

/* Sortable tables (click a heading: numbers by value, text in order; again: reversed) and the filter box (rows
 * and charts whose text holds the words). Plain script, nothing loaded; before printing, records are opened. */
static const char page_script[] =
	"(function(){'use strict';\n"
	"function key(td){var t=(td?td.textContent:'').trim();"
	"var m=t.replace(/,/g,'').match(/^-?[0-9]+(\\.[0-9]+)?(e[-+]?[0-9]+)?/i);"
	"return m?{n:parseFloat(m[0]),t:t}:{n:NaN,t:t.toLowerCase()};}\n"
	"function cmp(a,b){var x=isNaN(a.n),y=isNaN(b.n);if(!x&&!y)return a.n-b.n;if(x!==y)return x?1:-1;"
	"return a.t===b.t?0:(a.t>b.t?1:-1);}\n"
	"document.querySelectorAll('main table').forEach(function(tb){\n"
	"if(!tb.tHead||!tb.tBodies.length)return;var ths=tb.tHead.rows[0].cells;\n"
	"Array.prototype.forEach.call(ths,function(th,i){th.classList.add('sort');th.title='sort by this column';\n"
	"th.addEventListener('click',function(){var dir=th.getAttribute('aria-sort')==='ascending'?-1:1;\n"
	"Array.prototype.forEach.call(ths,function(o){o.removeAttribute('aria-sort');});\n"
	"th.setAttribute('aria-sort',dir>0?'ascending':'descending');\n"
	"var body=tb.tBodies[0],rows=Array.prototype.slice.call(body.rows);\n"
	"rows.sort(function(a,b){return dir*cmp(key(a.cells[i]),key(b.cells[i]));});\n"
	"rows.forEach(function(r){body.appendChild(r);});});});});\n"
	"var box=document.getElementById('filter'),count=document.getElementById('filter-count');\n"
	"if(box)box.addEventListener('input',function(){var q=box.value.toLowerCase().trim(),shown=0,all=0;\n"
	"document.querySelectorAll('main tbody tr').forEach(function(r){var hit=!q||"
	"r.textContent.toLowerCase().indexOf(q)>=0;all++;if(hit)shown++;r.style.display=hit?'':'none';});\n"
	"document.querySelectorAll('main figure').forEach(function(f){f.style.display=!q||"
	"f.textContent.toLowerCase().indexOf(q)>=0?'':'none';});\n"
	"count.textContent=q?shown+' of '+all+' rows':'';});\n"
	"window.addEventListener('beforeprint',function(){document.querySelectorAll('details').forEach("
	"function(d){d.open=true;});});\n"
	"})();\n";

static void h(struct strbuf *out, const char *s)
{
	esc_html(out, s ? s : "");
}

/* A run's labels as key=value codes, but the configuration record's cfg.* facts (shown once per configuration,
 * config_sections). */
static void kv_text(struct strbuf *out, const struct kvlist *l)
{
	size_t shown = 0;

	for (size_t i = 0; i < l->n; i++) {
		if (!strncmp(l->v[i].key, "cfg.", 4))
			continue;
		if (shown++)
			strbuf_adds(out, " ");
		strbuf_adds(out, "<code>");
		h(out, l->v[i].key);
		strbuf_adds(out, "=");
		h(out, l->v[i].value);
		strbuf_adds(out, "</code>");
	}
	if (!shown)
		strbuf_adds(out, "<span class=\"sub\">(no labels)</span>");
}

/*
 * A figure: the median, under it its spread and n: "[lo–hi] 95 %" (the interval of the median, rep_cell.lo/hi,
 * when narrower than min-max, n >= 6), else "min–max" when repetitions differ; "n=K" always (render_cell's
 * rule, so HTML and text agree).
 */
static void cell(struct strbuf *out, const struct rep_cell *c, int decimals)
{
	int narrow = c->n >= 3 && (c->lo != c->min || c->hi != c->max);
	struct strbuf sb;

	strbuf_init(&sb);
	render_num(&sb, c->n ? c->med : NAN, decimals);
	strbuf_adds(out, "<td class=\"n\">");
	h(out, sb.buf);
	if (c->n) {
		strbuf_reset(&sb);
		if (c->n > 1 && c->min != c->max) {
			strbuf_adds(&sb, narrow ? "[" : "");
			render_num(&sb, narrow ? c->lo : c->min, decimals);
			strbuf_adds(&sb, "–");
			render_num(&sb, narrow ? c->hi : c->max, decimals);
			if (narrow)
				strbuf_addf(&sb, "] %.0f %%", c->conf_pct);
			strbuf_adds(&sb, " ");
		}
		strbuf_addf(&sb, "n=%u", c->n);
		strbuf_adds(out, "<br><span class=\"spread\">");
		h(out, sb.buf);
		strbuf_adds(out, "</span>");
	}
	strbuf_adds(out, "</td>");
	strbuf_release(&sb);
}

/* The marks of a row after its name (render_row_marks: n=1, short), as a muted span. */
static void row_marks(struct strbuf *out, const struct rep_row *row, int *single, int *short_run)
{
	struct strbuf sb;

	if (!row)
		return;
	strbuf_init(&sb);
	render_row_marks(&sb, row);
	if (sb.len) {
		strbuf_adds(out, " <span class=\"mark\">(");
		h(out, sb.buf);
		strbuf_adds(out, ")</span>");
	}
	*single |= row->single;
	*short_run |= row->short_run;
	strbuf_release(&sb);
}

/* What the marks mean (render_marks_note), a paragraph per line. */
static void marks_note(struct strbuf *out, int single, int short_run)
{
	struct strbuf sb;
	char *line, *nl;

	strbuf_init(&sb);
	render_marks_note(&sb, single, short_run);
	for (line = sb.buf; line && *line; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		strbuf_adds(out, "<p class=\"note\">");
		h(out, line);
		strbuf_adds(out, "</p>\n");
	}
	strbuf_release(&sb);
}

/* ---- metadata --------------------------------------------------------------------------------------- */

static void distinct_list(struct strbuf *out, const struct strlist *d)
{
	if (!d->n)
		strbuf_adds(out, "<span class=\"sub\">unknown</span>");
	for (size_t i = 0; i < d->n; i++) {
		strbuf_adds(out, i ? ", <code>" : "<code>");
		h(out, d->v[i]);
		strbuf_adds(out, "</code>");
	}
}

/* The configuration a run belongs to: its label config= (the experiments' configuration record), else its
 * suite. */
static const char *run_config(const struct rep_run *r)
{
	const char *c = kvlist_get(&r->labels, "config", NULL);
	return c ? c : r->suite;
}

/* The names and sizes of the artifacts stored with run `r` (what exists: configuration records, job files,
 * engine output), or nothing when they cannot be read. */
static void artifact_list(struct strbuf *out, struct store *st, const struct rep_run *r)
{
	struct store_artifact *a = NULL;
	size_t n = 0;
	struct errbuf err;

	errbuf_init(&err);
	if (!st || store_read_artifacts(st, r->id, &a, &n, &err) < 0)
		return;
	for (size_t i = 0; i < n; i++) {
		strbuf_adds(out, i ? ", <code>" : "<code>");
		h(out, a[i].name);
		strbuf_addf(out, "</code> (%zu bytes)", a[i].len);
	}
	if (n)
		strbuf_addf(out, " <span class=\"sub\">(run %lld)</span>", (long long)r->id);
	store_artifacts_free(a, n);
}

/* A label the user gave to describe the configuration: config.* (e.g. config.nic), not config itself (the name).
 * The facts the configuration record collected (cfg.*: kernel, CPU, memory, member devices) are shown once per
 * configuration, in its section (config_sections). */
static int config_label(const char *key)
{
	return !strncmp(key, "config", 6) && strcmp(key, "config");
}

/* The cfg.* facts of configuration `cfg`'s runs, key=value in order of first appearance, "(several)" when its
 * runs differ; cfg.kernel too (the kernel column shows it as well). */
static void config_facts(const struct rep_set *set, const char *cfg, struct kvlist *out)
{
	for (size_t i = 0; i < set->n; i++) {
		if (strcmp(run_config(&set->v[i]), cfg))
			continue;
		for (size_t k = 0; k < set->v[i].labels.n; k++) {
			const struct kv *l = &set->v[i].labels.v[k];
			const char *have = kvlist_get(out, l->key, NULL), *v = l->value ? l->value : "";
			if (strncmp(l->key, "cfg.", 4))
				continue;
			if (!have)
				kvlist_add(out, l->key, v);
			else if (strcmp(have, v))
				kvlist_set(out, l->key, "(several)");
		}
	}
}

/* One row per configuration: its suites, runs, the runs' own start dates, hosts, fio versions, kernels, the
 * labels that describe it (config*, kernel) and the artifacts stored with its first run. */

/* Adds a run's hosts (not the aggregate) and fio versions, and widens [first, last] to its start date. */
static void run_hosts_dates(const struct rep_run *r, struct strlist *hosts, struct strlist *versions,
			    const char **first, const char **last)
{
	for (size_t k = 0; k < r->nhosts; k++) {
		if (strcmp(r->hosts[k].host, "*"))
			strlist_add_distinct(hosts, r->hosts[k].host);
		strlist_add_distinct(versions, r->hosts[k].fio_version);
	}
	if (r->started_at && (!*first || strcmp(r->started_at, *first) < 0))
		*first = r->started_at;
	if (r->started_at && (!*last || strcmp(r->started_at, *last) > 0))
		*last = r->started_at;
}

/* "FIRST to LAST", or "unknown" when no run has a start date. */
static void date_range(struct strbuf *out, const char *first, const char *last)
{
	if (first) {
		h(out, first);
		strbuf_adds(out, " to ");
		h(out, last);
	} else {
		strbuf_adds(out, "<span class=\"sub\">unknown</span>");
	}
}

/* The stored configuration record (artifact config.record: the output of the configuration's record steps and
 * the /sys facts) of the first run of configuration `cfg` that has one: 1 and `rec` filled, else 0. */
static int config_record_of(struct store *st, const struct rep_set *set, const char *cfg, struct store_artifact *rec,
			    int64_t *run_id)
{
	struct errbuf err;

	errbuf_init(&err);
	for (size_t i = 0; st && i < set->n; i++) {
		if (strcmp(run_config(&set->v[i]), cfg))
			continue;
		memset(rec, 0, sizeof(*rec));
		if (store_read_artifact(st, set->v[i].id, "config.record", rec, &err) == 0) {
			if (rec->len) {
				*run_id = set->v[i].id;
				return 1;
			}
			store_artifact_release(rec);
		}
	}
	return 0;
}

/* One collapsible block per configuration (<details id="cfgN">, N its row in the table; printing opens them)
 * with its facts (cfg.*, as a table) and its record's text, when it has either. */
static void config_sections(struct strbuf *out, const struct rep_set *set, const struct strlist *cfgs,
			    struct store *st)
{
	int any = 0;

	for (size_t c = 0; c < cfgs->n; c++) {
		struct store_artifact rec;
		struct kvlist facts;
		int64_t id = 0;
		int has_rec = config_record_of(st, set, cfgs->v[c], &rec, &id);

		kvlist_init(&facts);
		config_facts(set, cfgs->v[c], &facts);
		if (!has_rec && !facts.n) {
			kvlist_release(&facts);
			continue;
		}
		if (!any)
			strbuf_adds(out, "<h3 id=\"records\">Each configuration: its facts and record</h3>\n<p class=\"sub\">"
					 "The facts the configuration record collected (<code>cfg.*</code> labels of its runs: "
					 "kernel, CPU, memory, member devices; \"(several)\" when its runs differ) and what its "
					 "record steps printed (stored with its runs as <code>config.record</code>).</p>\n");
		any = 1;
		strbuf_addf(out, "<details class=\"record\" id=\"cfg%zu\"><summary>configuration <code>", c + 1);
		h(out, cfgs->v[c]);
		strbuf_addf(out, "</code> <span class=\"sub\">(%zu facts", facts.n);
		if (has_rec)
			strbuf_addf(out, "; record of run %lld, %zu bytes", (long long)id, rec.len);
		strbuf_adds(out, ")</span></summary>\n");
		if (facts.n) {
			strbuf_adds(out, "<table class=\"facts\"><thead><tr><th>fact</th><th>value</th></tr></thead>"
					 "<tbody>\n");
			for (size_t k = 0; k < facts.n; k++) {
				strbuf_adds(out, "<tr><td><code>");
				h(out, facts.v[k].key);
				strbuf_adds(out, "</code></td><td>");
				h(out, facts.v[k].value);
				strbuf_adds(out, "</td></tr>\n");
			}
			strbuf_adds(out, "</tbody></table>\n");
		}
		if (has_rec) {
			strbuf_adds(out, "<pre>");
			h(out, (const char *)rec.content);
			strbuf_adds(out, "</pre>");
			store_artifact_release(&rec);
		}
		strbuf_adds(out, "</details>\n");
		kvlist_release(&facts);
	}
}

/* In the table: "N facts" linking to configuration c's section (config_sections), when it has facts. */
static void config_facts_link(struct strbuf *out, const struct rep_set *set, const char *cfg, size_t c)
{
	struct kvlist facts;

	kvlist_init(&facts);
	config_facts(set, cfg, &facts);
	if (facts.n)
		strbuf_addf(out, " <a href=\"#cfg%zu\">%zu facts</a>", c, facts.n);
	kvlist_release(&facts);
}

static void configurations(struct strbuf *out, const struct rep_set *set, struct store *st)
{
	struct strlist cfgs = { 0 };
	int by_label = 0;

	for (size_t i = 0; i < set->n; i++) {
		strlist_add_distinct(&cfgs, run_config(&set->v[i]));
		by_label |= kvlist_get(&set->v[i].labels, "config", NULL) != NULL;
	}
	strbuf_addf(out, "<h3 id=\"configs\">Per configuration (%s)</h3>\n<div class=\"scroll\"><table class=\"meta\">"
			 "<thead><tr><th>configuration</th><th>suites</th><th class=\"n\">runs</th><th>dates (runs "
			 "started)</th><th>hosts</th><th>fio</th><th>kernel</th><th>configuration labels</th>"
			 "<th>stored artifacts</th></tr>"
			 "</thead>\n<tbody>\n", by_label ? "label <code>config</code>, else suite" : "suite");
	for (size_t c = 0; c < cfgs.n; c++) {
		struct strlist suites = { 0 }, hosts = { 0 }, versions = { 0 }, kernels = { 0 }, extra = { 0 };
		const char *first = NULL, *last = NULL;
		const struct rep_run *first_run = NULL;
		size_t nruns = 0;

		for (size_t i = 0; i < set->n; i++) {
			const struct rep_run *r = &set->v[i];
			if (strcmp(run_config(r), cfgs.v[c]))
				continue;
			if (!first_run)
				first_run = r;
			nruns++;
			strlist_add_distinct(&suites, r->suite);
			run_hosts_dates(r, &hosts, &versions, &first, &last);
			for (size_t k = 0; k < r->labels.n; k++) {
				const struct kv *l = &r->labels.v[k];
				if (!strcmp(l->key, "kernel") || !strcmp(l->key, "cfg.kernel"))
					strlist_add_distinct(&kernels, l->value);
				else if (config_label(l->key)) {
					char *kv = xasprintf("%s=%s", l->key, l->value ? l->value : "");
					strlist_add_distinct(&extra, kv);
					free(kv);
				}
			}
		}
		strbuf_adds(out, "<tr><td><code>");
		h(out, cfgs.v[c]);
		strbuf_adds(out, "</code></td><td>");
		distinct_list(out, &suites);
		strbuf_addf(out, "</td><td class=\"n\">%zu</td><td>", nruns);
		date_range(out, first, last);
		strbuf_adds(out, "</td><td>");
		distinct_list(out, &hosts);
		strbuf_adds(out, "</td><td>");
		distinct_list(out, &versions);
		strbuf_adds(out, "</td><td>");
		distinct_list(out, &kernels);
		strbuf_adds(out, "</td><td>");
		if (extra.n)
			distinct_list(out, &extra);
		config_facts_link(out, set, cfgs.v[c], c + 1);
		strbuf_adds(out, "</td><td>");
		artifact_list(out, st, first_run);
		strbuf_adds(out, "</td></tr>\n");
		strlist_release(&suites);
		strlist_release(&hosts);
		strlist_release(&versions);
		strlist_release(&kernels);
		strlist_release(&extra);
	}
	strbuf_adds(out, "</tbody></table></div>\n");
	config_sections(out, set, &cfgs, st);
	strlist_release(&cfgs);
}

/* Closes the previous <dd>, then one <dt>term</dt><dd> with the list. */
static void dd_list(struct strbuf *out, const char *term, const struct strlist *l)
{
	strbuf_addf(out, "</dd>\n<dt>%s</dt><dd>", term);
	distinct_list(out, l);
}

static void metadata(struct strbuf *out, const struct rep_set *set, struct store *store)
{
	struct strlist suites = { 0 }, hosts = { 0 }, versions = { 0 }, keys = { 0 }, engines = { 0 };
	const char *first = NULL, *last = NULL;
	size_t counts[5] = { 0 }, nfacts = 0;
	static const char *const st[5] = { "done", "partial", "failed", "aborted", "running" };

	for (size_t i = 0; i < set->n; i++) {
		const struct rep_run *r = &set->v[i];
		strlist_add_distinct(&suites, r->suite);
		strlist_add_distinct(&engines, r->engine);
		for (size_t k = 0; k < r->labels.n; k++)
			strlist_add_distinct(&keys, r->labels.v[k].key);
		run_hosts_dates(r, &hosts, &versions, &first, &last);
		for (int k = 0; k < 5; k++)
			if (!strcmp(r->status, st[k]))
				counts[k]++;
	}
	strbuf_adds(out, "<h2 id=\"meta\">Suites and setup</h2>\n<dl class=\"meta\">\n<dt>runs</dt><dd>");
	strbuf_addf(out, "%zu selected", set->n);
	for (int k = 0; k < 5; k++)
		if (counts[k])
			strbuf_addf(out, ", %zu %s", counts[k], st[k]);
	dd_list(out, "suites", &suites);
	strbuf_adds(out, "</dd>\n<dt>dates</dt><dd>");
	date_range(out, first, last);
	dd_list(out, "hosts", &hosts);
	dd_list(out, "fio versions", &versions);
	dd_list(out, "engines", &engines);
	strbuf_adds(out, "</dd>\n");
	/* Every label key with its values, but the configuration record's facts: those once per configuration,
	 * in its section (config_sections), here only how many there are. */
	for (size_t k = 0; k < keys.n; k++) {
		struct strlist vals = { 0 };
		if (!strncmp(keys.v[k], "cfg.", 4)) {
			nfacts++;
			continue;
		}
		for (size_t i = 0; i < set->n; i++)
			strlist_add_distinct(&vals, kvlist_get(&set->v[i].labels, keys.v[k], NULL));
		strbuf_adds(out, "<dt>label <code>");
		h(out, keys.v[k]);
		strbuf_adds(out, "</code></dt><dd>");
		distinct_list(out, &vals);
		strbuf_adds(out, "</dd>\n");
		strlist_release(&vals);
	}
	if (nfacts)
		strbuf_addf(out, "<dt>configuration facts</dt><dd>%zu kinds of <code>cfg.*</code> facts, shown per "
				 "configuration: <a href=\"#records\">each configuration</a></dd>\n", nfacts);
	strbuf_adds(out, "</dl>\n");
	configurations(out, set, store);
	strlist_release(&suites);
	strlist_release(&hosts);
	strlist_release(&versions);
	strlist_release(&keys);
	strlist_release(&engines);
}

/* ---- ratio table ------------------------------------------------------------------------------------ */

static const char *alias(const struct html_opts *o, const char *key, const char *value)
{
	return rep_alias_get(o ? o->aliases : NULL, key, value);
}

/* One ratio cell of value vi of a row, with both medians and their n as a tooltip: "~" and a dashed outline
 * when within noise (cmp_row.noise), "n/a" (no colour) when the metric is constant in the group
 * (chart_metric_constant: a ratio of 1 by construction, not a finding). */
static void ratio_cell(struct strbuf *out, const struct cmp_table *t, const struct cmp_row *row, size_t vi,
		       enum rep_metric m, int constant, const struct html_opts *o)
{
	const struct rep_row *x = row->at[vi], *b = row->at[t->nvals - 1];
	double r = row->ratios[vi][m];
	int level, noise = row->noise[vi][m] == 1 && !constant;
	const char *cls = constant ? "" : cmp_class(m, r, &level);
	struct strbuf sb;

	strbuf_init(&sb);
	if (*cls)
		strbuf_addf(out, "<td class=\"r %s%d%s\"", cls, level, noise ? " noise" : "");
	else
		strbuf_addf(out, "<td class=\"r%s\"", noise ? " noise" : "");
	if (x && b) {
		strbuf_adds(&sb, alias(o, t->key, t->vals[vi]));
		strbuf_adds(&sb, " ");
		render_cell(&sb, &x->c[m], rep_metrics[m].decimals);
		strbuf_addf(&sb, " n=%u, ", x->c[m].n);
		strbuf_adds(&sb, alias(o, t->key, t->b));
		strbuf_adds(&sb, " ");
		render_cell(&sb, &b->c[m], rep_metrics[m].decimals);
		strbuf_addf(&sb, " n=%u", b->c[m].n);
		if (noise)
			strbuf_adds(&sb, "; within noise");
		if (constant)
			strbuf_adds(&sb, "; the same value in every run of this block, or none: no ratio");
		strbuf_adds(out, " title=\"");
		h(out, sb.buf);
		strbuf_adds(out, "\"");
	}
	strbuf_reset(&sb);
	if (constant && x && b)
		strbuf_adds(&sb, "n/a");
	else
		render_num(&sb, r, 3);
	if (noise)
		strbuf_adds(&sb, "~");
	strbuf_adds(out, ">");
	h(out, sb.buf);
	strbuf_adds(out, "</td>");
	strbuf_release(&sb);
}

/* The configuration record's facts (cmp_table.cfg): those the same on every side in one line, those that
 * differ as a table with a column per compared value. */
static void cfg_facts(struct strbuf *out, const struct cmp_table *t, const struct html_opts *o)
{
	size_t ndiff = 0, nsame = 0;

	for (size_t s = 0; s < t->nvals; s++)
		for (size_t k = 0; k < t->cfg[s].n; k++) {
			const struct kv *x = &t->cfg[s].v[k];
			int same = 1, first = 1;

			for (size_t v = 0; v < t->nvals; v++) {
				const char *y = kvlist_get(&t->cfg[v], x->key, NULL);
				same &= y && !strcmp(y, x->value);
				if (v < s && kvlist_find(&t->cfg[v], x->key))
					first = 0;
			}
			if (!first)
				continue;
			if (same) {
				strbuf_adds(out, nsame++ ? ", <code>" : "<p class=\"note\">Configuration record, the "
									"same on every side: <code>");
				h(out, x->key);
				strbuf_adds(out, "=");
				h(out, x->value);
				strbuf_adds(out, "</code>");
				continue;
			}
			if (!ndiff++) {
				strbuf_adds(out, nsame ? "</p>\n" : "");
				nsame = 0;
				strbuf_adds(out, "<div class=\"scroll\"><table class=\"cfgdiff\">\n<caption>"
						 "Configuration record: what differs</caption>\n<thead><tr><th>fact</th>");
				for (size_t v = 0; v < t->nvals; v++) {
					strbuf_adds(out, "<th>");
					h(out, alias(o, t->key, t->vals[v]));
					strbuf_adds(out, "</th>");
				}
				strbuf_adds(out, "</tr></thead>\n<tbody>\n");
			}
			strbuf_adds(out, "<tr><td><code>");
			h(out, x->key);
			strbuf_adds(out, "</code></td>");
			for (size_t v = 0; v < t->nvals; v++) {
				strbuf_adds(out, "<td>");
				h(out, kvlist_get(&t->cfg[v], x->key, "-"));
				strbuf_adds(out, "</td>");
			}
			strbuf_adds(out, "</tr>\n");
		}
	if (nsame)
		strbuf_adds(out, "</p>\n");
	if (ndiff)
		strbuf_adds(out, "</tbody>\n</table></div>\n");
}

/* Under the ratio table: "~", the marks, the labels compared away and the configuration record's facts. */
static void ratio_notes(struct strbuf *out, const struct cmp_table *t, int single, int short_run,
			const struct html_opts *o)
{
	strbuf_adds(out, "<p class=\"note\">~ (dashed outline) within noise: the ratio of the sides' 95 % "
			 "intervals of the median holds 1 (both sides n &ge; 3; with fewer runs no ratio can be told "
			 "from noise). n/a: the metric has the same value in every run of the block, or none (a "
			 "modelled, saturated or unmeasured figure): its ratio is 1 by construction.</p>\n");
	marks_note(out, single, short_run);
	if (t->away.n) {
		strbuf_adds(out, "<p class=\"note\">Compared with <code>");
		h(out, t->key);
		strbuf_adds(out, "</code> (they change with it, so they are no group key):");
		for (size_t i = 0; i < t->away.n; i++) {
			strbuf_adds(out, i ? ", <code>" : " <code>");
			h(out, t->away.v[i].key);
			strbuf_adds(out, "</code>");
		}
		strbuf_adds(out, ".</p>\n");
	}
	if (t->cfg)
		cfg_facts(out, t, o);
}

static void ratio_section(struct strbuf *out, const struct cmp_table *t, const struct html_opts *o)
{
	int single = 0, short_run = 0;

	strbuf_adds(out, "<h2 id=\"ratio\">Comparison: ");
	for (size_t i = 0; i + 1 < t->nvals; i++) {
		if (i)
			strbuf_adds(out, ", ");
		h(out, alias(o, t->key, t->vals[i]));
	}
	strbuf_adds(out, " against ");
	h(out, alias(o, t->key, t->b));
	strbuf_adds(out, "</h2>\n<p>Each cell is the median of a value divided by the median of ");
	h(out, alias(o, t->key, t->b));
	strbuf_addf(out, " (the baseline, label <code>"); 
	h(out, t->key);
	strbuf_adds(out, "=");
	h(out, t->b);
	strbuf_addf(out, "</code>) for the same workload, matched by %s; the medians are in each cell's tooltip and "
			 "in the results below. %zu rows with every value, %zu rows some value lacks (in italics).</p>\n",
		    t->match == REP_MATCH_NAME ? "name" : "identity (every option that changes the load)", t->matched,
		    t->unmatched);
	strbuf_adds(out, "<p class=\"legend\">"
			 "<span style=\"background:#1b7837;color:#fff\">better</span>"
			 "<span style=\"background:#5aae61\">better</span><span style=\"background:#a6dba0\">better</span>"
			 "<span style=\"background:#d9f0d3\">within 5 %</span>"
			 "<span style=\"background:#f6e8c3\">within 5 %</span><span style=\"background:#dfc27d\">worse"
			 "</span><span style=\"background:#bf812d\">worse</span>"
			 "<span style=\"background:#8c510a;color:#fff\">worse</span> &nbsp; IOPS and MiB/s: a ratio "
			 "&ge; 1 is better; latency and CPU: a ratio &le; 1 is better. Shade: within 5 %, 25 %, 2&times;, "
			 "beyond.</p>\n");
	for (size_t gi = 0; gi < t->n; gi++) {
		const struct cmp_group *g = &t->v[gi];
		int constant[RM_NR];

		strbuf_addf(out, "<h3 id=\"r%zu\">", gi + 1);
		h(out, g->title);
		strbuf_adds(out, "</h3>\n<div class=\"scroll\"><table class=\"ratio\">\n<thead><tr><th>workload</th>");
		if (t->nvals > 2) {
			strbuf_adds(out, "<th>");
			h(out, t->key);
			strbuf_adds(out, "</th>");
		}
		for (int k = 0; k < RM_NR; k++)
			strbuf_addf(out, "<th class=\"n\">%s</th>", ratio_names[k]);
		strbuf_adds(out, "</tr></thead>\n<tbody>\n");
		for (int k = 0; k < RM_NR; k++)
			constant[k] = chart_metric_constant(t, g, ratio_cols[k]);
		for (size_t ri = 0; ri < g->n; ri++) {
			const struct cmp_row *row = &g->rows[ri];

			for (size_t vi = 0; vi + 1 < t->nvals; vi++) {
				int matched = row->at[vi] && row->b;

				strbuf_adds(out, matched ? "<tr class=\"matched\"><td class=\"w\">" :
							   "<tr class=\"unmatched\"><td class=\"w\">");
				if (vi == 0)
					h(out, row->workload);
				if (matched) {
					struct rep_row both = { 0 };

					both.single = row->at[vi]->single || row->b->single;
					both.short_run = row->at[vi]->short_run || row->b->short_run;
					row_marks(out, &both, &single, &short_run);
				}
				if (!matched && vi == 0) {
					strbuf_adds(out, " <span class=\"sub\">(only ");
					for (size_t k = 0, n = 0; k < t->nvals; k++)
						if (row->at[k]) {
							strbuf_adds(out, n++ ? ", " : "");
							h(out, alias(o, t->key, t->vals[k]));
						}
					strbuf_adds(out, ")</span>");
				}
				strbuf_adds(out, "</td>");
				if (t->nvals > 2) {
					strbuf_adds(out, "<td>");
					h(out, alias(o, t->key, t->vals[vi]));
					strbuf_adds(out, "</td>");
				}
				for (int k = 0; k < RM_NR; k++)
					ratio_cell(out, t, row, vi, ratio_cols[k], constant[k], o);
				strbuf_adds(out, "</tr>\n");
			}
		}
		strbuf_adds(out, "</tbody>\n</table></div>\n");
	}
	ratio_notes(out, t, single, short_run, o);
}

/* ---- raw-data table --------------------------------------------------------------------------------- */

static void raw_group(struct strbuf *out, const struct rep_group *g, const char *id, int *single, int *short_run)
{
	strbuf_addf(out, "<h3 id=\"%s\">", id);
	h(out, g->title);
	strbuf_adds(out, "</h3>\n<div class=\"scroll\"><table class=\"raw\">\n<thead><tr><th>workload</th><th class=\"n\">runs</th>");
	for (int m = 0; m < RM_NR; m++) {
		strbuf_adds(out, "<th class=\"n\">");
		h(out, rep_metrics[m].title);
		strbuf_adds(out, "</th>");
	}
	strbuf_adds(out, "</tr></thead>\n<tbody>\n");
	for (size_t ri = 0; ri < g->n; ri++) {
		const struct rep_row *row = &g->rows[ri];
		strbuf_adds(out, "<tr><td class=\"w\">");
		h(out, row->name);
		if (row->partial)
			strbuf_adds(out, " <span class=\"status-partial\">(partial)</span>");
		row_marks(out, row, single, short_run);
		strbuf_addf(out, "</td><td class=\"n\">%zu</td>", row->nruns);
		for (int m = 0; m < RM_NR; m++)
			cell(out, &row->c[m], rep_metrics[m].decimals);
		strbuf_adds(out, "</tr>\n");
	}
	strbuf_adds(out, "</tbody>\n</table></div>\n");
}

static void runs_section(struct strbuf *out, const struct rep_set *set)
{
	strbuf_adds(out, "<h2 id=\"runs\">Runs and hosts</h2>\n<div class=\"scroll\"><table class=\"runs\">\n<thead><tr><th>run</th>"
			 "<th>status</th><th>workload</th><th>labels</th><th>started</th><th>hosts (fio, start "
			 "offset ms)</th><th>error</th></tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < set->n; i++) {
		const struct rep_run *r = &set->v[i];
		strbuf_addf(out, "<tr><td class=\"n\">%lld</td><td class=\"status-", (long long)r->id);
		h(out, r->status);
		strbuf_adds(out, "\">");
		h(out, r->status);
		strbuf_adds(out, "</td><td class=\"w\">");
		h(out, r->name);
		strbuf_adds(out, "</td><td>");
		kv_text(out, &r->labels);
		strbuf_adds(out, "</td><td>");
		h(out, r->started_at);
		strbuf_adds(out, "</td><td>");
		for (size_t k = 0; k < r->nhosts; k++) {
			const struct rep_host *x = &r->hosts[k];
			struct strbuf sb;

			if (!strcmp(x->host, "*"))
				continue;
			strbuf_init(&sb);
			strbuf_addf(&sb, "%s (%s, ", x->host, x->fio_version ? x->fio_version : "?");
			render_num(&sb, x->start_offset_ms, 1);
			strbuf_adds(&sb, ")");
			if (x->error)
				strbuf_addf(&sb, " error %d: %s", x->error_code, x->error);
			h(out, sb.buf);
			strbuf_adds(out, "<br>");
			strbuf_release(&sb);
		}
		strbuf_adds(out, "</td><td>");
		h(out, r->error);
		strbuf_adds(out, "</td></tr>\n");
	}
	strbuf_adds(out, "</tbody>\n</table></div>\n");
}

/* ---- disks ------------------------------------------------------------------------------------------ */

/* One row of the disk table (a run that names its devices): the devices counted with their IOs, the total,
 * the front-end IOs, the amplification, the devices not counted. */
static void disk_row(struct strbuf *out, const struct rep_run *r, const struct cpuview_run *v)
{
	struct strbuf sb;
	int any = 0;

	strbuf_init(&sb);
	strbuf_addf(out, "<tr><td class=\"n\">%lld</td><td class=\"w\">", (long long)r->id);
	h(out, r->name);
	strbuf_adds(out, "</td><td><code>");
	h(out, run_config(r));
	strbuf_adds(out, "</code></td><td>");
	for (size_t k = 0; k < v->ndisks; k++) {
		const struct cpuview_disk *d = &v->disks[k];
		if (!d->counted)
			continue;
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s:%s %llu reads, %llu writes", d->host, d->device, (unsigned long long)d->reads,
			    (unsigned long long)d->writes);
		strbuf_adds(out, any++ ? "<br>" : "");
		h(out, sb.buf);
	}
	strbuf_reset(&sb);
	render_num(&sb, (double)v->device_ios, 0);
	strbuf_adds(&sb, "</td><td class=\"n\">");
	render_num(&sb, v->front_end_ios, 0);
	strbuf_adds(&sb, "</td><td class=\"n\">");
	render_num(&sb, v->amplification, 2);
	strbuf_addf(out, "</td><td class=\"n\">%s</td><td class=\"sub\">", sb.buf);
	any = 0;
	for (size_t k = 0; k < v->ndisks; k++)
		if (!v->disks[k].counted) {
			strbuf_adds(out, any++ ? ", " : "");
			h(out, v->disks[k].device);
		}
	strbuf_adds(out, "</td></tr>\n");
	strbuf_release(&sb);
}

/*
 * "Disk IO": per run with disk rows that names its devices, the IOs of those devices (its configuration's
 * members or its /dev targets), their total, the front-end IOs and the amplification; every other device (the
 * system disk, another process's loop device or swap, a device stacked on the members) listed as not counted.
 * Runs with disk rows that name no device are counted in one line (none of their devices is counted). Nothing
 * when no run has disk rows.
 */
static void disks_section(struct strbuf *out, const struct rep_set *set, struct store *st)
{
	size_t nrows = 0, unnamed = 0;
	struct strbuf rows;

	strbuf_init(&rows);
	for (size_t i = 0; i < set->n; i++) {
		int owned;
		struct cpuview_run *v = rep_run_disks(st, &set->v[i], &owned);

		if (!v)
			continue;
		if (v->scope == CPUVIEW_SCOPE_DEVICES) {
			disk_row(&rows, &set->v[i], v);
			nrows++;
		} else {
			unnamed++;
		}
		if (owned)
			cpuview_run_free(v);
	}
	if (nrows || unnamed)
		strbuf_adds(out, "<h2 id=\"disks\">Disk IO</h2>\n<p>The IOs of the devices each run names: its "
				 "configuration's members (<code>cfg.dev.NAME.*</code>, <code>cfg.members.names</code>), "
				 "else its <code>/dev</code> targets, on the target hosts when it has any. The system disk, "
				 "another process's loop device or swap and a device stacked on the members are listed as "
				 "not counted. Amplification: device IOs / front-end IOs.</p>\n");
	if (nrows) {
		strbuf_adds(out, "<div class=\"scroll\"><table class=\"disks\">\n<thead><tr><th>run</th><th>workload</th>"
				 "<th>configuration</th><th>devices counted</th><th class=\"n\">device IOs</th>"
				 "<th class=\"n\">front-end IOs</th><th class=\"n\">amplification</th><th>not counted</th>"
				 "</tr></thead>\n<tbody>\n");
		strbuf_add(out, rows.buf, rows.len);
		strbuf_adds(out, "</tbody>\n</table></div>\n");
	}
	if (unnamed)
		strbuf_addf(out, "<p class=\"note\" id=\"disks-unnamed\">%zu run%s with disk rows name%s no device (no "
				 "configuration members, no <code>/dev</code> target: a file target, the sim engine): none "
				 "of their devices is counted.</p>\n", unnamed, unnamed == 1 ? "" : "s",
			    unnamed == 1 ? "s" : "");
	strbuf_release(&rows);
}

/* ---- charts ----------------------------------------------------------------------------------------- */

#define NKINDS 7 /* chart kinds 'a' .. 'g' (charts.h) */
static const char *const kind_titles[NKINDS] = {
	"IOPS and MiB/s per workload", "Side by side per group", "Ratio charts", "Latency",
	"Time series", "Latency distribution (CDF)", "Latency vs IOPS (curves and sweeps)",
};

static int has_active(const char *s)
{
	static const char *const bad[] = { "<script", "javascript:", "<foreignobject", "@import", "href=\"http",
					   "href='http", "url(http", "url('http", "url(\"http", "src=", "<iframe",
					   "<image", "data:", "onload", "onclick", "onerror", "onmouse", "onbegin",
					   "<!entity", "<!doctype" };
	char *low = xstrdup(s);
	int hit = 0;

	for (char *p = low; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]) && !hit; i++)
		hit = strstr(low, bad[i]) != NULL;
	free(low);
	return hit;
}

int html_inline_svg(struct strbuf *out, const char *path, const char *prefix)
{
	struct strbuf in;
	const char *p, *svg;

	strbuf_init(&in);
	if (strbuf_read_file(&in, path) < 0 || !(svg = strstr(in.buf, "<svg"))) {
		strbuf_release(&in);
		return -1;
	}
	/* Everything the page needs is inside <svg>...</svg>; text (labels) was escaped by gnuplot. */
	if (has_active(svg)) {
		strbuf_release(&in);
		return -1;
	}
	for (p = svg; *p;) {
		if (!strncmp(p, "xmlns", 5) && (p[-1] == ' ' || p[-1] == '\n')) {
			/* xmlns="..." / xmlns:xlink='...': the HTML parser knows SVG's namespaces */
			const char *q = strpbrk(p, "\"'");
			const char *e = q ? strchr(q + 1, *q) : NULL;
			if (e) {
				p = e + 1;
				continue;
			}
		}
		if (!strncmp(p, "id='", 4) || !strncmp(p, "id=\"", 4)) {
			strbuf_add(out, p, 4);
			strbuf_addf(out, "%s-", prefix);
			p += 4;
			continue;
		}
		if (!strncmp(p, "href='#", 7) || !strncmp(p, "href=\"#", 7)) {
			strbuf_add(out, p, 7);
			strbuf_addf(out, "%s-", prefix);
			p += 7;
			continue;
		}
		if (!strncmp(p, "url(#", 5)) {
			strbuf_adds(out, "url(#");
			strbuf_addf(out, "%s-", prefix);
			p += 5;
			continue;
		}
		strbuf_addc(out, *p++);
	}
	strbuf_release(&in);
	return 0;
}

static void charts_section(struct strbuf *out, const struct chart_set *cs, const struct html_opts *o)
{
	for (int k = 0; k < NKINDS; k++) {
		int any = 0, widest = 0;

		/* a grid cell is at least 3/4 of the widest chart of the kind: its text stays legible */
		for (size_t i = 0; i < cs->n; i++)
			if (cs->v[i].kind == 'a' + k && cs->v[i].width_px > widest && cs->v[i].width_px < 20000)
				widest = cs->v[i].width_px;
		for (size_t i = 0; i < cs->n; i++) {
			char *path, prefix[32];

			if (cs->v[i].kind != 'a' + k)
				continue;
			if (!any)
				strbuf_addf(out, "<h3 id=\"c%c\">%s</h3>\n<div class=\"grid\" style=\"--cell:%dpx\">\n",
					    'a' + k, kind_titles[k], widest > 0 ? widest * 3 / 4 : 560);
			any = 1;
			snprintf(prefix, sizeof(prefix), "c%zu", i + 1);
			path = chart_path(cs, &cs->v[i], "svg");
			strbuf_addf(out, "<figure id=\"chart%zu\">\n", i + 1);
			if (html_inline_svg(out, path, prefix) < 0)
				strbuf_adds(out, "<p class=\"sub\">(chart not available)</p>");
			strbuf_adds(out, "\n<figcaption>");
			h(out, cs->v[i].title);
			if (o && o->caption) {
				strbuf_adds(out, "<br>");
				h(out, o->caption);
			}
			strbuf_adds(out, "</figcaption>\n</figure>\n");
			free(path);
		}
		if (any)
			strbuf_adds(out, "</div>\n");
	}
}

/* ---- page ------------------------------------------------------------------------------------------- */

/* The table of contents: every section and group of the page. */
static void contents(struct strbuf *out, const struct rep_table *t, const struct cmp_table *cmp,
		     const struct chart_set *cs, const struct html_opts *o, int has_disks)
{
	strbuf_adds(out, "<nav>\n<strong>Contents</strong>\n<ol>\n<li><a href=\"#meta\">Suites and setup</a>"
			 "<ol><li><a href=\"#configs\">Per configuration</a></li></ol></li>\n");
	if (cmp) {
		strbuf_adds(out, "<li><a href=\"#ratio\">Ratio table</a>\n<ol>\n");
		for (size_t gi = 0; gi < cmp->n; gi++) {
			strbuf_addf(out, "<li><a href=\"#r%zu\">", gi + 1);
			h(out, cmp->v[gi].title);
			strbuf_adds(out, "</a></li>\n");
		}
		strbuf_adds(out, "</ol></li>\n");
	}
	strbuf_adds(out, "<li><a href=\"#results\">Results</a>\n<ol>\n");
	if (cmp) {
		for (size_t s = 0; s < cmp->nvals; s++)
			for (size_t gi = 0; gi < cmp->sides[s].n; gi++) {
				strbuf_addf(out, "<li><a href=\"#g%zu-%zu\">", s, gi + 1);
				h(out, alias(o, cmp->key, cmp->vals[s]));
				strbuf_adds(out, ": ");
				h(out, cmp->sides[s].v[gi].title);
				strbuf_adds(out, "</a></li>\n");
			}
	} else {
		for (size_t gi = 0; gi < t->n; gi++) {
			strbuf_addf(out, "<li><a href=\"#g%zu\">", gi + 1);
			h(out, t->v[gi].title);
			strbuf_adds(out, "</a></li>\n");
		}
	}
	strbuf_adds(out, "</ol></li>\n");
	if (cs && cs->n) {
		strbuf_adds(out, "<li><a href=\"#charts\">Charts</a>\n<ol>\n");
		for (int k = 0; k < NKINDS; k++) {
			size_t nk = 0;
			for (size_t i = 0; i < cs->n; i++)
				nk += cs->v[i].kind == 'a' + k;
			if (nk)
				strbuf_addf(out, "<li><a href=\"#c%c\">%s</a> (%zu)</li>\n", 'a' + k, kind_titles[k], nk);
		}
		strbuf_adds(out, "</ol></li>\n");
	}
	if (o && o->explain_html && *o->explain_html)
		strbuf_adds(out, "<li><a href=\"#explain\">What limited each result</a></li>\n");
	if (o && o->method_html && *o->method_html)
		strbuf_adds(out, "<li><a href=\"#method\">Curves, steady state and jobs</a></li>\n");
	if (has_disks)
		strbuf_adds(out, "<li><a href=\"#disks\">Disk IO</a></li>\n");
	strbuf_adds(out, "<li><a href=\"#runs\">Runs and hosts</a></li>\n</ol>\n</nav>\n");

}

void html_report(struct strbuf *out, const struct rep_set *set, const struct rep_table *t,
		 const struct cmp_table *cmp, const struct chart_set *cs)
{
	html_report_opts(out, set, t, cmp, cs, NULL);
}

void html_report_opts(struct strbuf *out, const struct rep_set *set, const struct rep_table *t,
		      const struct cmp_table *cmp, const struct chart_set *cs, const struct html_opts *o)
{
	html_report_page(out, set, t, cmp, cs, o, 0);
}

void html_report_page(struct strbuf *out, const struct rep_set *set, const struct rep_table *t,
		      const struct cmp_table *cmp, const struct chart_set *cs, const struct html_opts *o,
		      int script)
{
	const char *title = o && o->title ? o->title : "bench report";
	int single = 0, short_run = 0;
	struct strbuf disks;

	strbuf_init(&disks);
	disks_section(&disks, set, o ? o->st : NULL);
	strbuf_adds(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
			 "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
	h(out, title);
	strbuf_adds(out, "</title>\n<style>\n");
	strbuf_adds(out, css);
	strbuf_adds(out, "</style>\n</head>\n<body>\n<main>\n<header>\n<h1>");
	h(out, title);
	strbuf_adds(out, "</h1>\n");
	if (o && o->caption) {
		strbuf_adds(out, "<p>");
		h(out, o->caption);
		strbuf_adds(out, "</p>\n");
	}
	strbuf_adds(out, "<div class=\"sub\">");
	if (cmp) {
		strbuf_adds(out, "<code>");
		h(out, cmp->key);
		strbuf_adds(out, "</code>: ");
		for (size_t i = 0; i + 1 < cmp->nvals; i++) {
			strbuf_adds(out, i ? ", " : "");
			h(out, alias(o, cmp->key, cmp->vals[i]));
		}
		strbuf_adds(out, " compared with ");
		h(out, alias(o, cmp->key, cmp->b));
		strbuf_adds(out, " &middot; ");
	}
	strbuf_addf(out, "%zu runs, %zu groups</div>\n", set->n, t->n);
	if (script)
		strbuf_adds(out, "<p class=\"filter\"><label>Filter rows and charts: <input id=\"filter\" "
				 "type=\"search\" placeholder=\"e.g. randread, raid5, 256k\"></label> "
				 "<span id=\"filter-count\" class=\"sub\"></span> <span class=\"sub\">(click a "
				 "column heading to sort)</span></p>\n");
	strbuf_adds(out, "</header>\n");

	contents(out, t, cmp, cs, o, disks.len > 0);
	metadata(out, set, o ? o->st : NULL);
	if (cmp)
		ratio_section(out, cmp, o);
	strbuf_adds(out, "<h2 id=\"results\">Results</h2>\n<p>Median of the runs of each workload; under it "
			 "its spread and n: [lo–hi] the 95 % interval of the median (n &ge; 6), else min–max when "
			 "repetitions differ, and n the runs behind the figure. Latency: mean and 99th percentile in "
			 "ms; MiB/s: 1,048,576 bytes per second.</p>\n<p>");
	{
		struct strbuf note;
		strbuf_init(&note);
		render_cpu_note(&note, t);
		h(out, note.buf);
		strbuf_release(&note);
	}
	strbuf_adds(out, "</p>\n");
	if (cmp) {
		for (size_t s = 0; s < cmp->nvals; s++)
			for (size_t gi = 0; gi < cmp->sides[s].n; gi++) {
				char id[48];
				struct rep_group g = cmp->sides[s].v[gi];
				struct strbuf title;

				strbuf_init(&title);
				strbuf_addf(&title, "%s=%s, %s", cmp->key, alias(o, cmp->key, cmp->vals[s]), g.title);
				g.title = title.buf;
				snprintf(id, sizeof(id), "g%zu-%zu", s, gi + 1);
				raw_group(out, &g, id, &single, &short_run);
				strbuf_release(&title);
			}
	} else {
		if (!t->n)
			strbuf_adds(out, "<p class=\"sub\">No finished runs in the selection.</p>\n");
		for (size_t gi = 0; gi < t->n; gi++) {
			char id[32];
			snprintf(id, sizeof(id), "g%zu", gi + 1);
			raw_group(out, &t->v[gi], id, &single, &short_run);
		}
	}
	marks_note(out, single, short_run);
	if (o && o->explain_html && *o->explain_html) {
		strbuf_adds(out, "<div id=\"explain\">\n");
		strbuf_adds(out, o->explain_html); /* its own <section> and <h2> */
		strbuf_adds(out, "</div>\n");
	}
	if (o && o->method_html && *o->method_html) {
		strbuf_adds(out, "<h2 id=\"method\">Curves, steady state and jobs</h2>\n");
		strbuf_adds(out, o->method_html);
	}
	if (cs && cs->n) {
		strbuf_adds(out, "<h2 id=\"charts\">Charts</h2>\n");
		charts_section(out, cs, o);
	}
	strbuf_add(out, disks.buf, disks.len);
	strbuf_release(&disks);
	runs_section(out, set);
	strbuf_adds(out, "<footer>Written by bench report from the runs stored in the database; self-contained: "
			 "nothing on this page is loaded from elsewhere.</footer>\n</main>\n");
	if (script) {
		strbuf_adds(out, "<script>\n");
		strbuf_adds(out, page_script);
		strbuf_adds(out, "</script>\n");
	}
	strbuf_adds(out, "</body>\n</html>\n");
}
