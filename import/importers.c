/*
 * importers: the table of import formats (see importers.h) and the hooks that adapt each format's reader to
 * it. Only the table knows every format; bench/cmd_import.c parses the command line and import_files.c reads
 * and stores through it.
 */
#include "import/importers.h"

#include <string.h>

#include "import/csv_import.h"
#include "import/fio_json_import.h"
#include "import/fio_log_import.h"
#include "import/vdbench_output.h"
#include "engines/fio_histlog.h"
#include "engines/fio_log.h"

static int fio_json_detect(const char *path)
{
	(void)path;
	return 1; /* the fallback: any file (or directory) no other importer claimed */
}

static int fio_json_row(const char *path, const struct import_opts *o, struct import_batch *out,
			struct errbuf *err)
{
	(void)o;
	return fio_json_import(path, out, err);
}

static int fio_log_row(const char *path, const struct import_opts *o, struct import_batch *out,
		       struct errbuf *err)
{
	return fio_log_import(path, o->run_id, out, err);
}

static int fio_histlog_row(const char *path, const struct import_opts *o, struct import_batch *out,
			   struct errbuf *err)
{
	return fio_histlog_import(path, o->run_id, out, err);
}

/* Published results as CSV (csv_import.c, docs/csv-format.md); --map renames columns. */
static int csv_row(const char *path, const struct import_opts *o, struct import_batch *out, struct errbuf *err)
{
	struct kvlist map;
	int ret;

	kvlist_init(&map);
	ret = o->map ? csv_map_add(&map, o->map, err) : 0;
	if (ret == 0)
		ret = csv_import_file(path, &map, out, err);
	kvlist_release(&map);
	return ret;
}

/* A vdbench output directory (vdbench_output.c): one run per avg_ row of flatfile.html. */
static int vdbench_row(const char *path, const struct import_opts *o, struct import_batch *out,
		       struct errbuf *err)
{
	(void)o;
	return vdbench_output_import(path, out, err);
}

/*
 * The importers, most specific first. Other formats add a row here (before fio-json, which claims everything;
 * "csv" is reached only through --csv).
 */
static const struct importer importers[] = {
	{ "fio-histlog", fio_histlog_name, fio_histlog_row, IMPORTER_ATTACH },
	{ "fio-log", fio_log_detect_import, fio_log_row, IMPORTER_ATTACH },
	{ "vdbench", vdbench_output_detect, vdbench_row, 0 },
	{ "csv", NULL, csv_row, IMPORTER_MAP },
	{ "fio-json", fio_json_detect, fio_json_row, 0 },
	{ NULL, NULL, NULL, 0 },
};

const struct importer *importer_named(const char *name)
{
	for (const struct importer *im = importers; im->name; im++)
		if (!strcmp(im->name, name))
			return im;
	return NULL;
}

const struct importer *importer_for(const char *path)
{
	for (const struct importer *im = importers; im->name; im++)
		if (im->detect && im->import && im->detect(path))
			return im;
	return NULL;
}
