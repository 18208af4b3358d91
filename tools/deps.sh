#!/usr/bin/env bash
# Install what hzfbench needs, when it is missing: `build` for make and make
# test, `run` for run.sh (build plus hwloc's and numactl's tools), `perf` for
# run.sh --perf-record and --c2c (run plus linux-perf) and --events' PMU
# names (libpfm4-dev: the next build links it), `sanitize` for make
# asan/ubsan/tsan and the fuzz targets (build plus clang and its runtimes),
# `lint` for make lint (cppcheck, clang-tidy, shellcheck), `vm` for
# hzfbench vm and its tests (qemu, a static busybox, cpio), `kernels` for
# make kernels (a kernel build's tools and ccache), `dist` for make
# test-dist (debootstrap). Only as root on a Debian/Ubuntu machine
# (apt-get), and not with HZF_NO_INSTALL set; otherwise it names what is
# missing and fails.
set -euo pipefail

want=${1:-build}
build_pkgs=(gcc make pkg-config libhwloc-dev libnuma-dev zlib1g-dev libjansson-dev gnuplot-nox)
run_pkgs=(hwloc numactl)

missing=()
have_header() { printf '#include <%s>\n' "$1" | cc -E -x c - >/dev/null 2>&1; }
command -v cc >/dev/null 2>&1 || missing+=(gcc)
command -v make >/dev/null 2>&1 || missing+=(make)
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
command -v gnuplot >/dev/null 2>&1 || missing+=(gnuplot-nox)	# the charts, and their tests
if command -v cc >/dev/null 2>&1; then
	have_header hwloc.h || missing+=(libhwloc-dev)
	have_header numa.h || missing+=(libnuma-dev)
	have_header zlib.h || missing+=(zlib1g-dev)
	have_header jansson.h || missing+=(libjansson-dev)
else
	missing+=(libhwloc-dev libnuma-dev zlib1g-dev libjansson-dev)
fi
if [ "$want" = perf ]; then
	command -v perf >/dev/null 2>&1 || missing+=(linux-perf)
	have_header perfmon/pfmlib_perf_event.h || missing+=(libpfm4-dev)
fi
if [ "$want" = sanitize ]; then
	command -v clang >/dev/null 2>&1 || missing+=(clang)
	# the sanitizer and libFuzzer runtimes
	clang -print-file-name=libclang_rt.fuzzer-x86_64.a 2>/dev/null | grep -q / ||
		missing+=(libclang-rt-dev)
fi
if [ "$want" = vm ]; then	# hzfbench vm and its tests
	command -v qemu-system-x86_64 >/dev/null 2>&1 || missing+=(qemu-system-x86)
	# the initramfs holds busybox alone: it must need no loader
	grep -q 'not a dynamic' < <(ldd /bin/busybox 2>&1) || missing+=(busybox-static)
	command -v cpio >/dev/null 2>&1 || missing+=(cpio)
	command -v bash-static >/dev/null 2>&1 || missing+=(bash-static)	# vm -- run.sh
fi
if [ "$want" = kernels ]; then	# make kernels
	for tool in bc bison flex ccache patch; do
		command -v $tool >/dev/null 2>&1 || missing+=("$tool")
	done
	command -v xz >/dev/null 2>&1 || missing+=(xz-utils)
	have_header gelf.h || missing+=(libelf-dev)
	have_header openssl/opensslv.h || missing+=(libssl-dev)
fi
if [ "$want" = dist ]; then	# make test-dist's minimal Debian
	command -v debootstrap >/dev/null 2>&1 || missing+=(debootstrap)
fi
if [ "$want" = lint ]; then
	command -v cppcheck >/dev/null 2>&1 || missing+=(cppcheck)
	command -v clang-tidy >/dev/null 2>&1 || missing+=(clang-tidy)
	command -v shellcheck >/dev/null 2>&1 || missing+=(shellcheck)
fi
if [ "$want" = run ] || [ "$want" = perf ]; then
	command -v lstopo-no-graphics >/dev/null 2>&1 || missing+=(hwloc)
	command -v numactl >/dev/null 2>&1 || missing+=(numactl)
fi
[ "${#missing[@]}" -eq 0 ] && exit 0

if [ -n "${HZF_NO_INSTALL:-}" ] || [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
	echo "hzfbench: missing: ${missing[*]} (install them, or run as root on Debian/Ubuntu)" >&2
	echo "hzfbench: Debian packages: ${build_pkgs[*]} ${run_pkgs[*]}" >&2
	exit 1
fi
echo "hzfbench: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
