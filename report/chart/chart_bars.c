/*
 * chart_bars: publication bar charts (chart_bars.h). The layout is decided here in SVG pixels: how much
 * room each category has, whether its tick label fits horizontally (wrapped at '-', '_', ' ' or '/' into at
 * most three lines) or must turn vertical, how tall the bottom area must be for the labels, the axis title,
 * the legend table of short names and the caption, and whether a value label fits across its bar.
 */
#include "report/chart/chart_bars.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/text/escape.h"

#define CH_PX (BARS_FONT_PX * 0.66)   /* glyph width of DejaVu Sans (digits 0.64 em), generous */
#define LH_PX (BARS_FONT_PX * 1.35)   /* line height */
#define VAL_CH_PX (9 * 0.62)          /* value labels: font 9 */
#define LMARGIN_PX 78                 /* y tick labels and the y axis title */
#define RMARGIN_PX 14
#define MAX_LINES 3                   /* wrapped horizontal tick labels */
#define MIN_PLOT_PX 260               /* plot area height */

void bars_value_text(struct strbuf *out, double v)
{
	double a = fabs(v);

	if (isnan(v))
		return;
	if (a >= 1e6)
		strbuf_addf(out, "%.3gM", v / 1e6);
	else if (a >= 1e4)
		strbuf_addf(out, "%.3gk", v / 1e3);
	else if (a >= 100)
		strbuf_addf(out, "%.0f", v);
	else
		strbuf_addf(out, "%.3g", v); /* 12.5, 4, 0.17 */
}

