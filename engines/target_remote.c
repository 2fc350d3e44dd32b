/*
 * target_remote: the probe of paths on another host over ssh and the parser of its answer (see
 * target_remote.h). The answer is line based so that a fixed text can test the parser:
 *
 *     bench-probe 1
 *     P 0                      one record per path, in the order given
 *     kind block               missing, regular, block, dir, charnull, other, dangling
 *     real /dev/loop3          the path with every link resolved
 *     size 8388608             bytes
 *     direxists 1              missing: its directory exists
 *     mark 1                   regular file with user.bench = target
 *     mounted /mnt/x           block device (or a partition of it) mounted there
 *     swap 1                   active swap
 *     holders dm-0             devices holding it or its partitions
 *     parts loop3p1 loop3p2    partitions in sysfs
 *     sig TYPE=xfs             what blkid -p found (or why it could not look); USAGE=filesystem after it
 *     loop /dev/loop4 mounted at /mnt/y   regular file backing a mounted or held loop device
 *     end
 */
#include "engines/target_remote.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hostsfile.h"
#include "core/proc.h"
#include "core/strbuf.h"
#include "engines/remote.h"

const char target_remote_script[] =
	"name_of() { n=$(readlink -f \"/sys/dev/block/$1\"); printf '%s' \"${n##*/}\"; }\n"
	"mnt_of() { n=$(name_of \"$1\"); while read -r _ _ mm _ mp rest; do src=${rest#* - }; src=${src#* };"
	" src=${src%% *}; if [ \"$mm\" = \"$1\" ] || [ \"$src\" = \"/dev/$n\" ]; then printf '%s\\n' \"$mp\";"
	" return 0; fi; done </proc/self/mountinfo; return 1; }\n"
	"devs_of() { cat \"$1/dev\"; for q in \"$1\"/*/partition; do [ -e \"$q\" ] && cat \"${q%/partition}/dev\";"
	" done; }\n"
	"busy() { for d in $(devs_of \"$1\"); do m=$(mnt_of \"$d\") && { printf 'mounted at %s' \"$m\"; return 0; };"
	" for x in /sys/dev/block/$d/holders/*; do [ -e \"$x\" ] && { printf 'held by %s' \"${x##*/}\"; return 0; };"
	" done; done; return 1; }\n"
	"swapped() { while read -r f _; do [ \"$f\" = Filename ] && continue;"
	" if [ -b \"$f\" ]; then s=$(stat -L -c '%t:%T' -- \"$f\"); [ \"$s\" = \"$2\" ] && return 0;"
	" elif [ \"$(realpath -- \"$f\" 2>/dev/null)\" = \"$1\" ]; then return 0; fi; done </proc/swaps; return 1; }\n"
	"block() {\n"
	" echo 'kind block'; sys=/sys/dev/block/$(($1)):$(($2))\n"
	" [ -r \"$sys/size\" ] && echo \"size $(( $(cat \"$sys/size\") * 512 ))\"\n"
	" for d in $(devs_of \"$sys\"); do m=$(mnt_of \"$d\") && { printf 'mounted %s\\n' \"$m\"; break; }; done\n"
	" for d in $(devs_of \"$sys\"); do swapped \"$r\" \"$(printf '%x:%x' \"${d%:*}\" \"${d#*:}\")\" 2>/dev/null"
	" && echo 'swap 1'; done\n"
	" h=; for d in $(devs_of \"$sys\"); do for x in /sys/dev/block/$d/holders/*; do [ -e \"$x\" ] && h=\"$h ${x##*/}\";"
	" done; done; [ -n \"$h\" ] && echo \"holders$h\"\n"
	" pp=; for q in \"$sys\"/*/partition; do [ -e \"$q\" ] && { q=${q%/partition}; pp=\"$pp ${q##*/}\"; }; done;"
	" [ -n \"$pp\" ] && echo \"parts$pp\"\n"
	" if ! command -v blkid >/dev/null 2>&1; then echo 'sig unknown (blkid is not installed there)';"
	" elif ! [ -r \"$r\" ]; then echo \"sig unknown ($(id -un) cannot read the device)\";"
	" else o=$(blkid -p -o export -- \"$r\" 2>&1); rc=$?; case $rc in\n"
	"  0) printf '%s\\n' \"$o\" | while IFS= read -r l; do case $l in TYPE=*|PTTYPE=*|USAGE=*) echo \"sig $l\";; esac; done;;\n"
	"  2) ;;\n"
	"  *) echo \"sig unknown (blkid -p exit $rc: $(printf '%s' \"$o\" | tr '\\n' ' '))\";; esac; fi\n"
	"}\n"
	"regular() {\n"
	" echo 'kind regular'; echo \"size $(stat -L -c %s -- \"$p\")\"\n"
	" if command -v getfattr >/dev/null 2>&1; then v=$(getfattr --only-values -n user.bench -- \"$r\" 2>/dev/null)"
	" && [ \"$v\" = target ] && echo 'mark 1'; fi\n"
	" swapped \"$r\" - && echo 'swap 1'\n"
	" for b in /sys/block/loop*/loop/backing_file; do [ -r \"$b\" ] && [ \"$(cat \"$b\")\" = \"$r\" ] || continue;"
	" l=${b%/loop/backing_file}; w=$(busy \"$l\") && echo \"loop /dev/${l##*/} $w\"; done\n"
	"}\n"
	"echo 'bench-probe 1'; i=0\n"
	"for p in \"$@\"; do\n"
	" echo \"P $i\"; i=$((i + 1))\n"
	" if [ -L \"$p\" ] && ! [ -e \"$p\" ]; then echo 'kind dangling'; continue; fi\n"
	" if ! [ -e \"$p\" ]; then echo 'kind missing'; [ -d \"$(dirname -- \"$p\")\" ] && echo 'direxists 1'; continue; fi\n"
	" r=$(realpath -- \"$p\" 2>/dev/null || readlink -f -- \"$p\"); printf 'real %s\\n' \"$r\"\n"
	" case $(stat -L -c %F -- \"$p\") in\n"
	"  'block special file') block 0x$(stat -L -c %t -- \"$p\") 0x$(stat -L -c %T -- \"$p\");;\n"
	"  regular*) regular;;\n"
	"  directory) echo 'kind dir';;\n"
	"  'character special file') case $(stat -L -c %t:%T -- \"$p\") in 1:3|1:5) echo 'kind charnull';;"
	" *) echo 'kind other';; esac;;\n"
	"  *) echo 'kind other';;\n"
	" esac\n"
	"done\n"
	"echo end\n";

