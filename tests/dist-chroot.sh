#!/usr/bin/env bash
# make test-dist: make dist's bundle on a machine with no packages. A minimal
# Debian (debootstrap --variant=minbase bookworm: no compiler, no make, no
# gnuplot, no hwloc, no libnuma; mawk for awk) is made once into
# build/dist-root and reused; each run copies it, unpacks the tarball at its
# root, binds /proc and /sys, and runs the bundle's ./run.sh --no-install
# there: every CSV written, the charts skipped in exactly one line. Needs
# root. Ends with "dist-chroot: N passed, N failed, N skipped".
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

name=hzfbench-$(sed -n 's/^VERSION := //p' Makefile)-$(uname -m)
base=build/dist-root
if [ "$(id -u)" -ne 0 ]; then
	skip "the bundle on a minimal Debian" "needs root (debootstrap, chroot, mounts)"
	finish dist-chroot
	exit
fi
if [ ! -s "$name.tar.gz" ]; then
	fail "the bundle on a minimal Debian" "no $name.tar.gz (make dist; make test-dist makes it)"
	finish dist-chroot
	exit
fi
if [ ! -x "$base/bin/sh" ]; then
	# the mirror apt is configured with (deb822 sources first, as Debian 12 has them)
	mirror=$(sed -n 's/^URIs: *\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -1)
	[ -n "$mirror" ] || mirror=$(awk '$1 == "deb" { print $2; exit }' /etc/apt/sources.list 2>/dev/null)
	echo "dist-chroot: making $base (debootstrap --variant=minbase bookworm ${mirror:-?}), once"
	rm -rf "$base.new"
	if ! debootstrap --variant=minbase bookworm "$base.new" ${mirror:+"$mirror"} >"$tmp/debootstrap.log" 2>&1; then
		fail "the bundle on a minimal Debian" "debootstrap failed:" "$(tail -5 "$tmp/debootstrap.log")"
		finish dist-chroot
		exit
	fi
	mv "$base.new" "$base"
fi

# a copy of the cached root, on the same file system; never removed while
# anything is still mounted under it
root=$(mktemp -d build/dist-chroot.XXXXXX)
root=$(cd "$root" && pwd)
mounted() { grep -q " $root/" /proc/self/mounts; }
cleanup() {
	local m
	for m in sys proc; do
		mountpoint -q "$root/$m" && { umount "$root/$m" || umount -l "$root/$m"; }
	done
	if mounted; then
		echo "dist-chroot: $root: still mounted, left in place" >&2
	else
		rm -rf --one-file-system "$root"
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
cp -a "$base/." "$root/"
tar -xzf "$name.tar.gz" -C "$root"
mount -t proc proc "$root/proc"
mount --bind /sys "$root/sys"

# the root is what a bare machine is: none of the packages run.sh installs
have=()
for cmd in cc gcc make gnuplot lstopo-no-graphics numactl pkg-config perf; do
	[ -e "$root/usr/bin/$cmd" ] && have+=("$cmd")
done
ls "$root"/usr/lib/*/libhwloc.so* "$root"/usr/lib/*/libnuma.so* >/dev/null 2>&1 && have+=(libhwloc/libnuma)
awk=$(chroot "$root" readlink -f /usr/bin/awk)
if [ "${#have[@]}" -eq 0 ] && [ "$awk" = /usr/bin/mawk ]; then
	ok "the minimal Debian has no compiler, make, gnuplot, hwloc or libnuma, and awk is mawk"
else
	fail "the minimal Debian has no compiler, make, gnuplot, hwloc or libnuma, and awk is mawk" \
		"it has: ${have[*]}" "awk: $awk"
fi

log=$tmp/run.log
SECONDS=0
env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
	chroot "$root" /bin/sh -c "cd /$name && ./run.sh --no-install --tasks 1,2 --min-ms 20 --reps 3 --out /out" \
	>"$log" 2>&1
rc=$?
echo "dist-chroot: ./run.sh --no-install --tasks 1,2 --min-ms 20 --reps 3: exit $rc in ${SECONDS} s"
out=$root/out
absent=()
for f in samples.csv summary.csv tasks.csv counters.csv meta.json report.html \
	lifecycle/samples.csv lifecycle/summary.csv zeroout/zeroout.csv; do
	[ -s "$out/$f" ] || absent+=("$f")
done
if [ "$(nproc)" -ge 2 ]; then	# one CPU: no hand-off, no model
	for f in c2c.csv model.csv; do [ -s "$out/$f" ] || absent+=("$f"); done
fi
if [ "$rc" -eq 0 ] && [ "${#absent[@]}" -eq 0 ] && meta_complete "$out"; then
	ok "the bundle's ./run.sh --no-install writes every CSV and report.html there"
else
	fail "the bundle's ./run.sh --no-install writes every CSV and report.html there" \
		"exit $rc; absent: ${absent[*]}" "$(tail -8 "$log")"
fi
if [ "$(grep -c 'charts skipped' "$log")" = 1 ] && ! grep -q '<svg' "$out/report.html" 2>/dev/null; then
	ok "without gnuplot the charts are skipped in exactly one line"
else
	fail "without gnuplot the charts are skipped in exactly one line" \
		"$(grep -c 'charts skipped' "$log") such lines:" "$(grep 'charts skipped' "$log")"
fi
# a command or library missing, or a part of the run that gave up
trouble='not found|shared librar|: missing: |sweep failed|^zeroout: failed|could not be measured|no prediction|no report'
if grep -E "$trouble" "$log" >"$tmp/trouble"; then
	fail "the bundle's run.sh meets nothing missing" "$(head -5 "$tmp/trouble")"
else
	ok "the bundle's run.sh meets nothing missing"
fi
finish dist-chroot
