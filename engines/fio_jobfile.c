/*
 * fio_jobfile: job file text for a run spec (see fio_jobfile.h).
 */
#include "engines/fio_jobfile.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Options bench sets itself: dropped from the workload's list when bench supplies its own value. */
static const char *const target_opts[] = { "filename", "directory", "filename_format", "opendir", NULL };
static const char *const timing_opts[] = { "runtime", "ramp_time", "time_based", NULL };

static int in_list(const char *const *list, const char *key)
{
	for (size_t i = 0; list[i]; i++)
		if (!strcmp(list[i], key))
			return 1;
	return 0;
}

char *fio_job_name(const char *name)
{
	char *s = xstrdup(name && *name ? name : "job");

	for (char *p = s; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_' && *p != '.')
			*p = '_';
	return s;
}

static int check_value(const char *key, const char *value, struct errbuf *err)
{
	if (strpbrk(key, "\n\r[]=") || (value && strpbrk(value, "\n\r")))
		return err_set(err, ERR_INPUT, "fio option '%s' contains a line break or bracket", key);
	return 0;
}

static void add_opt(struct strbuf *out, const char *key, const char *value)
{
	if (value)
		strbuf_addf(out, "%s=%s\n", key, value);
	else
		strbuf_addf(out, "%s\n", key);
}

/* A workload's options as bench gives them to fio: its own (without what bench decides), then the working
 * set and the timing from the normalised workload (so --quick and matrices take effect). */
static int add_workload(struct strbuf *out, const struct workload *w, int have_targets, struct errbuf *err)
{
	int have_timing = w->runtime_s > 0;

	for (size_t i = 0; i < w->opts.n; i++) {
		const struct kv *o = &w->opts.v[i];
		if (check_value(o->key, o->value, err) < 0)
			return -1;
		if (have_targets && in_list(target_opts, o->key))
			continue;
		if (have_timing && in_list(timing_opts, o->key))
			continue;
		if (!strcmp(o->key, "size") && w->size)
			continue;
		if (!strcmp(o->key, "group_reporting") || !strcmp(o->key, "stonewall") || !strcmp(o->key, "new_group") ||
		    !strcmp(o->key, "name"))
			continue;
		add_opt(out, o->key, o->value);
	}
	if (w->size) {
		if (check_value("size", w->size, err) < 0)
			return -1;
		add_opt(out, "size", w->size);
	}
	if (have_timing) {
		add_opt(out, "time_based", NULL);
		strbuf_addf(out, "runtime=%u\n", w->runtime_s);
		strbuf_addf(out, "ramp_time=%u\n", w->ramp_s);
	}
	return 0;
}

static int add_extra(struct strbuf *out, const struct kvlist *extra, struct errbuf *err)
{
	for (size_t i = 0; extra && i < extra->n; i++) {
		if (check_value(extra->v[i].key, extra->v[i].value, err) < 0)
			return -1;
		add_opt(out, extra->v[i].key, extra->v[i].value);
	}
	return 0;
}

static int check_targets(char *const *targets, size_t ntargets, struct errbuf *err)
{
	for (size_t i = 0; i < ntargets; i++)
		if (strpbrk(targets[i], "\n\r"))
			return err_set(err, ERR_INPUT, "target '%s' contains a line break", targets[i]);
	return 0;
}

void fio_jobfile_add_filename(struct strbuf *out, const char *target)
{
	strbuf_adds(out, "filename=");
	for (const char *p = target; *p; p++) {
		if (*p == ':')
			strbuf_addc(out, '\\');
		strbuf_addc(out, *p);
	}
	strbuf_addc(out, '\n');
}

static void add_header(struct strbuf *out, const struct run_spec *spec)
{
	strbuf_addf(out, "; fio job file written by bench for run %u", spec->seq);
	if (spec->repetition > 1)
		strbuf_addf(out, " (repetition %u)", spec->repetition);
}

int fio_jobfile_write(const struct run_spec *spec, char *const *targets, size_t ntargets, const struct kvlist *extra,
		      struct strbuf *out, struct errbuf *err)
{
	char *job;

	if (spec->njobs)
		return fio_jobfile_write_jobs(spec, extra, NULL, out, err);
	if (check_targets(targets, ntargets, err) < 0)
		return -1;
	add_header(out, spec);
	/* The workload goes into [global]; one job per target below it (HCIbench's one job per disk), all in
	 * one reporting group so that fio reports the run as one result. */
	strbuf_adds(out, "\n[global]\n");
	if (add_workload(out, &spec->wl, ntargets > 0, err) < 0)
		return -1;
	add_opt(out, "group_reporting", NULL);
	if (add_extra(out, extra, err) < 0)
		return -1;
	job = fio_job_name(spec->name);
	if (!ntargets)
		strbuf_addf(out, "\n[%s]\n", job);
	for (size_t i = 0; i < ntargets; i++) {
		if (ntargets == 1)
			strbuf_addf(out, "\n[%s]\n", job);
		else
			strbuf_addf(out, "\n[%s.%zu]\n", job, i + 1);
		fio_jobfile_add_filename(out, targets[i]);
	}
	free(job);
	return 0;
}

int fio_jobfile_write_jobs(const struct run_spec *spec, const struct kvlist *extra, const char *job_log,
			   struct strbuf *out, struct errbuf *err)
{
	add_header(out, spec);
	strbuf_addf(out, ": %zu jobs fio runs together, one reporting group each\n[global]\n", spec->njobs);
	add_opt(out, "group_reporting", NULL);
	for (size_t j = 0; j < spec->njobs; j++) {
		const struct job_spec *js = &spec->jobs[j];
		char *job = fio_job_name(js->name);
		size_t nsec = js->ntargets ? js->ntargets : 1;

		if (check_targets(js->targets, js->ntargets, err) < 0) {
			free(job);
			return -1;
		}
		/* one section per target of the job (HCIbench's one job per disk), the first opening its group */
		for (size_t t = 0; t < nsec; t++) {
			if (nsec == 1)
				strbuf_addf(out, "\n[%s]\n", job);
			else
				strbuf_addf(out, "\n[%s.%zu]\n", job, t + 1);
			if (t == 0)
				add_opt(out, "new_group", NULL);
			if (add_workload(out, &js->wl, js->ntargets > 0, err) < 0 || add_extra(out, extra, err) < 0) {
				free(job);
				return -1;
			}
			if (job_log) {
				strbuf_addf(out, "write_iops_log=%s%zu\n", job_log, j + 1);
				add_opt(out, "log_unix_epoch", "1");
				strbuf_addf(out, "log_avg_msec=%u\n", FIO_JOB_LOG_MSEC);
			}
			if (js->ntargets)
				fio_jobfile_add_filename(out, js->targets[t]);
		}
		free(job);
	}
	return 0;
}