char **target_remote_argv(const struct host *h, char *const *paths, size_t n)
{
	char **v = xcalloc(REMOTE_SSH_WORDS + 4 + n, sizeof(*v));
	size_t k = remote_ssh_prefix(h, v);
	const char *words[] = { "sh", "-c", target_remote_script, "bench-probe" };
	struct strbuf sb;

	/* ssh joins the remote words with spaces for the remote shell: each is quoted as one word */
	for (size_t i = 0; i < 4 + n; i++) {
		strbuf_init(&sb);
		strbuf_add_shell_word(&sb, i < 4 ? words[i] : paths[i - 4]);
		v[k++] = strbuf_detach(&sb, NULL);
	}
	return v;
}

static const char *const kinds[] = {
	[TARGET_MISSING] = "missing", [TARGET_REGULAR] = "regular",   [TARGET_BLOCK] = "block",
	[TARGET_DIR] = "dir",         [TARGET_CHAR_NULL] = "charnull", [TARGET_OTHER] = "other",
	[TARGET_DANGLING] = "dangling",
};

/* Appends `more` to the text *list ("a, b"). */
static void add_to(char **list, const char *sep, const char *more)
{
	char *both = *list ? xasprintf("%s%s%s", *list, sep, more) : xstrdup(more);

	free(*list);
	*list = both;
}

