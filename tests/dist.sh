#!/usr/bin/env bash
# make dist's bundle (part of make test, which makes it first): the tarball
# holds one folder with what a bare machine needs, its binary loads every
# library beyond glibc's from the bundle's lib/, report writes report.html
# without gnuplot, and the bundle's run.sh runs a short sweep with none of
# the build's tools, nor gnuplot, hwloc's or numactl's, on its PATH. The run
# on a minimal Debian with none of the packages is make test-dist's
# (tests/dist-chroot.sh). Ends with "dist: N passed, N failed, N skipped".
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

name=hzfbench-$(sed -n 's/^VERSION := //p' Makefile)-$(uname -m)
if [ "$build" != build ]; then
	skip "the bundle" "make dist bundles the plain build, which make test checks"
	finish dist
	exit
fi
if [ ! -s "$name.tar.gz" ]; then
	fail "the bundle" "no $name.tar.gz (make dist; make test makes it)"
	finish dist
	exit
fi

# --- what the tarball holds ---
tar -tzf "$name.tar.gz" | sed 's,/$,,' | sort >"$tmp/list"
want=(bin/hzfbench lib/libhwloc.so.15 lib/libnuma.so.1 lib/libz.so.1 lib/libjansson.so.4 run.sh README.md BUNDLE
	tools/perf-wrap.sh share/man/man1/hzfbench.1 share/man/man1/hzfbench-run.1 share/bash-completion/completions/hzfbench)
for f in plots/*.gp docs/*.md; do want+=("$f"); done
# libpfm4 where the build linked it (--events' PMU names): a bare machine lacks it
ldd "$bin" | grep -q 'libpfm\.so\.4 ' && want+=(lib/libpfm.so.4)
missing=()
for f in "${want[@]}"; do grep -qx "$name/$f" "$tmp/list" || missing+=("$f"); done
# glibc's libraries stay the machine's; no source, no Makefile
extra=$(grep -E "^$name/lib/(libc|libm|libpthread|libdl|librt|ld-linux)[.-]|\.c$|/Makefile$" "$tmp/list")
if [ "${#missing[@]}" -eq 0 ] && [ -z "$extra" ] && ! grep -qv "^$name\(/\|$\)" "$tmp/list"; then
	ok "the tarball holds one folder: the binary, its libraries but glibc's, plots/*.gp, run.sh, README.md, docs/, the man pages and completion"
else
	fail "the tarball holds one folder: the binary, its libraries but glibc's, plots/*.gp, run.sh, README.md, docs/, the man pages and completion" \
		"missing: ${missing[*]}" "not wanted: $extra"
fi

tar -xzf "$name.tar.gz" -C "$tmp"
top=$tmp/$name
# a PATH of this machine's commands but the compilers, make, gnuplot, hwloc's
# and numactl's tools and perf: what a bare Debian has, near enough
bare=$tmp/bare-path
mkdir -p "$bare"
for cmd in /usr/bin/* /usr/sbin/* /bin/* /sbin/*; do
	case ${cmd##*/} in
	gnuplot*|make|cc|c89*|c99*|gcc*|g++*|c++*|cpp*|clang*|ld|ld.*|pkg-config|lstopo*|hwloc-*|numactl|perf*) continue ;;
	esac
	[ -e "$bare/${cmd##*/}" ] || ln -s "$cmd" "$bare/${cmd##*/}"
done

# --- the binary finds its libraries in the bundle ---
if env -i PATH="$bare" LD_DEBUG=libs "$top/bin/hzfbench" topo --summary >"$tmp/out" 2>"$tmp/ld" &&
	grep -q '^packages=[1-9][0-9]* numa_nodes=[1-9]' "$tmp/out"; then
	sed -n 's/.*calling init: //p' "$tmp/ld" | grep -v "^$top/bin/../lib/" |
		grep -vE '/(libc|libm|libpthread|libdl|librt|ld-linux[^/]*)\.so[.0-9]*$' >"$tmp/system"
	from_bundle=0
	for lib in "$top"/lib/*; do
		grep -q "calling init: $top/bin/../lib/${lib##*/}$" "$tmp/ld" && from_bundle=$((from_bundle + 1))
	done
	if [ ! -s "$tmp/system" ] && [ "$from_bundle" -ge 4 ] &&
		[ "$from_bundle" = "$(find "$top/lib" -type f | wc -l)" ]; then
		ok "the bundle's topo loads libhwloc and every library beyond glibc's from its lib/ ($from_bundle)"
	else
		fail "the bundle's topo loads libhwloc and every library beyond glibc's from its lib/" \
			"from the bundle: $from_bundle; from the system: $(cat "$tmp/system")"
	fi
