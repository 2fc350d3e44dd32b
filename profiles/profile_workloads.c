/*
 * profile_workloads: the workloads of one profile before repetition (profile_workloads.h).
 */
#include "profiles/profile_workloads.h"

#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"

void workloads_init(struct profile_workloads *p)
{
	memset(p, 0, sizeof(*p));
}

void workloads_release(struct profile_workloads *p)
{
	ARRAY_RELEASE(p->v, p->n, run_spec_release);
	free(p->explicit_name);
	free(p->disks);
	workloads_init(p);
}

struct run_spec *workloads_add(struct profile_workloads *p)
{
	ARRAY_GROW(p->v, p->cap, p->n + 1);
	if (p->flags_cap < p->cap) {
		p->explicit_name = xrealloc(p->explicit_name, p->cap * sizeof(int));
		p->disks = xrealloc(p->disks, p->cap * sizeof(unsigned));
		p->flags_cap = p->cap;
	}
	p->explicit_name[p->n] = 0;
	p->disks[p->n] = 0;
	run_spec_init(&p->v[p->n]);
	return &p->v[p->n++];
}

void workloads_move(struct profile_workloads *dst, struct profile_workloads *src)
{
	for (size_t i = 0; i < src->n; i++) {
		struct run_spec *s = workloads_add(dst);
		*s = src->v[i];
		dst->explicit_name[dst->n - 1] = src->explicit_name[i];
		dst->disks[dst->n - 1] = src->disks[i];
	}
	free(src->v);
	free(src->explicit_name);
	free(src->disks);
	workloads_init(src);
}
