/*
 * fio_jobfile: job file text for a run spec (see fio_jobfile.h), and the one computation of the paths fio opens
 * for it (fio_files_plan), from which both the file options written and target.c's checks come. The rules are
 * fio 3.33's: options.c str_filename_cb (every filename= adds files), filesetup.c add_file and set_name_idx
 * (directory= prefix, round-robin by job number, unique_filename on a server), init.c make_filename
 * (filename_format keywords, case-insensitive) and add_job (default names, a jobname that exists as a
 * non-regular file is used as it is).
 */
#include "engines/fio_jobfile.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The file options fio_files_plan owns: never written verbatim, always from the plan. */
static const char *const file_opts[] = { "filename", "directory", "filename_format", "opendir", "nrfiles",
					  "nr_files", NULL };
/* fio 3.33 engines that open no local path: their filename= names a host, URL, pool or nothing. */
static const char *const no_path_engines[] = { "null", "cpuio", "net", "netsplice", "rdma", "http", "nbd",
					       "rbd", "rados", "nfs", "libiscsi", "gfapi", "gfapi_async",
					       "libhdfs", "dfs", "exec", "librpma_apm_client", "librpma_apm_server",
					       "librpma_gpspm_client", "librpma_gpspm_server", NULL };
static const char *const timing_opts[] = { "runtime", "ramp_time", "time_based", NULL };

static int in_list(const char *const *list, const char *key)
{
	for (size_t i = 0; list[i]; i++)
		if (!strcmp(list[i], key))
			return 1;
	return 0;
}

int fio_is_file_option(const char *key)
{
	return in_list(file_opts, key);
}

/* One source of options in the order fio reads bench's [global]. */
struct opt_src {
	const struct kvlist *kv;
	int skip_dotted; /* engine options: keys with a dot are bench's annotations */
	const char *origin;
};

/* The last value of `key` (or its alias) over the sources, "" for a bare key; NULL when never set. */
static const char *last_opt(const struct opt_src *src, size_t nsrc, const char *key, const char *alias)
{
	const char *v = NULL;

	for (size_t k = 0; k < nsrc; k++)
		for (size_t i = 0; src[k].kv && i < src[k].kv->n; i++) {
			const struct kv *o = &src[k].kv->v[i];
			if (!strcmp(o->key, key) || (alias && !strcmp(o->key, alias)))
				v = o->value ? o->value : "";
		}
	return v;
}

/* fio's get_next_str over a ':' list ("\:" a literal colon, empty entries skipped) into `out`. */
static void split_list(const char *list, const char *origin, struct kvlist *out)
{
	struct strbuf one;

	strbuf_init(&one);
	for (const char *p = list;; p++) {
		if (*p == '\\' && p[1] == ':') {
			strbuf_addc(&one, ':');
			p++;
		} else if (*p == ':' || !*p) {
			if (one.len)
				kvlist_add(out, one.buf, origin);
			strbuf_reset(&one);
			if (!*p)
				break;
		} else {
			strbuf_addc(&one, *p);
		}
	}
	strbuf_release(&one);
}

static void add_path(struct kvlist *out, const char *path, const char *origin)
{
	if (!kvlist_find(out, path))
		kvlist_add(out, path, origin);
}

/* set_name_idx: "DIR/" (or "DIR/CLIENTUID." on a server with unique_filename) for job number `jobnum`. */
static char *dir_prefix(const struct kvlist *dirs, unsigned jobnum, const char *uid, int unique)
{
	const char *d;

	if (!dirs->n)
		return xstrdup("");
	d = dirs->v[jobnum % dirs->n].key;
	return (uid && *uid && unique) ? xasprintf("%s/%s.", d, uid) : xasprintf("%s/", d);
}

