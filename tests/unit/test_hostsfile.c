/*
 * test_hostsfile: core/hostsfile.c (the hosts file format of docs/hosts.md: good files, every error with its
 * file:line, write then read back) and the ssh argv of engines/fio_hosts.c (`bench hosts start|stop`): BatchMode,
 * the user, "--" before the address, every remote word single-quoted so that nothing reaches the remote shell
 * unquoted. Also the keys that reach sshd (ssh_port=, ssh_key=, ssh_known_hosts=) and workdir=, IP literals
 * (999.1.1.1 is refused, not looked up), the ssh words remote.c builds from them, and the parser of the target
 * probe's answer (engines/target_remote.c) on fixed text.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hostsfile.h"
#include "engines/fio_hosts.h"
#include "engines/remote.h"
#include "engines/target_remote.h"
#include "testutil.h"

static int parse(const char *text, struct host_list *l, struct errbuf *err)
{
	host_list_init(l);
	errbuf_init(err);
	return hostsfile_parse(text, strlen(text), "h.txt", l, err);
}

static void test_good(void **state)
{
	const char *text = "# lab\n"
			   "vm01  10.0.0.11  target=/dev/sdb target=/dev/sdc ssh=root  # first VM\n"
			   "      exporter=http://10.0.0.11:9100/metrics\n"
			   "\n"
			   "vm02 10.0.0.12:9000 target=/data/f1\r\n"
			   "array node_exporter=https://a:9100/metrics role=target 10.0.0.50\n";
	struct host_list l;
	struct errbuf err;
	(void)state;
	/* the address must come right after the name: "array ... 10.0.0.50" is an error */
	assert_int_equal(parse(text, &l, &err), -1);
	assert_non_null(strstr(err.msg, "h.txt:6: host 'array' needs an address"));

	text = "# lab\n"
	       "vm01  10.0.0.11  target=/dev/sdb target=/dev/sdc ssh=root  # first VM\n"
	       "      exporter=http://10.0.0.11:9100/metrics\n"
	       "\n"
	       "vm02 10.0.0.12:9000 target=/data/f1\r\n"
	       "array 10.0.0.50 role=target node_exporter=https://a:9100/metrics\n"
	       "v6 [fd00::5]:8766 target=/x:y\n"
	       "named storage-1.example\n";
	assert_int_equal(parse(text, &l, &err), 0);
	assert_int_equal(l.n, 5);
	assert_string_equal(l.v[0].name, "vm01");
	assert_string_equal(l.v[0].addr, "10.0.0.11");
	assert_int_equal(l.v[0].port, 8765);
	assert_int_equal(l.v[0].role, ROLE_INITIATOR);
	assert_int_equal(l.v[0].ntargets, 2);
	assert_string_equal(l.v[0].targets[1], "/dev/sdc");
	assert_string_equal(l.v[0].ssh_user, "root");
	assert_string_equal(l.v[0].exporter_url, "http://10.0.0.11:9100/metrics");
	assert_int_equal(l.v[0].src_line, 2);
	assert_int_equal(l.v[1].port, 9000);
	assert_string_equal(l.v[1].targets[0], "/data/f1");
	assert_null(l.v[1].ssh_user);
	assert_int_equal(l.v[2].role, ROLE_TARGET);
	assert_string_equal(l.v[3].addr, "fd00::5");
	assert_int_equal(l.v[3].port, 8766);
	assert_string_equal(l.v[3].targets[0], "/x:y");
	assert_int_equal(host_list_count_role(&l, ROLE_INITIATOR), 4);
	{
		char *a = host_fio_client_arg(&l.v[1]), *b = host_fio_client_arg(&l.v[3]), *e = host_endpoint(&l.v[3]);
		assert_string_equal(a, "10.0.0.12,9000");
		assert_string_equal(b, "ip6:fd00::5,8766");
		assert_string_equal(e, "[fd00::5]:8766");
		free(a);
		free(b);
		free(e);
	}
	/* write and read back: the same hosts */
	{
		struct strbuf sb;
		struct host_list back;
		strbuf_init(&sb);
		hostsfile_write(&l, &sb);
		host_list_init(&back);
		assert_int_equal(hostsfile_parse(sb.buf, sb.len, "w", &back, &err), 0);
		assert_int_equal(back.n, l.n);
		for (size_t i = 0; i < l.n; i++) {
			assert_string_equal(back.v[i].name, l.v[i].name);
			assert_string_equal(back.v[i].addr, l.v[i].addr);
			assert_int_equal(back.v[i].port, l.v[i].port);
			assert_int_equal(back.v[i].role, l.v[i].role);
			assert_int_equal(back.v[i].ntargets, l.v[i].ntargets);
			for (size_t t = 0; t < l.v[i].ntargets; t++)
				assert_string_equal(back.v[i].targets[t], l.v[i].targets[t]);
		}
		host_list_release(&back);
		strbuf_release(&sb);
	}
	host_list_release(&l);
}

