/*
 * escape: per-format escaping of user text (see escape.h).
 */
#include "report/escape.h"

#include <stdio.h>
#include <string.h>

void esc_csv(struct strbuf *out, const char *s)
{
	if (!strpbrk(s, ",\"\r\n") && s[0] != ' ' && s[0] != '=' && s[0] != '+' && s[0] != '-' && s[0] != '@') {
		strbuf_adds(out, s);
		return;
	}
	strbuf_addc(out, '"');
	/* A leading formula character is neutralised for spreadsheets. */
	if (s[0] == '=' || s[0] == '+' || s[0] == '@' || (s[0] == '-' && !(s[1] >= '0' && s[1] <= '9')))
		strbuf_addc(out, '\'');
	for (; *s; s++) {
		if (*s == '"')
			strbuf_addc(out, '"');
		strbuf_addc(out, *s);
	}
	strbuf_addc(out, '"');
}

void esc_html(struct strbuf *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': strbuf_adds(out, "&amp;"); break;
		case '<': strbuf_adds(out, "&lt;"); break;
		case '>': strbuf_adds(out, "&gt;"); break;
		case '"': strbuf_adds(out, "&quot;"); break;
		case '\'': strbuf_adds(out, "&#39;"); break;
		default: strbuf_addc(out, *s);
		}
	}
}

void esc_markdown(struct strbuf *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '\n' || *s == '\r') {
			strbuf_adds(out, " ");
			continue;
		}
		if (*s == '<') {
			strbuf_adds(out, "&lt;");
			continue;
		}
		if (*s == '>') {
			strbuf_adds(out, "&gt;");
			continue;
		}
		if (*s == '&') {
			strbuf_adds(out, "&amp;");
			continue;
		}
		if (strchr("|\\`*_[]#", *s))
			strbuf_addc(out, '\\');
		strbuf_addc(out, *s);
	}
}

void esc_json(struct strbuf *out, const char *s)
{
	strbuf_addc(out, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		switch (c) {
		case '"': strbuf_adds(out, "\\\""); break;
		case '\\': strbuf_adds(out, "\\\\"); break;
		case '\n': strbuf_adds(out, "\\n"); break;
		case '\r': strbuf_adds(out, "\\r"); break;
		case '\t': strbuf_adds(out, "\\t"); break;
		default:
			if (c < 0x20 || c == '<' || c == '>')
				strbuf_addf(out, "\\u%04x", c);
			else
				strbuf_addc(out, (char)c);
		}
	}
	strbuf_addc(out, '"');
}

void esc_gnuplot(struct strbuf *out, const char *s)
{
	/*
	 * Inside a single-quoted gnuplot string nothing is substituted (no backquote command substitution, no
	 * @macro, no backslash escapes); the only special character is the quote itself, written twice. Line
	 * breaks would end the command: control characters become spaces. Scripts use `noenhanced` terminals,
	 * so ^ _ @ { } are shown as they are.
	 */
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '\'')
			strbuf_adds(out, "''");
		else if (c < 0x20 || c == 0x7f)
			strbuf_addc(out, ' ');
		else
			strbuf_addc(out, (char)c);
	}
}

void esc_gnuplot_tic(struct strbuf *out, const char *s)
{
	/* A tic label of `set xtics ('label' pos)` is also a format: '%' is written twice. */
	for (; *s; s++) {
		if (*s == '%')
			strbuf_adds(out, "%%");
		else {
			char one[2] = { *s, 0 };
			esc_gnuplot(out, one);
		}
	}
}

void esc_gnuplot_data(struct strbuf *out, const char *s)
{
	/* A data-file string is read, never evaluated; gnuplot has no escape for '"' inside it. */
	strbuf_addc(out, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"')
			strbuf_addc(out, '\'');
		else if (c < 0x20 || c == 0x7f)
			strbuf_addc(out, ' ');
		else
			strbuf_addc(out, (char)c);
	}
	strbuf_addc(out, '"');
}

void esc_text(struct strbuf *out, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		strbuf_addc(out, (c < 0x20 || c == 0x7f) ? '?' : (char)c);
	}
}