/* make_filename: $jobname, $jobnum, $filenum, $clientuid (case-insensitive), first match each time. */
static char *make_filename(const char *fmt, const char *jobname, unsigned jobnum, unsigned filenum, const char *uid)
{
	static const char *const kw[] = { "$jobname", "$jobnum", "$filenum", "$clientuid", NULL };
	char *buf = xstrdup(fmt);

	for (size_t k = 0; kw[k]; k++) {
		char *at;
		while ((at = strcasestr(buf, kw[k]))) {
			char val[32];
			const char *v = val;
			char *next;
			if (k == 0)
				v = jobname;
			else if (k == 3)
				v = uid ? uid : "";
			else
				snprintf(val, sizeof(val), "%u", k == 1 ? jobnum : filenum);
			*at = '\0';
			next = xasprintf("%s%s%s", buf, v, at + strlen(kw[k]));
			free(buf);
			buf = next;
		}
	}
	return buf;
}

static unsigned count_opt(const char *v, unsigned def)
{
	char *end;
	unsigned long n;

	if (!v || !*v)
		return def;
	n = strtoul(v, &end, 10);
	return (*end || !n || n > 4096) ? def : (unsigned)n;
}

/* Format mode: fio's default names over numjobs x nrfiles (init.c add_job). */
static void plan_format(const struct opt_src *src, size_t nsrc, const struct kvlist *dirs, const char *jobname,
			const char *uid, struct fio_files *out)
{
	const char *fmt = last_opt(src, nsrc, "filename_format", NULL);
	const char *uniq = last_opt(src, nsrc, "unique_filename", NULL);
	unsigned njobs = count_opt(last_opt(src, nsrc, "numjobs", NULL), 1);
	unsigned nfiles = count_opt(last_opt(src, nsrc, "nrfiles", "nr_files"), 1);
	int unique = !uniq || strcmp(uniq, "0");
	struct stat sb;
	/* a jobname that exists and is not a regular file is opened as it is (fio's exists_and_not_regfile) */
	int as_is = nfiles == 1 && lstat(jobname, &sb) == 0 && !S_ISREG(sb.st_mode);

	out->format_mode = 1;
	out->format = xstrdup(fmt);
	out->nrfiles = xstrdup(last_opt(src, nsrc, "nrfiles", "nr_files"));
	for (unsigned j = 0; j < njobs && out->paths.n < 65536; j++)
		for (unsigned f = 0; f < nfiles; f++) {
			char *pre = dir_prefix(dirs, j, uid, unique);
			char *name = as_is ? xstrdup(jobname) :
					     make_filename(fmt && *fmt ? fmt : "$jobname.$jobnum.$filenum", jobname, j, f, uid);
			char *p = xasprintf("%s%s", pre, name);
			add_path(&out->paths, p, as_is ? "the job's name" : fmt ? "filename_format" : "fio's default file name");
			free(p);
			free(name);
			free(pre);
		}
}

/* A target under directory=: as fio places a filename= entry, unless absolute or already under it. */
static char *fold_target(const struct kvlist *dirs, const char *t)
{
	const char *d = dirs->n ? dirs->v[0].key : NULL;
	size_t dl = d ? strlen(d) : 0;

	if (!d || t[0] == '/' || (!strncmp(t, d, dl) && t[dl] == '/'))
		return xstrdup(t);
	return xasprintf("%s/%s", d, t);
}

int fio_files_plan(const struct workload *wl, const struct kvlist *engine_opts, const struct kvlist *extra,
		   char *const *targets, size_t ntargets, const char *jobname, const char *clientuid,
		   struct fio_files *out, struct errbuf *err)
{
	const struct opt_src src[] = { { &wl->opts, 0, "the job's filename=" },
				       { engine_opts, 1, "--engine-opt filename=" },
				       { extra, 0, "bench's filename=" } };
	const size_t nsrc = 3;
	const char *engine = last_opt(src, nsrc, "ioengine", NULL), *v;
	const char *uniq = last_opt(src, nsrc, "unique_filename", NULL);
	int unique = !uniq || strcmp(uniq, "0");
	struct kvlist dirs;
	char *pre;