static const struct tu_bad_input hosts_bad[] = {
	{ "", "h.txt: no hosts" },
	{ "# only a comment\n\n", "h.txt: no hosts" },
	{ "  target=/x\n", "h.txt:1: continuation line before the first host" },
	{ "a 1.2.3.4\nb 1.2.3.5\na 1.2.3.6\n", "h.txt:3: host 'a' already defined on line 1" },
	{ "a 1.2.3.4\nb 1.2.3.4:8765\n", "h.txt:2: address '1.2.3.4:8765' already used by host 'a'" },
	{ "a\n", "h.txt:1: host 'a' needs an address" },
	{ "a 1.2.3.4:0\n", "h.txt:1: bad port in '1.2.3.4:0'" },
	{ "a 1.2.3.4:70000\n", "h.txt:1: bad port" },
	{ "a 1.2.3.4:80x\n", "h.txt:1: bad port" },
	{ "a fd00::1\n", "h.txt:1: bad address 'fd00::1': write an IPv6 address as [addr]" },
	{ "a [fd00::1\n", "h.txt:1: bad address '[fd00::1'" },
	{ "a 1.2.3.4;rm\n", "h.txt:1: bad address '1.2.3.4;rm'" },
	{ "a/b 1.2.3.4\n", "h.txt:1: bad host name 'a/b'" },
	{ "a 1.2.3.4 role=storage\n", "h.txt:1: role must be 'initiator' or 'target', got 'storage'" },
	{ "a 1.2.3.4 role=target\n  role=initiator\n", "h.txt:2: role given twice for host 'a'" },
	{ "a 1.2.3.4 target=/x target=/x\n", "h.txt:1: target '/x' given twice for host 'a'" },
	{ "a 1.2.3.4 target=\n", "h.txt:1: 'target' needs a value" },
	{ "a 1.2.3.4 exporter=ftp://x\n", "h.txt:1: exporter must be an http:// or https:// URL" },
	{ "a 1.2.3.4 ssh=-oProxyCommand=x\n", "h.txt:1: bad ssh user '-oProxyCommand=x'" },
	{ "a 1.2.3.4 ssh=a;b\n", "h.txt:1: bad ssh user 'a;b'" },
	{ "a 1.2.3.4 port=9\n", "h.txt:1: unknown key 'port'" },
	{ "a 1.2.3.4 /dev/sdb\n", "h.txt:1: expected key=value, got '/dev/sdb'" },
};

/* A rejected hosts file leaves no host behind. */
static int parse_bad(const char *text, struct errbuf *err)
{
	struct host_list l;

	if (parse(text, &l, err) != -1)
		return 0; /* accepted: tu_expect_bad_input says so */
	assert_int_equal(l.n, 0);
	return -1;
}

TU_BAD_INPUT_TEST(test_errors, hosts_bad, parse_bad, TU_KIND_INPUT)

/* A hosts file that cannot be read: the input is its path. */
static int read_path(const char *path, struct errbuf *err)
{
	struct host_list l;

	host_list_init(&l);
	return hostsfile_read(path, &l, err);
}

static const struct tu_bad_input missing[] = { { "/nonexistent/hosts", "/nonexistent/hosts: cannot read hosts file" } };

TU_BAD_INPUT_TEST(test_read_missing, missing, read_path, 0)

static size_t argv_len(char **v)
{
	size_t n = 0;
	while (v[n])
		n++;
	return n;
}

