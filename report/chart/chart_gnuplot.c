/*
 * chart_gnuplot: the chart set, the script preamble and terminals, --dpi, colours per label value, gnuplot
 * strings and the chart files, for every chart kind (see chart_gnuplot.h). The only file of report/ that
 * writes a `set terminal` line.
 */
#include "report/chart/chart_gnuplot.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/labels.h"
#include "report/text/escape.h"

/* The terminals, one font for all charts: PNG 9 pt is as large as the SVG's 11 px. */
static const struct {
	unsigned fmt;
	const char *ext, *term;
} terms[] = {
	{ CHART_PNG, "png", "pngcairo noenhanced font 'DejaVu Sans,9'" },
	{ CHART_SVG, "svg", "svg dynamic noenhanced font 'DejaVu Sans,11' background '#ffffff'" },
};

/* After every image: settings back to the preamble's for the next terminal. */
static const char preamble[] = "set encoding utf8\nset datafile missing 'NaN'\n";

/* Colour-blind-safe palette (Okabe-Ito order, then Tableau's), one entry per label value of a chart set. */
static const char *const palette[] = { "#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00",
				       "#f0e442", "#4e79a7", "#9c755f", "#76b7b2", "#b07aa1", "#59a14f" };
#define NPALETTE (sizeof(palette) / sizeof(palette[0]))

void chart_set_init(struct chart_set *cs)
{
	memset(cs, 0, sizeof(*cs));
	cs->fmts = CHART_PNG | CHART_SVG;
}

static const size_t chart_strs[] = { offsetof(struct chart, stem), offsetof(struct chart, title),
				      offsetof(struct chart, script) };

void chart_set_release(struct chart_set *cs)
{
	if (!cs)
		return;
	array_free_members(cs->v, cs->n, sizeof(*cs->v), chart_strs, sizeof(chart_strs) / sizeof(chart_strs[0]));
	free(cs->dir);
	kvlist_release(&cs->colors);
	chart_set_init(cs);
}

int chart_set_dir(struct chart_set *cs, const char *dir, struct errbuf *err)
{
	struct stat sb;

	if (stat(dir, &sb) == 0) {
		if (!S_ISDIR(sb.st_mode))
			return err_set(err, ERR_INPUT, "chart directory '%s': not a directory", dir);
	} else if (mkdir(dir, 0777) < 0) {
		return err_set(err, ERR_INPUT, "chart directory '%s': cannot make it: %s", dir, strerror(errno));
	}
	if (!cs->dir || strcmp(cs->dir, dir)) {
		free(cs->dir);
		cs->dir = xstrdup(dir);
	}
	return 0;
}

char *chart_path(const struct chart_set *cs, const struct chart *c, const char *ext)
{
	return xasprintf("%s/%s.%s", cs->dir, c->stem, ext);
}

void chart_set_drop(struct chart_set *cs, size_t i)
{
	free(cs->v[i].stem);
	free(cs->v[i].title);
	free(cs->v[i].script);
	memmove(&cs->v[i], &cs->v[i + 1], (cs->n - i - 1) * sizeof(cs->v[0]));
	cs->n--;
}

void charts_remove(const struct chart_set *cs)
{
	static const char *const ext[] = { "gp", "dat", "png", "svg", "gp.err" };

	if (!cs->dir)
		return;
	for (size_t i = 0; i < cs->n; i++)
		for (size_t k = 0; k < sizeof(ext) / sizeof(ext[0]); k++) {
			char *p = chart_path(cs, &cs->v[i], ext[k]);
			unlink(p);
			free(p);
		}
	rmdir(cs->dir);
}

void chart_slug(struct strbuf *out, const char *s)
{
	size_t start = out->len;
	int dash = 0;

	for (; *s && out->len - start < 48; s++) {
		unsigned char c = (unsigned char)*s;
		if (c >= 'A' && c <= 'Z')
			c = (unsigned char)(c - 'A' + 'a');
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
			if (dash && out->len > start)
				strbuf_addc(out, '-');
			strbuf_addc(out, (char)c);
			dash = 0;
		} else {
			dash = 1;
		}
	}
	if (out->len == start)
		strbuf_adds(out, "x");
}

const char *chart_color(struct chart_set *cs, const char *key)
{
	const char *idx = kvlist_get(&cs->colors, key, NULL);
	char buf[24];

	if (!idx) {
		snprintf(buf, sizeof(buf), "%zu", cs->colors.n % NPALETTE);
		kvlist_add(&cs->colors, key, buf);
		idx = kvlist_get(&cs->colors, key, NULL);
	}
	return palette[strtoul(idx, NULL, 10) % NPALETTE];
}

const char *chart_palette(size_t i)
{
	return palette[i % NPALETTE];
}

const char *chart_alias(const struct chart_set *cs, const char *key, const char *value)
{
	return rep_alias_get(cs ? cs->aliases : NULL, key, value);
}

