/*
 * escape: per-format escaping of user text (see escape.h). Every escaper walks the text one code point at a
 * time through utf8_decode, so that invalid UTF-8 becomes U+FFFD in every format and no format sees a control
 * character it cannot hold.
 */
#include "report/text/escape.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REPLACEMENT 0xFFFD

int32_t utf8_decode(const char *s, size_t len, size_t *used)
{
	const unsigned char *p = (const unsigned char *)s;
	static const int32_t min_of[5] = { 0, 0, 0x80, 0x800, 0x10000 };
	int32_t cp;
	size_t n;

	*used = 1;
	if (!len)
		return -1;
	if (p[0] < 0x80)
		return p[0];
	if (p[0] >= 0xC2 && p[0] <= 0xDF) {
		n = 2;
		cp = p[0] & 0x1F;
	} else if (p[0] >= 0xE0 && p[0] <= 0xEF) {
		n = 3;
		cp = p[0] & 0x0F;
	} else if (p[0] >= 0xF0 && p[0] <= 0xF4) {
		n = 4;
		cp = p[0] & 0x07;
	} else {
		return -1; /* continuation byte, C0/C1 (overlong 2-byte lead) or F5..FF */
	}
	if (n > len)
		return -1;
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xC0) != 0x80)
			return -1;
		cp = (cp << 6) | (p[i] & 0x3F);
	}
	if (cp < min_of[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return -1; /* overlong form, beyond Unicode, or a surrogate */
	*used = n;
	return cp;
}

void utf8_add(struct strbuf *out, int32_t cp)
{
	char b[4];

	if (cp < 0x80) {
		strbuf_addc(out, (char)cp);
		return;
	}
	if (cp < 0x800) {
		b[0] = (char)(0xC0 | (cp >> 6));
		b[1] = (char)(0x80 | (cp & 0x3F));
		strbuf_add(out, b, 2);
	} else if (cp < 0x10000) {
		b[0] = (char)(0xE0 | (cp >> 12));
		b[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		b[2] = (char)(0x80 | (cp & 0x3F));
		strbuf_add(out, b, 3);
	} else {
		b[0] = (char)(0xF0 | (cp >> 18));
		b[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
		b[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
		b[3] = (char)(0x80 | (cp & 0x3F));
		strbuf_add(out, b, 4);
	}
}

int32_t utf8_next(const char **s)
{
	size_t used;
	int32_t cp = utf8_decode(*s, strnlen(*s, 4), &used);

	*s += used;
	return cp < 0 ? REPLACEMENT : cp;
}

static int is_control(int32_t cp)
{
	return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F);
}

/* ---- CSV --------------------------------------------------------------------------------------- */

static int plain_number(const char *s)
{
	char *end;

	if (!*s || strchr(s, '\t') || strchr(s, '\r') || strchr(s, '\n'))
		return 0;
	(void)strtod(s, &end);
	return end != s && !*end && !strpbrk(s, "xXnNiI"); /* not hex, nan or inf */
}

void esc_csv(struct strbuf *out, const char *s)
{
	const char *lead = s;
	int formula, quote;

	while (*lead == ' ')
		lead++;
	formula = *lead && strchr("=+-@\t\r", *lead) && !plain_number(lead);
	quote = formula || strpbrk(s, ",\"\r\n\t") || s[0] == ' ' || s[0] == '-' || s[0] == '+';
	if (quote)
		strbuf_addc(out, '"');
	if (formula)
		strbuf_addc(out, '\''); /* a spreadsheet shows it as text, never runs it */
	while (*s) {
		int32_t cp = utf8_next(&s);
		if (cp == '"')
			strbuf_adds(out, "\"\"");
		else if (is_control(cp) && cp != '\t' && cp != '\n' && cp != '\r')
			continue;
		else
			utf8_add(out, cp);
	}
	if (quote)
		strbuf_addc(out, '"');
}

/* ---- HTML, XML, Markdown, JSON: a table of replacements per format ------------------------------------- */

struct esc_map {
	int32_t cp;
	const char *as;
};

/* Appends s with each code point of map[0..n) written as its replacement, the others through other(). */
static void esc_by_map(struct strbuf *out, const char *s, const struct esc_map *map, size_t n,
		       void (*other)(struct strbuf *out, int32_t cp))
{
	while (*s) {
		int32_t cp = utf8_next(&s);
		size_t i = 0;

		while (i < n && map[i].cp != cp)
			i++;
		if (i < n)
			strbuf_adds(out, map[i].as);
		else
			other(out, cp);
	}
}

#define NMAP(m) (sizeof(m) / sizeof((m)[0]))

static void html_other(struct strbuf *out, int32_t cp)
{
	if (!is_control(cp) || cp == '\t' || cp == '\n')
		utf8_add(out, cp);
}

void esc_html(struct strbuf *out, const char *s)
{
	static const struct esc_map map[] = {
		{ '&', "&amp;" }, { '<', "&lt;" }, { '>', "&gt;" }, { '"', "&quot;" }, { '\'', "&#39;" },
	};

	esc_by_map(out, s, map, NMAP(map), html_other);
}

static void xml_other(struct strbuf *out, int32_t cp)
{
	if (!is_control(cp) && cp != 0xFFFE && cp != 0xFFFF)
		utf8_add(out, cp);
}

/* A raw CR would be read as a line break: &#13; in both. */
void esc_xml_text(struct strbuf *out, const char *s)
{
	static const struct esc_map map[] = {
		{ '&', "&amp;" }, { '<', "&lt;" }, { '>', "&gt;" }, { '\t', "\t" }, { '\n', "\n" }, { '\r', "&#13;" },
	};

	esc_by_map(out, s, map, NMAP(map), xml_other);
}

void esc_xml_attr(struct strbuf *out, const char *s)
{
	static const struct esc_map map[] = {
		{ '&', "&amp;" }, { '<', "&lt;" },   { '>', "&gt;" },   { '"', "&quot;" },
		{ '\'', "&apos;" }, { '\t', "&#9;" }, { '\n', "&#10;" }, { '\r', "&#13;" },
	};

	esc_by_map(out, s, map, NMAP(map), xml_other);
}

static void markdown_other(struct strbuf *out, int32_t cp)
{
	if (is_control(cp))
		return;
	if (cp < 0x80 && strchr("|\\`*_[]#", (int)cp))
		strbuf_addc(out, '\\');
	utf8_add(out, cp);
}

void esc_markdown(struct strbuf *out, const char *s)
{
	static const struct esc_map map[] = {
		{ '\n', " " }, { '\r', " " }, { '\t', " " }, { '<', "&lt;" }, { '>', "&gt;" }, { '&', "&amp;" },
	};

	esc_by_map(out, s, map, NMAP(map), markdown_other);
}

static void json_other(struct strbuf *out, int32_t cp)
{
	/* < > as \u so that JSON inside an HTML <script> cannot close it; U+2028/9 break JavaScript */
	if (is_control(cp) || cp == '<' || cp == '>' || cp == 0x2028 || cp == 0x2029)
		strbuf_addf(out, "\\u%04x", (unsigned)cp);
	else
		utf8_add(out, cp);
}

void esc_json(struct strbuf *out, const char *s)
{
	static const struct esc_map map[] = {
		{ '"', "\\\"" }, { '\\', "\\\\" }, { '\n', "\\n" }, { '\r', "\\r" }, { '\t', "\\t" },
	};

	strbuf_addc(out, '"');
	esc_by_map(out, s, map, NMAP(map), json_other);
	strbuf_addc(out, '"');
}

/* ---- gnuplot ------------------------------------------------------------------------------------- */

/*
 * Inside a single-quoted gnuplot string nothing is substituted (no backquote command substitution, no @macro,
 * no backslash escapes); the only special character is the quote itself, written twice. Line breaks would end
 * the command: control characters become spaces. Scripts use `noenhanced` terminals, so ^ _ @ { } are shown as
 * they are. gnuplot's SVG terminal writes labels into CDATA sections: "]]>" would end one, so it is written
 * "]] >". `pct_twice`: a tic label is also a format, '%' is written twice. `quote`: the character that ends
 * the string and what stands for it.
 */
static void gnuplot_string(struct strbuf *out, const char *s, int pct_twice, char quote, const char *quote_as)
{
	while (*s) {
		int32_t cp;

		if (!strncmp(s, "]]>", 3)) {
			strbuf_adds(out, "]] >");
			s += 3;
			continue;
		}
		cp = utf8_next(&s);
		if (cp == quote)
			strbuf_adds(out, quote_as);
		else if (pct_twice && cp == '%')
			strbuf_adds(out, "%%");
		else if (is_control(cp))
			strbuf_addc(out, ' ');
		else
			utf8_add(out, cp);
	}
}

void esc_gnuplot(struct strbuf *out, const char *s)
{
	gnuplot_string(out, s, 0, '\'', "''");
}

void esc_gnuplot_tic(struct strbuf *out, const char *s)
{
	gnuplot_string(out, s, 1, '\'', "''");
}

void esc_gnuplot_data(struct strbuf *out, const char *s)
{
	/* A data-file string is read, never evaluated; gnuplot has no escape for '"' inside it. */
	strbuf_addc(out, '"');
	gnuplot_string(out, s, 0, '"', "'");
	strbuf_addc(out, '"');
}

/* ---- terminal ------------------------------------------------------------------------------------ */

void esc_text(struct strbuf *out, const char *s)
{
	/* ESC, CSI (U+009B, and a raw 0x9B byte, which is invalid UTF-8) and every other control: '?' */
	while (*s) {
		size_t used;
		int32_t cp = utf8_decode(s, strnlen(s, 4), &used);
		s += used;
		if (cp < 0 || is_control(cp))
			strbuf_addc(out, '?');
		else
			utf8_add(out, cp);
	}
}

/* ---- line protocol and OpenMetrics ----------------------------------------------------------------- */

void esc_backslash(struct strbuf *out, const char *s, const char *special, int cr)
{
	while (s && *s) {
		int32_t cp = utf8_next(&s);

		if (cp == '\n') {
			strbuf_adds(out, "\\n");
		} else if (cp == '\r' && cr) {
			strbuf_adds(out, "\\r");
		} else if (cp == '\\' || (cp < 0x80 && cp && strchr(special, (int)cp))) {
			strbuf_addc(out, '\\');
			strbuf_addc(out, (char)cp);
		} else if (!is_control(cp) || cp == '\t') {
			utf8_add(out, cp);
		}
	}
}
