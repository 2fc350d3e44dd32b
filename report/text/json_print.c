/*
 * json_print: a cJSON tree into a strbuf (json_print.h).
 */
#include "report/text/json_print.h"

#include <stdlib.h>

void json_print_delete(struct strbuf *out, cJSON *root)
{
	char *text = cJSON_Print(root);

	if (text) {
		strbuf_adds(out, text);
		strbuf_addc(out, '\n');
		free(text);
	}
	cJSON_Delete(root);
}