	memset(out, 0, sizeof(*out));
	kvlist_init(&out->global);
	kvlist_init(&out->sect);
	kvlist_init(&out->paths);
	kvlist_init(&dirs);
	out->no_local_path = engine && in_list(no_path_engines, engine);
	if ((v = last_opt(src, nsrc, "opendir", NULL)) && !out->no_local_path)
		return err_set(err, ERR_INPUT,
			       "opendir=%s: fio would write every file below it; bench does not run opendir= "
			       "(name the files with filename= or --target)", v);
	if ((v = last_opt(src, nsrc, "directory", NULL))) {
		split_list(v, "directory", &dirs);
		out->directory = xstrdup(v);
	}
	/* filename= entries of [global]: set_name_idx with job number 0, the first directory */
	pre = dir_prefix(&dirs, 0, clientuid, unique);
	for (size_t k = 0; k < nsrc; k++)
		for (size_t i = 0; src[k].kv && i < src[k].kv->n; i++) {
			const struct kv *o = &src[k].kv->v[i];
			struct kvlist names;
			if (strcmp(o->key, "filename") || (k == 0 && ntargets) || (src[k].skip_dotted && strchr(o->key, '.')))
				continue; /* a workload's own filename= became its targets (profiles/) */
			kvlist_init(&names);
			split_list(o->value ? o->value : "", src[k].origin, &names);
			for (size_t n = 0; n < names.n; n++) {
				char *p = xasprintf("%s%s", pre, names.v[n].key);
				add_path(&out->global, p, src[k].origin);
				free(p);
			}
			kvlist_release(&names);
		}
	free(pre);
	for (size_t t = 0; t < ntargets; t++) {
		char *p = fold_target(&dirs, targets[t]);
		kvlist_add(&out->sect, p, strcmp(p, targets[t]) ? "target under directory=" : "target");
		free(p);
	}
	if (!out->global.n && !out->sect.n)
		plan_format(src, nsrc, &dirs, jobname, clientuid, out);
	for (size_t i = 0; i < out->global.n; i++)
		add_path(&out->paths, out->global.v[i].key, out->global.v[i].value);
	for (size_t i = 0; i < out->sect.n; i++)
		add_path(&out->paths, out->sect.v[i].key, out->sect.v[i].value);
	if (out->no_local_path)
		kvlist_release(&out->paths), kvlist_init(&out->paths);
	kvlist_release(&dirs);
	return 0;
}