static void test_ssh_argv(void **state)
{
	struct host_list l;
	struct errbuf err;
	char **v;
	(void)state;
	assert_int_equal(parse("vm1 10.0.0.1:9000 ssh=bench-user target=/dev/sdb\nvm2 [fd00::7]\n", &l, &err), 0);

	v = fio_server_ssh_argv(&l.v[0], 1);
	{
		const char *want[] = { "ssh", "-o", "BatchMode=yes", "-o", "ConnectTimeout=10", "-l", "bench-user", "--",
				       "10.0.0.1", "'fio'", "'--server=10.0.0.1,9000'",
				       "'--daemonize=/tmp/bench-fio-server-9000.pid'" };
		assert_int_equal(argv_len(v), sizeof(want) / sizeof(want[0]));
		for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
			assert_string_equal(v[i], want[i]);
	}
	fio_argv_free(v);

	v = fio_server_ssh_argv(&l.v[0], 0);
	{
		const char *want[] = { "ssh", "-o", "BatchMode=yes", "-o", "ConnectTimeout=10", "-l", "bench-user", "--",
				       "10.0.0.1", "'sh'", "'-c'", "'kill \"$(cat \"$1\")\" && rm -f \"$1\"'",
				       "'bench-fio-stop'", "'/tmp/bench-fio-server-9000.pid'" };
		assert_int_equal(argv_len(v), sizeof(want) / sizeof(want[0]));
		for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
			assert_string_equal(v[i], want[i]);
	}
	fio_argv_free(v);

	/* no user: no -l; IPv6 server address in fio's ip6: form */
	v = fio_server_ssh_argv(&l.v[1], 1);
	assert_int_equal(argv_len(v), 10);
	assert_string_equal(v[5], "--");
	assert_string_equal(v[6], "fd00::7");
	assert_string_equal(v[8], "'--server=ip6:fd00::7,8765'");
	for (size_t i = 0; v[i]; i++)
		assert_string_not_equal(v[i], "-l");
	fio_argv_free(v);
	host_list_release(&l);
}

