/*
 * fuzz_hostsfile: fuzz target for the hosts file reader (core/hostsfile.c, hostsfile_parse). A file that parses
 * is written back (hostsfile_write) and must parse again to the same hosts, which is what `bench lab up` relies
 * on; every host's fio --client argument and endpoint string are built. Checked: 0 or -1, a one-line message on
 * -1, an accepted file is never empty, and the write/parse round trip (abort() on violation).
 * Corpus: tests/fuzz/corpus/hostsfile (the examples of docs/hosts.md and broken variants).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/hostsfile.h"
#include "core/model.h"
#include "core/strbuf.h"
#include "tests/fuzz/fuzz_tmp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int str_eq(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

static int host_eq(const struct host *a, const struct host *b)
{
	if (!str_eq(a->name, b->name) || !str_eq(a->addr, b->addr) || a->port != b->port || a->role != b->role ||
	    a->ntargets != b->ntargets || !str_eq(a->exporter_url, b->exporter_url) || !str_eq(a->ssh_user, b->ssh_user))
		return 0;
	for (size_t i = 0; i < a->ntargets; i++)
		if (!str_eq(a->targets[i], b->targets[i]))
			return 0;
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct host_list l, l2;
	struct errbuf err;
	struct strbuf sb;
	int rc;

	if (size > 1 << 20)
		return 0;
	host_list_init(&l);
	host_list_init(&l2);
	strbuf_init(&sb);
	errbuf_init(&err);
	rc = hostsfile_parse((const char *)data, size, "fuzz.hosts", &l, &err);
	fuzz_check_err(rc, &err);
	if (rc == 0) {
		if (!l.n)
			abort();
		for (size_t i = 0; i < l.n; i++) {
			free(host_fio_client_arg(&l.v[i]));
			free(host_endpoint(&l.v[i]));
		}
		hostsfile_write(&l, &sb);
		errbuf_init(&err);
		if (hostsfile_parse(sb.buf, sb.len, "rewritten.hosts", &l2, &err) != 0 || l2.n != l.n)
			abort();
		for (size_t i = 0; i < l.n; i++)
			if (!host_eq(&l.v[i], &l2.v[i]))
				abort();
	}
	strbuf_release(&sb);
	host_list_release(&l2);
	host_list_release(&l);
	return 0;
}