void fio_files_release(struct fio_files *f)
{
	if (!f)
		return;
	kvlist_release(&f->global);
	kvlist_release(&f->sect);
	kvlist_release(&f->paths);
	free(f->directory);
	free(f->format);
	free(f->nrfiles);
	memset(f, 0, sizeof(*f));
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
static int add_workload(struct strbuf *out, const struct workload *w, int drop_files, struct errbuf *err)
{
	int have_timing = w->runtime_s > 0;

	for (size_t i = 0; i < w->opts.n; i++) {
		const struct kv *o = &w->opts.v[i];
		if (check_value(o->key, o->value, err) < 0)
			return -1;
		if (drop_files && in_list(file_opts, o->key))
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

static int add_extra(struct strbuf *out, const struct kvlist *extra, int drop_files, struct errbuf *err)
{
	for (size_t i = 0; extra && i < extra->n; i++) {
		if (check_value(extra->v[i].key, extra->v[i].value, err) < 0)
			return -1;
		if (drop_files && in_list(file_opts, extra->v[i].key))
			continue;
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

static void add_escaped(struct strbuf *out, const char *name)
{
	for (const char *p = name; *p; p++) {
		if (*p == ':')
			strbuf_addc(out, '\\');
		strbuf_addc(out, *p);
	}
}

void fio_jobfile_add_filename(struct strbuf *out, const char *target)
{
	strbuf_adds(out, "filename=");
	add_escaped(out, target);
	strbuf_addc(out, '\n');
}

/* The plan's [global]-level file options: one filename= list, or format mode's directory/format/nrfiles. */
static void add_plan_global(struct strbuf *out, const struct fio_files *ff)
{
	if (ff->no_local_path)
		return;
	if (ff->global.n) {
		strbuf_adds(out, "filename=");
		for (size_t i = 0; i < ff->global.n; i++) {
			if (i)
				strbuf_addc(out, ':');
			add_escaped(out, ff->global.v[i].key);
		}
		strbuf_addc(out, '\n');
	}
	if (ff->format_mode) {
		if (ff->directory)
			add_opt(out, "directory", ff->directory);
		if (ff->format)
			add_opt(out, "filename_format", ff->format);
		if (ff->nrfiles)
			add_opt(out, "nrfiles", ff->nrfiles);
	}
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
	struct fio_files ff;
	char *job;
	int drop, ret = -1;

	if (spec->njobs)
		return fio_jobfile_write_jobs(spec, extra, NULL, out, err);
	if (check_targets(targets, ntargets, err) < 0)
		return -1;
	job = fio_job_name(spec->name);
	if (fio_files_plan(&spec->wl, &spec->engine_opts, extra, targets, ntargets, job, NULL, &ff, err) < 0)
		goto out;
	/* the file options come from the plan only, so that fio opens what target.c checked */
	drop = !ff.no_local_path || ntargets > 0;
	add_header(out, spec);
	/* The workload goes into [global]; one job per target below it (HCIbench's one job per disk), all in
	 * one reporting group so that fio reports the run as one result. */
	strbuf_adds(out, "\n[global]\n");
	if (add_workload(out, &spec->wl, drop, err) < 0)
		goto out;
	add_opt(out, "group_reporting", NULL);
	if (add_extra(out, extra, !ff.no_local_path, err) < 0)
		goto out;
	add_plan_global(out, &ff);
	if (!ntargets)
		strbuf_addf(out, "\n[%s]\n", job);
	for (size_t i = 0; i < ntargets; i++) {
		if (ntargets == 1)
			strbuf_addf(out, "\n[%s]\n", job);
		else
			strbuf_addf(out, "\n[%s.%zu]\n", job, i + 1);
		fio_jobfile_add_filename(out, ff.no_local_path ? targets[i] : ff.sect.v[i].key);
	}
	ret = 0;
out:
	fio_files_release(&ff);
	free(job);
	return ret;
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
		struct fio_files ff;

		if (check_targets(js->targets, js->ntargets, err) < 0 ||
		    fio_files_plan(&js->wl, &spec->engine_opts, extra, js->targets, js->ntargets, job, NULL, &ff,
				   err) < 0) {
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
			if (add_workload(out, &js->wl, !ff.no_local_path || js->ntargets > 0, err) < 0 ||
			    add_extra(out, extra, !ff.no_local_path, err) < 0) {
				fio_files_release(&ff);
				free(job);
				return -1;
			}
			if (job_log) {
				strbuf_addf(out, "write_iops_log=%s%zu\n", job_log, j + 1);
				add_opt(out, "log_unix_epoch", "1");
				strbuf_addf(out, "log_avg_msec=%u\n", FIO_JOB_LOG_MSEC);
			}
			add_plan_global(out, &ff);
			if (js->ntargets)
				fio_jobfile_add_filename(out, ff.no_local_path ? js->targets[t] : ff.sect.v[t].key);
		}
		fio_files_release(&ff);
		free(job);
	}
	return 0;
}

void fio_jobfile_engine_extras(const struct run_spec *s, const char *sim_so, struct kvlist *extra)
{
	if (s->engine && !strcmp(s->engine, "sim")) {
		char *v = xasprintf("external:%s", sim_so ? sim_so : "");
		kvlist_add(extra, "ioengine", v);
		free(v);
	}
	for (size_t i = 0; i < s->engine_opts.n; i++)
		if (!strchr(s->engine_opts.v[i].key, '.'))
			kvlist_add(extra, s->engine_opts.v[i].key, s->engine_opts.v[i].value);
}
