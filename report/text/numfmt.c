/*
 * numfmt: numbers rounded for reading and at full precision (numfmt.h).
 */
#include "report/text/numfmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

void render_num(struct strbuf *out, double v, int decimals)
{
	if (isnan(v)) {
		strbuf_addc(out, '-');
		return;
	}
	strbuf_addf(out, "%.*f", decimals, v);
}

void render_exact(struct strbuf *out, double v, const char *nan_text)
{
	char buf[40];

	if (isnan(v) || isinf(v)) {
		strbuf_adds(out, nan_text);
		return;
	}
	/* The shortest of %.15g and %.17g that reads back as the same double. */
	snprintf(buf, sizeof(buf), "%.15g", v);
	if (strtod(buf, NULL) != v)
		snprintf(buf, sizeof(buf), "%.17g", v);
	strbuf_adds(out, buf);
}