static void test_ip_literals(void **state)
{
	static const struct {
		const char *addr;
		const char *err; /* NULL: accepted */
	} cases[] = {
		{ "10.0.0.1", NULL },
		{ "storage-1.example", NULL },
		{ "1.2.3.4a", NULL }, /* a name */
		{ "[fd00::21]:8766", NULL },
		{ "[fe80::1%eth0]", NULL },
		{ "999.1.1.1", "h.txt:1: bad address '999.1.1.1': not a valid IPv4 address" },
		{ "1.2.3", "h.txt:1: bad address '1.2.3': not a valid IPv4 address" },
		{ "1.2.3.4.5:9000", "h.txt:1: bad address '1.2.3.4.5:9000': not a valid IPv4 address" },
		{ "01.2.3.4", "h.txt:1: bad address '01.2.3.4': not a valid IPv4 address" },
		{ "1234", "h.txt:1: bad address '1234': not a valid IPv4 address" },
		{ "[fd00::zz]", "h.txt:1: bad address '[fd00::zz]': not a valid IPv6 address" },
		{ "[1:2:3:4:5:6:7:8:9]", "h.txt:1: bad address '[1:2:3:4:5:6:7:8:9]': not a valid IPv6 address" },
		{ "[fd00::1%]", "h.txt:1: bad address '[fd00::1%]': not a valid IPv6 address" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[128];
		struct host_list l;
		struct errbuf err;
		int rc;

		snprintf(text, sizeof(text), "h %s\n", cases[i].addr);
		rc = parse(text, &l, &err);
		if (!cases[i].err) {
			assert_int_equal(rc, 0);
		} else {
			assert_int_equal(rc, -1);
			assert_int_equal(err.kind, ERR_INPUT);
			assert_string_equal(err.msg, cases[i].err);
		}
		host_list_release(&l);
	}
}

static void test_ssh_keys(void **state)
{
	static const struct {
		const char *opts;
		const char *err;
	} bad[] = {
		{ "ssh_port=0", "h.txt:1: bad ssh_port '0': must be 1..65535" },
		{ "ssh_port=70000", "h.txt:1: bad ssh_port '70000': must be 1..65535" },
		{ "ssh_port=22x", "h.txt:1: bad ssh_port '22x': must be 1..65535" },
		{ "ssh_port=22 ssh_port=23", "h.txt:1: ssh_port given twice for host 'h'" },
		{ "ssh_key=-oProxyCommand=x", "h.txt:1: bad ssh_key '-oProxyCommand=x': must not start with '-'" },
		{ "workdir=srv", "h.txt:1: bad workdir 'srv': must be an absolute path without '.', '..', '//' or a "
				 "trailing '/'" },
		{ "workdir=/srv/../dev", "h.txt:1: bad workdir '/srv/../dev': must be an absolute path without '.', "
					 "'..', '//' or a trailing '/'" },
		{ "workdir=/srv/", "h.txt:1: bad workdir '/srv/': must be an absolute path without '.', '..', '//' or "
				   "a trailing '/'" },
		{ "workdir=/", "h.txt:1: bad workdir '/': must be an absolute path without '.', '..', '//' or a "
			       "trailing '/'" },
		{ "workdir=/dev", "h.txt:1: bad workdir '/dev': /dev, /proc, /sys and /run/udev hold devices, not "
				  "bench's files" },
		{ "workdir=/sys/x", "h.txt:1: bad workdir '/sys/x': /dev, /proc, /sys and /run/udev hold devices, not "
				    "bench's files" },
		{ "workdir=/a workdir=/b", "h.txt:1: workdir given twice for host 'h'" },
	};
	const char *good = "h 127.0.0.11 ssh=root ssh_port=2222 ssh_key=/k/id ssh_known_hosts=/k/kh workdir=/srv/b\n";
	struct host_list l, back;
	struct strbuf sb;
	struct errbuf err;
	char *v[REMOTE_SSH_WORDS];
	size_t n;
	(void)state;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char text[200];
		snprintf(text, sizeof(text), "h 10.0.0.1 %s\n", bad[i].opts);
		assert_int_equal(parse(text, &l, &err), -1);
		assert_string_equal(err.msg, bad[i].err);
	}
	assert_int_equal(parse(good, &l, &err), 0);
	assert_int_equal(l.v[0].ssh_port, 2222);
	assert_string_equal(l.v[0].ssh_key, "/k/id");
	assert_string_equal(l.v[0].ssh_known_hosts, "/k/kh");
	assert_string_equal(l.v[0].workdir, "/srv/b");
	assert_true(remote_has_ssh(&l.v[0]));
	assert_true(host_path_in_workdir(&l.v[0], "/srv/b/t.dat"));
	assert_false(host_path_in_workdir(&l.v[0], "/srv/b"));
	assert_false(host_path_in_workdir(&l.v[0], "/srv/bx/t.dat"));
	assert_false(host_path_in_workdir(&l.v[0], "/srv/b/../../dev/sda"));
	assert_false(host_path_in_workdir(&l.v[0], "/srv/b//t.dat"));
	assert_false(host_path_in_workdir(&l.v[0], "/srv/b/./t.dat"));
	assert_false(host_path_in_workdir(&l.v[0], "/srv/b/d/"));
	n = remote_ssh_prefix(&l.v[0], v);
	{
		const char *want[] = { "ssh", "-o", "BatchMode=yes", "-o", "ConnectTimeout=10", "-p", "2222", "-i",
				       "/k/id", "-o", "IdentitiesOnly=yes", "-o", "UserKnownHostsFile=/k/kh", "-o",
				       "StrictHostKeyChecking=yes", "-l", "root", "--", "127.0.0.11" };
		assert_int_equal(n, sizeof(want) / sizeof(want[0]));
		for (size_t i = 0; i < n; i++) {
			assert_string_equal(v[i], want[i]);
			free(v[i]);
		}
	}
	/* written and read back the same */
	strbuf_init(&sb);
	hostsfile_write(&l, &sb);
	host_list_init(&back);
	assert_int_equal(hostsfile_parse(sb.buf, sb.len, "w", &back, &err), 0);
	assert_int_equal(back.v[0].ssh_port, 2222);
	assert_string_equal(back.v[0].ssh_known_hosts, "/k/kh");
	assert_string_equal(back.v[0].workdir, "/srv/b");
	strbuf_release(&sb);
	host_list_release(&back);
	host_list_release(&l);
	/* no ssh access without ssh=, ssh_port= or ssh_key= */
	assert_int_equal(parse("h 10.0.0.1 workdir=/srv/b\n", &l, &err), 0);
	assert_false(remote_has_ssh(&l.v[0]));
	host_list_release(&l);
}

