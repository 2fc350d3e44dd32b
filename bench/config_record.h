/*
 * config_record: what a configuration was, per host and target device, recorded after its setup and check:
 * host name, kernel, fio version, CPU model and count, memory (labels cfg.hostname, cfg.kernel, cfg.fio,
 * cfg.cpu, cfg.cpus, cfg.mem_kib; cfg.HOST.* for a step host other than this one), and for each member device and block-device
 * target of this host what /sys says (cfg.dev.NAME.model, .firmware, .size_bytes, .scheduler, .queue_depth;
 * members that all say the same give one label cfg.members.KEY, with cfg.members = their count),
 * the link shaping in place (cfg.[HOST.]net.rate_bps: the lowest tbf/htb rate of `tc` on this host, the step
 * host and every initiator with ssh; cfg.net.rate_bps the lowest of them all, bits per second: what the network
 * lets through at most), plus the full text (artifact config.record) with the output of the configuration's record steps
 * (`btrfs filesystem show`, `mdadm --detail`, `lvs`, `zpool status`, sessions...).
 */
#ifndef BENCH_BENCH_CONFIG_RECORD_H
#define BENCH_BENCH_CONFIG_RECORD_H

#include "bench/steps.h"
#include "core/kv.h"
#include "core/model.h"
#include "core/strbuf.h"
#include "profiles/config.h"

/* Collects the record of `c` into `labels` (short values) and `text` (everything); record steps go to `log`. */
void config_record_collect(const struct suite_config *c, const struct host_list *hosts, const char *workdir,
			   struct kvlist *labels, struct strbuf *text, struct step_log *log);

/* The /sys attribute `attr` (e.g. "device/model", "size") of block device `path` (a symlink followed), trimmed,
 * malloc'd; NULL when path is no block device or /sys has no such attribute. The one /sys reader of bench/. */
char *config_sys_attr(const char *path, const char *attr);

#endif
