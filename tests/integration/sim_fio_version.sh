#!/usr/bin/env bash
# sim_fio_version: building the sim ioengine against the source tree of another fio release fails, and the
# message names both versions (issue "sim", acceptance 6). A fake tree (another release's FIO-VERSION-GEN, a
# config-host.h) is given with -DBENCH_FIO_SRC; configuring must fail with both "fio-3.99" and the installed
# `fio --version`. Then the same build check against the real tree of the build passes, so the failure is the
# version, not the option. Also checks that scripts/fio-src derives deb-src entries from apt's deb entries.
set -euo pipefail

: "${BENCH_SRC:?BENCH_SRC is not set (run under ctest)}"
: "${BENCH_BUILD:?BENCH_BUILD is not set (run under ctest)}"
command -v fio >/dev/null || { echo "FAIL: fio is not installed" >&2; exit 1; }
installed=$(fio --version)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fake=$tmp/fio-3.99
mkdir -p "$fake"
printf '#!/bin/sh\nGVF=FIO-VERSION-FILE\nDEF_VER=fio-3.99\n' >"$fake/FIO-VERSION-GEN"
: >"$fake/config-host.h"
: >"$fake/ioengines.h"

if cmake -S "$BENCH_SRC" -B "$tmp/build" -DBENCH_SIM=ON -DBENCH_FIO_SRC="$fake" >"$tmp/out" 2>&1; then
  echo "FAIL: configuring against a fio-3.99 tree succeeded:" >&2
  cat "$tmp/out" >&2
  exit 1
fi
msg=$(tr '\n' ' ' <"$tmp/out" | tr -s ' ')
for v in fio-3.99 "$installed"; do
  if ! grep -qF -- "$v" <<<"$msg"; then
    echo "FAIL: the error does not name '$v':" >&2
    cat "$tmp/out" >&2
    exit 1
  fi
done
echo "ok   other release refused: $(grep -o 'the fio source tree.*is fio-[0-9.]* but the installed fio is fio-[0-9.]*' <<<"$msg")"

# The same check, as the build runs it, accepts the tree this build used.
real=$(ls -d "$BENCH_BUILD"/fio-src/fio-* 2>/dev/null | head -1 || true)
if [ -z "$real" ]; then
  real=$(grep '^BENCH_FIO_SRC:PATH=' "$BENCH_BUILD/CMakeCache.txt" | cut -d= -f2-)
fi
[ -n "$real" ] || { echo "FAIL: cannot find the fio tree this build used" >&2; exit 1; }
cmake -DTREE="$real" -DFIO="$(command -v fio)" -P "$BENCH_SRC/engines/sim/check_fio_src.cmake"
echo "ok   the build's tree $real matches $installed"

# The build check at build time (cmake -P) refuses the fake tree too, with both versions.
if cmake -DTREE="$fake" -DFIO="$(command -v fio)" -P "$BENCH_SRC/engines/sim/check_fio_src.cmake" >"$tmp/p" 2>&1 ||
  ! grep -q "fio-3.99" "$tmp/p" || ! grep -qF -- "$installed" "$tmp/p"; then
  echo "FAIL: the build-time check does not refuse fio-3.99 naming both versions:" >&2
  cat "$tmp/p" >&2
  exit 1
fi
echo "ok   build-time check refuses fio-3.99 too"

# scripts/fio-src derives deb-src stanzas from one-line and deb822 'deb' entries (no change to the system).
mkdir -p "$tmp/apt/sources.list.d"
printf 'deb [signed-by=/usr/share/keyrings/k.gpg] http://deb.debian.org/debian bookworm main contrib\n' \
  >"$tmp/apt/sources.list"
printf 'Types: deb\nURIs: http://deb.debian.org/debian-security\nSuites: bookworm-security\nComponents: main\n' \
  >"$tmp/apt/sources.list.d/sec.sources"
FIO_SRC_APT_ETC=$tmp/apt "$BENCH_SRC/scripts/fio-src" --deb-src-entry >"$tmp/entry"
for want in "Types: deb-src" "URIs: http://deb.debian.org/debian" "Suites: bookworm" "Components: main contrib" \
  "Signed-By: /usr/share/keyrings/k.gpg" "URIs: http://deb.debian.org/debian-security"; do
  grep -qxF "$want" "$tmp/entry" || { echo "FAIL: fio-src --deb-src-entry lacks '$want':" >&2; cat "$tmp/entry" >&2; exit 1; }
done
echo "ok   fio-src derives deb-src entries"
echo "sim_fio_version: all checks passed"