/* One "key value" line of a path's record into f; -1 for a key or value the probe never writes. */
static int parse_fact(struct target_facts *f, const char *key, const char *val)
{
	if (!strcmp(key, "kind")) {
		for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
			if (!strcmp(val, kinds[k])) {
				f->kind = (enum target_kind)k;
				return 0;
			}
		return -1;
	}
	if (!strcmp(key, "size")) {
		char *e;
		f->size = strtoull(val, &e, 10);
		return *val && !*e ? 0 : -1;
	}
	if (!strcmp(key, "real") && !f->real && val[0] == '/')
		f->real = xstrdup(val);
	else if (!strcmp(key, "direxists") && !strcmp(val, "1"))
		f->dir_exists = 1;
	else if (!strcmp(key, "mark") && !strcmp(val, "1"))
		f->bench_made = 1;
	else if (!strcmp(key, "swap") && !strcmp(val, "1"))
		f->swap = 1;
	else if (!strcmp(key, "mounted") && !f->mounted_at && *val)
		f->mounted_at = xstrdup(val);
	else if (!strcmp(key, "holders") && *val)
		add_to(&f->holders, " ", val);
	else if (!strcmp(key, "loop") && strchr(val, ' ') && !f->backs_loop) {
		f->backs_loop = xstrndup(val, (size_t)(strchr(val, ' ') - val));
		f->loop_use = xstrdup(strchr(val, ' ') + 1);
	} else if (!strcmp(key, "parts") && *val)
		f->partitions = 1;
	else if (!strcmp(key, "sig") && !strncmp(val, "USAGE=", 6)) {
		/* what the signature before it is used as, named as the local probe names it: "btrfs (filesystem)" */
		if (f->signatures && val[6]) {
			char *t = xasprintf("%s (%s)", f->signatures, val + 6);
			free(f->signatures);
			f->signatures = t;
		}
	} else if (!strcmp(key, "sig") && *val) {
		char *t = !strncmp(val, "PTTYPE=", 7) ? xasprintf("%s partition table", val + 7)
			  : !strncmp(val, "TYPE=", 5)  ? xstrdup(val + 5)
						       : xstrdup(val);
		add_to(&f->signatures, ", ", t);
		free(t);
	} else
		return -1;
	return 0;
}

int target_remote_parse(const struct host *h, const char *text, char *const *paths, size_t n,
			struct target_facts *out, struct errbuf *err)
{
	const char *s = text;
	size_t lineno = 0, cur = 0;
	int started = 0, ended = 0, ret = -1;

	while (*s && !ended) {
		const char *nl = strchr(s, '\n');
		char *line = nl ? xstrndup(s, (size_t)(nl - s)) : xstrdup(s), *sp;

		s = nl ? nl + 1 : s + strlen(s);
		lineno++;
		sp = strchr(line, ' ');
		if (sp)
			*sp++ = '\0';
		if (!started) {
			started = !strcmp(line, "bench-probe") && sp && !strcmp(sp, "1");
		} else if (!strcmp(line, "end") && !sp) {
			ended = 1;
		} else if (!strcmp(line, "P") && sp) {
			char want[32];
			snprintf(want, sizeof(want), "%zu", cur);
			if (cur >= n || strcmp(sp, want)) {
				free(line);
				goto bad;
			}
			out[cur].path = xstrdup(paths[cur]);
			cur++;
		} else if (!cur || !sp || parse_fact(&out[cur - 1], line, sp) < 0) {
			free(line);
			goto bad;
		}
		free(line);
		if (!started)
			goto bad;
	}
	if (!ended || cur != n) {
		err_set(err, ERR_HOST, "host '%s': the target probe's answer is cut short (%zu of %zu paths)", h->name,
			cur, n);
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		if (out[i].kind == TARGET_REGULAR && out[i].real && host_path_in_workdir(h, out[i].real))
			out[i].bench_made = 1; /* the mark's substitute: a file in the directory declared for bench */
	ret = 0;
	goto out;
bad:
	err_set(err, ERR_HOST, "host '%s': the target probe's answer is not understood at line %zu", h->name, lineno);
out:
	return ret;
}

int target_facts_remote(const struct host *h, char *const *paths, size_t n, struct target_facts *out,
			struct errbuf *err)
{
	char **argv, *answer = NULL;
	int code = 0, ret = -1;