else
	fail "the bundle's topo loads libhwloc and every library beyond glibc's from its lib/" \
		"$(cat "$tmp/out")" "$(grep -v 'LD_DEBUG\|^ *[0-9]*:\s*$' "$tmp/ld" | tail -5)"
fi

# --- report without gnuplot: the tables, and the charts skipped in one line ---
cp -r tests/data/sample "$tmp/nognuplot"
if env -i PATH="$bare" "$top/bin/hzfbench" report "$tmp/nognuplot" >"$tmp/out" 2>"$tmp/err" &&
	[ "$(wc -l <"$tmp/err")" = 1 ] && grep -q '^hzfbench: report: gnuplot: not installed .*charts skipped' "$tmp/err" &&
	grep -q '<table>' "$tmp/nognuplot/report.html" && ! grep -q '<svg' "$tmp/nognuplot/report.html" &&
	grep -q 'every chart: gnuplot is not installed' "$tmp/nognuplot/report.html"; then
	ok "report without gnuplot: report.html with the tables, the charts skipped in one line"
else
	fail "report without gnuplot: report.html with the tables, the charts skipped in one line" \
		"$(cat "$tmp/out" "$tmp/err")"
fi

# --- the bundle's run.sh: no build, no packages, every CSV ---
log=$tmp/run.log
if (cd "$top" && env -i PATH="$bare" HOME="$tmp" ./run.sh --no-install --with-plan --no-kernel --tasks 1 \
	--min-ms 10 --reps 3 --out "$tmp/run") >"$log" 2>&1; then
	absent=()
	for f in samples.csv summary.csv tasks.csv meta.json report.html lifecycle/summary.csv \
		zeroout/zeroout.csv stages.csv plan.txt; do
		[ -s "$tmp/run/$f" ] || absent+=("$f")
	done
	if [ "${#absent[@]}" -eq 0 ] && meta_complete "$tmp/run" && [ "$(grep -c 'charts skipped' "$log")" = 1 ] &&
		grep -qE '^plan: said [0-9]+ s, took [0-9.]+ s: [0-9.]+x$' "$tmp/run/plan.txt"; then
		ok "the bundle's run.sh runs the sweep without make, gnuplot or hwloc's tools, the charts skipped once"
	else
		fail "the bundle's run.sh runs the sweep without make, gnuplot or hwloc's tools, the charts skipped once" \
			"absent: ${absent[*]}" "$(grep -c 'charts skipped' "$log") lines say charts skipped" "$(tail -5 "$log")"
	fi
else
	fail "the bundle's run.sh runs the sweep without make, gnuplot or hwloc's tools, the charts skipped once" \
		"$(tail -8 "$log")"
fi
if (cd "$top" && env -i PATH="$bare" ./run.sh --kernels) >"$log" 2>&1; [ $? = 2 ] &&
	grep -q '^run.sh: --kernels: needs the source tree' "$log"; then
	ok "the bundle's run.sh refuses --kernels in one line"
else
	fail "the bundle's run.sh refuses --kernels in one line" "$(cat "$log")"
fi
# a binary that cannot start here (a glibc too old, a library broken in transit)
cp -a "$top" "$tmp/broken"
: >"$tmp/broken/lib/libhwloc.so.15"
if (cd "$tmp/broken" && env -i PATH="$bare" ./run.sh --no-install) >"$log" 2>&1; [ $? = 1 ] &&
	[ "$(wc -l <"$log")" = 1 ] && grep -q '^run.sh: bin/hzfbench: does not start here: .*libhwloc.* (needs: .*glibc' "$log"; then
	ok "the bundle's run.sh says in one line that its binary does not start, and what it needs"
else
	fail "the bundle's run.sh says in one line that its binary does not start, and what it needs" "$(cat "$log")"
fi
finish dist