static size_t u8len(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

/* Splits s into lines of at most `width` characters, breaking after a separator when one is in reach,
 * else hard. Returns the number of lines; *longest gets the longest line's length. Lines go to `out` as
 * NUL-separated pieces when out is not NULL. */
static size_t wrap(const char *s, size_t width, struct strbuf *out, size_t *longest)
{
	size_t n = 0, len = strlen(s), pos = 0;

	*longest = 0;
	if (width < 1)
		width = 1;
	while (pos < len || n == 0) {
		size_t take = len - pos, chars = 0, i, brk = 0;

		/* the byte length of `width` characters from pos */
		for (i = pos; i < len; i++) {
			if (((unsigned char)s[i] & 0xC0) != 0x80) {
				if (chars == width)
					break;
				chars++;
			}
			if (strchr("-_ /", s[i]))
				brk = i + 1;
		}
		if (i < len) {
			take = (brk > pos ? brk : i) - pos;
		}
		if (out) {
			strbuf_add(out, s + pos, take);
			strbuf_addc(out, '\0');
		}
		{
			char *piece = xstrndup(s + pos, take);
			size_t l = u8len(piece);
			if (l > *longest)
				*longest = l;
			free(piece);
		}
		pos += take;
		n++;
		if (!take)
			break;
	}
	return n;
}

/* The tick label of category i as shown: the name, or "W<i+1>". */
static const char *cat_text(const struct bar_spec *b, size_t i, char *buf, size_t len)
{
	if (!b->short_names)
		return b->cats[i];
	snprintf(buf, len, "W%zu", i + 1);
	return buf;
}

struct layout {
	double W, H;              /* picture */
	double panel_w, plot_w, slot;
	int rotate;               /* tick labels vertical */
	size_t wrap_width;        /* characters per tick label line */
	double tick_px, bottom_px, top_px, plot_h;
	size_t legend_cols, legend_rows;
	double legend_colw;
	int val_rotate;           /* value labels vertical */
	double val_px;            /* room a value label needs above its bar */
	size_t title_lines;       /* the chart title, wrapped to the picture's width */
	size_t title_width;       /* characters per title line */
};

#define TITLE_CH_PX 10.0 /* width of a character of the 13 px title font (127 characters measured 1,230 px) */

static int whiskers(const struct bar_spec *b, const struct bar_panel *pn);

/* The chart's title and, when some bar has whiskers, what they mean. */
static void title_text(const struct bar_spec *b, struct strbuf *t)
{
	strbuf_adds(t, b->title ? b->title : "");
	for (size_t p = 0; p < b->npanels; p++)
		if (whiskers(b, &b->panels[p])) {
			strbuf_adds(t, " (whiskers: min-max of the repeated runs)");
			break;
		}
}

#define VERT_WRAP 22 /* characters per line of a vertical tick label */

static void layout_ticks(const struct bar_spec *b, struct layout *L)
{
	size_t maxlines = 0, longest = 0, full = 0;
	char buf[32];

	L->panel_w = L->W / (double)b->npanels;
	L->plot_w = L->panel_w - LMARGIN_PX - RMARGIN_PX;
	L->slot = L->plot_w / (double)(b->ncat ? b->ncat : 1);
	L->wrap_width = (size_t)(L->slot / CH_PX) > 1 ? (size_t)(L->slot / CH_PX) - 1 : 1;
	for (size_t i = 0; i < b->ncat; i++) {
		size_t l, lines = wrap(cat_text(b, i, buf, sizeof(buf)), L->wrap_width, NULL, &l);
		if (lines > maxlines)
			maxlines = lines;
		if (u8len(cat_text(b, i, buf, sizeof(buf))) > full)
			full = u8len(cat_text(b, i, buf, sizeof(buf)));
		(void)l;
	}
	L->rotate = L->wrap_width < 6 || maxlines > MAX_LINES;
	if (!L->rotate) {
		L->tick_px = (double)maxlines * LH_PX + 8;
		return;
	}
	/* vertical: VERT_WRAP characters at most per line, longer ones wrap into more columns (a long workload name
	 * as 3-4 short columns, not one column half the picture's height) */
	L->wrap_width = full > VERT_WRAP ? VERT_WRAP : full;
	maxlines = 0;
	for (size_t i = 0; i < b->ncat; i++) {
		size_t l, lines = wrap(cat_text(b, i, buf, sizeof(buf)), L->wrap_width, NULL, &l);
		if (lines > maxlines)
			maxlines = lines;
		if (l > longest)
			longest = l;
	}
	if (L->slot < (double)maxlines * LH_PX + 4) {
		/* not even vertical labels fit: widen the picture */
		L->slot = (double)maxlines * LH_PX + 4;
		L->plot_w = L->slot * (double)b->ncat;
		L->panel_w = L->plot_w + LMARGIN_PX + RMARGIN_PX;
		L->W = L->panel_w * (double)b->npanels;
	}
	L->tick_px = (double)longest * CH_PX + 12;
}

static void layout_legend(const struct bar_spec *b, struct layout *L)
{
	size_t longest = 0;

	L->legend_rows = 0;
	if (!b->short_names)
		return;
	for (size_t i = 0; i < b->ncat; i++)
		if (u8len(b->cats[i]) > longest)
			longest = u8len(b->cats[i]);
	L->legend_colw = ((double)longest + 7) * CH_PX;
	L->legend_cols = (size_t)((L->W - 20) / L->legend_colw);
	if (L->legend_cols < 1)
		L->legend_cols = 1;
	if (L->legend_cols > b->ncat)
		L->legend_cols = b->ncat;
	L->legend_rows = (b->ncat + L->legend_cols - 1) / L->legend_cols;
	if ((double)L->legend_cols * L->legend_colw > L->W - 20)
		L->W = (double)L->legend_cols * L->legend_colw + 20; /* one column wider than the picture */
}

static void layout_values(const struct bar_spec *b, struct layout *L)
{
	size_t longest = 1;
	struct strbuf sb;

	strbuf_init(&sb);
	for (size_t p = 0; p < b->npanels; p++)
		for (size_t i = 0; i < b->ncat * b->nser; i++) {
			strbuf_reset(&sb);
			bars_value_text(&sb, b->panels[p].v[i]);
			if (sb.len > longest)
				longest = sb.len;
		}
	strbuf_release(&sb);
	L->val_rotate = (double)longest * VAL_CH_PX + 2 > L->slot * 0.8 / (double)b->nser;
	L->val_px = L->val_rotate ? (double)longest * VAL_CH_PX + 8 : 9 * 1.35 + 4;
}

static void layout(const struct bar_spec *b, struct layout *L)
{
	double key_rows = 0;

	memset(L, 0, sizeof(*L));
	L->W = b->npanels > 1 ? 1200 : 900;
	layout_legend(b, L);
	layout_ticks(b, L);
	layout_values(b, L);
	if (b->nser > 1) {
		double row_w = 0;
		for (size_t s = 0; s < b->nser; s++)
			row_w += (double)u8len(b->series[s]) * CH_PX + 50;
		key_rows = ceil(row_w / (L->panel_w - 20));
	}
	{ /* a title wider than the picture wraps (at '-', '_', ' ', '/'), never cut at both ends */
		struct strbuf t;
		size_t longest;

		strbuf_init(&t);
		title_text(b, &t);
		L->title_width = (size_t)((L->W - 40) / TITLE_CH_PX);
		L->title_lines = wrap(t.buf ? t.buf : "", L->title_width, NULL, &longest);
		strbuf_release(&t);
	}
	L->top_px = 12 + LH_PX * 1.6 * (double)L->title_lines /* chart title */ + key_rows * LH_PX + 12;
	L->bottom_px = L->tick_px + LH_PX + 10 + (double)L->legend_rows * LH_PX + (b->caption ? LH_PX + 6 : 0) + 8;
	L->plot_h = MIN_PLOT_PX + (L->val_rotate ? L->val_px : 0);
	L->H = L->top_px + L->plot_h + L->bottom_px;
}

/* One tick label as a gnuplot string expression: single-quoted lines joined with ."\n". */
static void tic_expr(struct strbuf *body, const char *s, size_t width)
{
	struct strbuf lines;
	size_t longest, n = wrap(s, width, NULL, &longest);
	const char *p;

	strbuf_init(&lines);
	wrap(s, width, &lines, &longest);
	p = lines.buf;
	for (size_t i = 0; i < n; i++) {
		strbuf_adds(body, i ? ".NL.'" : "'");
		esc_gnuplot_tic(body, p);
		strbuf_addc(body, '\'');
		p += strlen(p) + 1;
	}
	strbuf_release(&lines);
}

/* The y range of a panel and whether it is logarithmic. */
static void panel_range(const struct bar_spec *b, struct bar_panel *pn, const struct layout *L, double *lo,
			double *hi)
{
	double mn = INFINITY, mx = 0;
	size_t n = b->ncat * b->nser;
	double head = (L->val_px + 4) / L->plot_h;

	for (size_t i = 0; i < n; i++) {
		double top = pn->hi && !isnan(pn->hi[i]) && pn->hi[i] > pn->v[i] ? pn->hi[i] : pn->v[i];

		if (!isnan(pn->v[i]) && pn->v[i] > 0) {
			mn = pn->v[i] < mn ? pn->v[i] : mn;
			mx = top > mx ? top : mx;
		}
	}
	pn->log = mx > 0 && (b->log == 1 || (b->log == -1 && mx / mn > BARS_LOG_SPAN));
	if (mx <= 0) {
		*lo = 0;
		*hi = 1;
	} else if (pn->log) {
		double l0 = floor(log10(mn * 0.7)), l1 = log10(mx); /* the smallest bar keeps a visible height */
		*lo = pow(10, l0);
		*hi = pow(10, l1 + (l1 - l0) * head / (1 - head) + 0.05);
	} else {
		*lo = 0;
		*hi = mx / (1 - head) * 1.02;
	}
}

static void legend_table(struct strbuf *body, const struct bar_spec *b, const struct layout *L)
{
	double y0 = L->bottom_px - L->tick_px - LH_PX - 14;
	int tag = 100;

	for (size_t i = 0; i < b->ncat; i++) {
		size_t col = i / L->legend_rows, row = i % L->legend_rows;
		struct strbuf t;

		strbuf_init(&t);
		strbuf_addf(&t, "W%zu  %s", i + 1, b->cats[i]);
		strbuf_addf(body, "set label %d '", tag++);
		esc_gnuplot(body, t.buf);
		strbuf_addf(body, "' at screen %.5f, screen %.5f left font ',%d'\n", (10 + (double)col * L->legend_colw) / L->W,
			    (y0 - (double)row * LH_PX) / L->H, BARS_FONT_PX);
		strbuf_release(&t);
	}
}

#define BAR_COLS 6 /* data columns per series: value, label, colour, whisker low, high, label height */

/* Whether the panel has any whisker. */
static int whiskers(const struct bar_spec *b, const struct bar_panel *pn)
{
	for (size_t i = 0; pn->lo && pn->hi && i < b->ncat * b->nser; i++)
		if (!isnan(pn->lo[i]) && !isnan(pn->hi[i]))
			return 1;
	return 0;
}

/* The whisker columns of value i: low, high (NaN NaN when none) and the label's height (the whisker's top,
 * else the value). */
static void bar_whisker(struct strbuf *data, const struct bar_panel *pn, size_t i)
{
	double v = pn->v[i], lo = pn->lo ? pn->lo[i] : NAN, hi = pn->hi ? pn->hi[i] : NAN;

	if (isnan(v) || isinf(v) || isnan(lo) || isnan(hi)) {
		strbuf_addf(data, " NaN NaN %s", isnan(v) || isinf(v) ? "NaN" : "");
		if (!(isnan(v) || isinf(v)))
			strbuf_addf(data, "%.10g", v);
		return;
	}
	strbuf_addf(data, " %.10g %.10g %.10g", lo, hi, hi > v ? hi : v);
}

static void panel_body(struct strbuf *body, struct strbuf *data, struct bar_spec *b, const struct layout *L,
		       size_t p)
{
	struct bar_panel *pn = &b->panels[p];
	double lo, hi, x0 = (double)p * L->panel_w, w = 0.8 / (double)b->nser;
	char buf[32];

	panel_range(b, pn, L, &lo, &hi);
	strbuf_addf(body, "set lmargin at screen %.5f\nset rmargin at screen %.5f\nset bmargin at screen %.5f\n"
			  "set tmargin at screen %.5f\n", (x0 + LMARGIN_PX) / L->W,
		    (x0 + LMARGIN_PX + L->plot_w) / L->W, L->bottom_px / L->H, (L->bottom_px + L->plot_h) / L->H);
	/* the panel's metric is its y axis title (with the unit); the x axis title sits under the tick labels */
	strbuf_adds(body, "unset title\nunset xlabel\nset ylabel '");
	esc_gnuplot(body, pn->ylabel);
	strbuf_addf(body, "%s'\nset label 98 '", pn->log ? ", log scale" : "");
	esc_gnuplot(body, b->xlabel);
	strbuf_addf(body, "' at screen %.5f, screen %.5f center\n", (x0 + LMARGIN_PX + L->plot_w / 2) / L->W,
		    (L->bottom_px - L->tick_px - LH_PX * 0.6) / L->H);
	/* tick labels "20k", "1M" for large values (mantissa and SI prefix), else as they are */
	if (pn->log)
		strbuf_addf(body, "set logscale y 10\nset format y '%s'\nset yrange [%.6g:%.6g]\n",
			    hi >= 20000 ? "%.0s%c" : "%g", lo, hi);
	else
		strbuf_addf(body, "unset logscale y\nset format y '%s'\nset yrange [0:%.6g]\n",
			    hi >= 20000 ? "%.0s%c" : "%g", hi);
	strbuf_addf(body, "set xrange [-0.5:%zu.5]\nset xtics (", b->ncat ? b->ncat - 1 : 0);
	for (size_t i = 0; i < b->ncat; i++) {
		if (i)
			strbuf_adds(body, ", ");
		tic_expr(body, cat_text(b, i, buf, sizeof(buf)), L->wrap_width);
		strbuf_addf(body, " %zu", i);
	}
	strbuf_addf(body, ")%s\n", L->rotate ? " rotate by 90 right" : " norotate center");
	/* data: index p, one line per category: x, then per series value, label text, colour, whisker low and
	 * high (NaN: none), the label's height (above the whisker) */
	for (size_t i = 0; i < b->ncat; i++) {
		strbuf_addf(data, "%zu", i);
		for (size_t s = 0; s < b->nser; s++) {
			double v = pn->v[i * b->nser + s];
			const char *rgb = b->rgb[b->per_cat ? i : s];
			struct strbuf t;

			strbuf_init(&t);
			bars_value_text(&t, v);
			if (isnan(v) || isinf(v))
				strbuf_adds(data, " NaN");
			else
				strbuf_addf(data, " %.10g", v);
			strbuf_addf(data, " \"%s\" %ld", t.len ? t.buf : "", strtol(rgb + 1, NULL, 16));
			bar_whisker(data, pn, i * b->nser + s);
			strbuf_release(&t);
		}
		strbuf_addc(data, '\n');
	}
	strbuf_adds(data, "\n\n");
	if (p == 0 && b->short_names)
		legend_table(body, b, L);
	if (p == 0 && b->caption) {
		strbuf_adds(body, "set label 99 '");
		esc_gnuplot(body, b->caption);
		strbuf_addf(body, "' at screen %.5f, screen %.5f left font ',%d'\n", 10 / L->W, 8 / L->H, BARS_FONT_PX);
	}
	strbuf_adds(body, "plot ");
	for (size_t s = 0; s < b->nser; s++) {
		double off = -0.4 + ((double)s + 0.5) * w;
		size_t vc = 2 + BAR_COLS * s;

		strbuf_addf(body, "%s'%s' index %zu using ($1%+.5f):%zu:($1%+.5f):($1%+.5f):(%.6g):%zu:%zu "
				  "with boxxyerror fs solid 0.9 border rgb '#444444' lc rgb variable title ",
			    s ? ", " : "", b->datafile, p, off, vc, off - w / 2 * 0.92, off + w / 2 * 0.92,
			    pn->log ? lo : 0.0, vc, vc + 2);
		if (b->nser > 1 && p == 0) {
			strbuf_addc(body, '\'');
			esc_gnuplot(body, b->series[s]);
			strbuf_addc(body, '\'');
		} else {
			strbuf_adds(body, "''");
		}
		if (whiskers(b, pn))
			strbuf_addf(body, ", '' index %zu using ($1%+.5f):%zu:(0):($%zu-$%zu) with vectors nohead lw 1.5 "
					  "lc rgb '#222222' notitle", p, off, vc + 3, vc + 4, vc + 3);
		strbuf_addf(body, ", '' index %zu using ($1%+.5f):%zu:%zu with labels font ',9' %s notitle", p, off,
			    vc + 5, vc + 1, L->val_rotate ? "rotate by 90 left offset 0,0.4" : "center offset 0,0.6");
	}
	strbuf_adds(body, "\nunset label\n");
}

void bars_write(struct strbuf *body, struct strbuf *data, struct bar_spec *b)
{
	struct layout L;

	layout(b, &L);
	b->width_px = (int)ceil(L.W);
	b->height_px = (int)ceil(L.H);
	strbuf_adds(body, "NL = sprintf('%c', 10)\nset border 3\nset tics nomirror\nset grid ytics lc rgb '#dddddd'\nset mxtics 1\n"
			  "set key outside top center horizontal noopaque nobox samplen 1.5 width 1\n"
			  "set xtics scale 0\nset multiplot title ");
	{
		struct strbuf t, lines;
		size_t longest;
		const char *p;

		strbuf_init(&t);
		strbuf_init(&lines);
		title_text(b, &t);
		wrap(t.buf ? t.buf : "", L.title_width, &lines, &longest);
		p = lines.buf;
		for (size_t i = 0; i < L.title_lines; i++) {
			strbuf_adds(body, i ? ".NL.'" : "'");
			esc_gnuplot(body, p);
			strbuf_addc(body, '\'');
			p += strlen(p) + 1;
		}
		strbuf_release(&t);
		strbuf_release(&lines);
	}
	strbuf_adds(body, " font ',13'\n");
	/* the legend: one row (or more) between the chart title and the panel titles */
	strbuf_addf(body, "set key at screen 0.5, screen %.5f center top\n",
		    (L.H - 12 - LH_PX * 1.6 * (double)L.title_lines) / L.H);
	if (b->nser == 1)
		strbuf_adds(body, "unset key\n");
	for (size_t p = 0; p < b->npanels; p++) {
		panel_body(body, data, b, &L, p);
		if (p == 0 && b->nser > 1)
			strbuf_adds(body, "unset key\n");
	}
	strbuf_adds(body, "unset multiplot\n");
}