	for (size_t i = 0; i < n; i++)
		if (strchr(paths[i], '\n'))
			return err_set(err, ERR_INPUT, "host '%s': path with a line break cannot be probed", h->name);
	argv = target_remote_argv(h, paths, n);
	if (proc_run_capture(argv, TARGET_REMOTE_TIMEOUT_MS, &answer, &code, err) < 0) {
		err_prefix(err, "host '%s': cannot probe its targets over ssh", h->name);
		goto out;
	}
	if (code != 0) {
		err_set(err, ERR_HOST, "host '%s': cannot probe its targets over ssh (ssh %s@%s exit %d)", h->name,
			h->ssh_user ? h->ssh_user : "", h->addr, code);
		goto out;
	}
	ret = target_remote_parse(h, answer ? answer : "", paths, n, out, err);
out:
	free(answer);
	argv_free(argv);
	return ret;
}

/* The decision for one path without ssh access: canonical and below workdir=, or --destructive. */
static int judge_unprobed(const struct host *h, const char *path, int flags, struct strbuf *why, struct errbuf *err)
{
	if (host_path_in_workdir(h, path)) {
		strbuf_addf(why, "ok (below workdir=%s; not probed: no ssh access)", h->workdir);
		return 0;
	}
	if (flags & TARGET_DESTRUCTIVE) {
		strbuf_adds(why, "ok (--destructive; not probed: no ssh access)");
		return 0;
	}
	err_set(err, ERR_INPUT,
		"%s:%d: no ssh access to host '%s' to probe '%s' (add ssh= to its line, name a path below its "
		"workdir=, or pass --destructive)",
		h->src_file ? h->src_file : "hosts", h->src_line, h->name, path);
	strbuf_addf(why, "refused: %s", err->msg);
	return -1;
}

static void decision_line(struct strbuf *decisions, const struct host *h, const char *path, const char *why)
{
	if (decisions)
		strbuf_addf(decisions, "%-12s %s %s\n", h->name, path, why);
}

int target_remote_check(const struct host *h, char *const *paths, const int *writes, size_t n, int flags,
			struct strbuf *decisions, struct errbuf *err)
{
	struct target_facts *facts = NULL;
	struct strbuf why;
	struct errbuf e;
	int ret = 0;

	strbuf_init(&why);
	if (!remote_has_ssh(h)) {
		for (size_t i = 0; i < n; i++) {
			errbuf_init(&e);
			strbuf_reset(&why);
			if (judge_unprobed(h, paths[i], flags, &why, &e) < 0 && ret == 0)
				ret = err_set(err, e.kind, "%s", e.msg);
			decision_line(decisions, h, paths[i], why.buf);
		}
		goto out;
	}
	facts = xcalloc(n ? n : 1, sizeof(*facts));
	if (target_facts_remote(h, paths, n, facts, err) < 0) {
		for (size_t i = 0; i < n; i++)
			decision_line(decisions, h, paths[i], "not checked: the probe over ssh failed");
		ret = -1;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		errbuf_init(&e);
		if (target_judge(&facts[i], flags, writes ? writes[i] : 1, h->name, &e) < 0) {
			err_prefix(&e, "%s:%d", h->src_file ? h->src_file : "hosts", h->src_line);
			strbuf_reset(&why);
			strbuf_addf(&why, "refused: %s", e.msg);
			decision_line(decisions, h, paths[i], why.buf);
			if (ret == 0)
				ret = err_set(err, e.kind, "%s", e.msg);
		} else {
			decision_line(decisions, h, paths[i], "ok (probed over ssh)");
		}
	}
out:
	for (size_t i = 0; facts && i < n; i++)
		target_facts_release(&facts[i]);
	free(facts);
	strbuf_release(&why);
	return ret;
}