int chart_dpi_parse(const char *s, int *dpi)
{
	char *end;
	long v;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (*end || errno || v < CHART_DPI_MIN || v > CHART_DPI_MAX)
		return -1;
	*dpi = (int)v;
	return 0;
}

/* ---- one chart ----------------------------------------------------------------------------------- */

void chart_gp_begin(struct chart_gp *g, struct chart_set *cs, char kind, const char *name, int width,
		    int height)
{
	memset(g, 0, sizeof(*g));
	g->cs = cs;
	g->kind = kind;
	g->width = width;
	g->height = height;
	strbuf_init(&g->stem);
	strbuf_init(&g->title);
	strbuf_init(&g->body);
	strbuf_init(&g->data);
	if (kind == CHART_TREND)
		strbuf_addf(&g->stem, "trend-%02zu-", cs->n + 1);
	else
		strbuf_addf(&g->stem, "%c-%02zu-", kind, cs->n + 1);
	chart_slug(&g->stem, name);
}

void chart_gp_discard(struct chart_gp *g)
{
	strbuf_release(&g->stem);
	strbuf_release(&g->title);
	strbuf_release(&g->body);
	strbuf_release(&g->data);
}

void chart_gp_str(struct strbuf *sb, const char *s)
{
	strbuf_addc(sb, '\'');
	esc_gnuplot(sb, s);
	strbuf_addc(sb, '\'');
}

void chart_gp_newline(struct strbuf *sb)
{
	strbuf_adds(sb, " . sprintf('%c', 10) . ");
}

void chart_gp_num(struct strbuf *sb, double v)
{
	if (isnan(v) || isinf(v))
		strbuf_adds(sb, " NaN");
	else
		strbuf_addf(sb, " %.10g", v);
}

void chart_gp_datafile(struct chart_gp *g, struct strbuf *sb)
{
	strbuf_addc(sb, '\'');
	esc_gnuplot(sb, g->stem.buf);
	strbuf_adds(sb, ".dat'");
}

/* The script: preamble, then per image its terminal, output, the body and `unset output`. */
static void script_text(const struct chart_gp *g, struct strbuf *sc)
{
	int dpi = g->cs->dpi ? g->cs->dpi : CHART_DPI_SCREEN;
	double scale = (double)dpi / CHART_DPI_SCREEN;

	strbuf_addf(sc, "# bench chart (kind %c); user text only inside single-quoted strings\n%s", g->kind,
		    preamble);
	for (size_t i = 0; i < sizeof(terms) / sizeof(terms[0]); i++) {
		if (!(g->cs->fmts & terms[i].fmt))
			continue;
		if (terms[i].fmt == CHART_PNG && dpi != CHART_DPI_SCREEN)
			/* the same picture at the asked resolution: pixels, fonts, lines and points scaled alike */
			strbuf_addf(sc, "set terminal %s size %d,%d fontscale %.4g linewidth %.4g pointscale %.4g\n",
				    terms[i].term, (int)(g->width * scale + 0.5), (int)(g->height * scale + 0.5), scale,
				    scale, scale);
		else
			strbuf_addf(sc, "set terminal %s size %d,%d\n", terms[i].term, g->width, g->height);
		strbuf_addf(sc, "set output '%s.%s'\n", g->stem.buf, terms[i].ext);
		strbuf_add(sc, g->body.buf, g->body.len);
		strbuf_addf(sc, "unset output\nreset\n%s", preamble);
	}
}

static int write_text(const char *dir, const char *stem, const char *ext, const struct strbuf *sb,
		      struct errbuf *err)
{
	char *path = xasprintf("%s/%s.%s", dir, stem, ext);
	FILE *f = fopen(path, "w");
	int ret = 0;

	if (!f) {
		ret = err_set(err, ERR_INPUT, "cannot write '%s': %s", path, strerror(errno));
	} else {
		size_t n = fwrite(sb->buf, 1, sb->len, f);
		int e = errno;

		if (fclose(f) != 0 || n != sb->len) {
			e = n != sb->len ? e : errno;
			ret = err_set(err, ERR_INPUT, "cannot write '%s': %s", path, strerror(e));
		}
	}
	free(path);
	return ret;
}

int chart_gp_finish(struct chart_gp *g, struct errbuf *err)
{
	struct chart_set *cs = g->cs;
	struct strbuf sc;
	int ret;

	strbuf_init(&sc);
	script_text(g, &sc);
	ret = write_text(cs->dir, g->stem.buf, "dat", &g->data, err);
	if (ret == 0)
		ret = write_text(cs->dir, g->stem.buf, "gp", &sc, err);
	strbuf_release(&sc);
	if (ret == 0) {
		struct chart *c;

		ARRAY_GROW(cs->v, cs->cap, cs->n + 1);
		c = &cs->v[cs->n++];
		c->kind = g->kind;
		c->stem = xstrdup(g->stem.buf);
		c->title = xstrdup(g->title.buf);
		c->script = xasprintf("%s.gp", g->stem.buf);
		c->width_px = g->width;
	}
	chart_gp_discard(g);
	return ret;
}