static void test_probe_answer(void **state)
{
	char *paths[] = { "//dev/loop3", "/srv/b/t.dat", "/srv/b/new", "/data/img", "/x/link" };
	const char *answer = "bench-probe 1\n"
			     "P 0\nreal /dev/loop3\nkind block\nsize 67108864\nmounted /mnt/x\nswap 1\n"
			     "holders dm-0\nparts loop3p1\nsig PTTYPE=dos\nsig TYPE=ext4\n"
			     "P 1\nreal /srv/b/t.dat\nkind regular\nsize 1048576\n"
			     "P 2\nkind missing\ndirexists 1\n"
			     "P 3\nreal /data/img\nkind regular\nsize 100\nmark 1\nloop /dev/loop4 mounted at /mnt/y\n"
			     "P 4\nkind dangling\n"
			     "end\n";
	static const char *const bad[] = {
		"P 0\nkind block\nend\n",                         /* no header */
		"bench-probe 1\nP 0\nkind block\n",               /* cut short */
		"bench-probe 1\nP 1\nkind block\nend\n",          /* out of order */
		"bench-probe 1\nP 0\nkind weird\nend\n",          /* unknown kind */
		"bench-probe 1\nP 0\nsize 12x\nend\n",            /* bad number */
		"bench-probe 1\nkind block\nend\n",               /* fact before a record */
		"bench-probe 1\nP 0\nhello world\nend\n",         /* unknown key */
	};
	struct host_list l;
	struct target_facts f[5];
	struct errbuf err;
	(void)state;

	assert_int_equal(parse("h 10.0.0.1 ssh=root workdir=/srv/b\n", &l, &err), 0);
	memset(f, 0, sizeof(f));
	assert_int_equal(target_remote_parse(&l.v[0], answer, paths, 5, f, &err), 0);
	assert_string_equal(f[0].path, "//dev/loop3");
	assert_string_equal(f[0].real, "/dev/loop3");
	assert_int_equal(f[0].kind, TARGET_BLOCK);
	assert_int_equal(f[0].size, 67108864);
	assert_string_equal(f[0].mounted_at, "/mnt/x");
	assert_int_equal(f[0].swap, 1);
	assert_string_equal(f[0].holders, "dm-0");
	assert_int_equal(f[0].partitions, 1);
	assert_string_equal(f[0].signatures, "dos partition table, ext4");
	assert_int_equal(f[1].kind, TARGET_REGULAR);
	assert_int_equal(f[1].bench_made, 1); /* below workdir=: the mark's substitute */
	assert_int_equal(f[2].kind, TARGET_MISSING);
	assert_int_equal(f[2].dir_exists, 1);
	assert_int_equal(f[3].bench_made, 1);
	assert_string_equal(f[3].backs_loop, "/dev/loop4");
	assert_string_equal(f[3].loop_use, "mounted at /mnt/y");
	assert_int_equal(f[4].kind, TARGET_DANGLING);
	for (size_t i = 0; i < 5; i++)
		target_facts_release(&f[i]);
	/* the judge refuses the device as it would locally, naming the host */
	memset(f, 0, sizeof(f));
	assert_int_equal(target_remote_parse(&l.v[0], answer, paths, 5, f, &err), 0);
	assert_int_equal(target_judge(&f[0], TARGET_DESTRUCTIVE, 1, "h", &err), -1);
	assert_non_null(strstr(err.msg, "on host 'h'"));
	for (size_t i = 0; i < 5; i++)
		target_facts_release(&f[i]);
	for (size_t b = 0; b < sizeof(bad) / sizeof(bad[0]); b++) {
		memset(f, 0, sizeof(f));
		errbuf_init(&err);
		assert_int_equal(target_remote_parse(&l.v[0], bad[b], paths, 1, f, &err), -1);
		assert_int_equal(err.kind, ERR_HOST);
		assert_non_null(strstr(err.msg, "host 'h': the target probe's answer"));
		target_facts_release(&f[0]);
	}
	host_list_release(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_read_missing),
		cmocka_unit_test(test_ssh_argv),
		cmocka_unit_test(test_ip_literals),
		cmocka_unit_test(test_ssh_keys),
		cmocka_unit_test(test_probe_answer),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
