#!/usr/bin/env bash
# make kernels: three guest kernels for hzfbench vm, one per way of
# counting the huge zero folio, from Debian's newest linux-source:
#   mmflag      the stock kernel (a per-mm flag, since 4.9)
#   persistent  CONFIG_PERSISTENT_HUGE_ZERO_FOLIO=y (allocated once, never counted)
#   global      kernel/global.patch (a reference per mapping, as before 4.9)
# each allnoconfig + kernel/guest.config, built out of tree with ccache, into
# build/kernels/VARIANT/bzImage (with its config, build log and timing).
# Usage: tools/kernels.sh [VARIANT...]   (default: all three)
# KERNEL_SUITE (unstable) names the Debian suite, fetched from KERNEL_MIRROR
# or else the Debian mirror of this machine's apt sources (tools/apt-mirror.sh);
# its Release file may be past its validity date on a mirror, so apt checks
# no date for it alone.
# Nothing is installed from it: apt-get download into a private apt state.
set -euo pipefail
cd "$(dirname "$0")/.."
top=$PWD/build/kernels
suite=${KERNEL_SUITE:-unstable}
# the mirror: KERNEL_MIRROR, else the one this machine's apt uses
mirror=${KERNEL_MIRROR:-}
[ -n "$mirror" ] || mirror=$(tools/apt-mirror.sh)
jobs=${KERNEL_JOBS:-$(nproc)}
variants=("$@")
[ "${#variants[@]}" -gt 0 ] || variants=(mmflag persistent global)
for v in "${variants[@]}"; do
	case $v in
	mmflag | persistent | global) ;;
	*) echo "hzfbench: kernels: $v: not mmflag, persistent or global" >&2; exit 2 ;;
	esac
done
tools/deps.sh kernels
mkdir -p "$top/apt/lists/partial" "$top/apt/cache/archives/partial"

# --- the source: linux-source-X.Y from $suite, unpacked once ---
echo "deb [check-valid-until=no] $mirror $suite main" >"$top/apt/sources.list"
apt_opts=(-o "Dir::Etc::SourceList=$top/apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
	-o "Dir::State::Lists=$top/apt/lists" -o "Dir::Cache=$top/apt/cache"
	-o Dir::State::status=/dev/null -o APT::Sandbox::User=root)
if [ ! -e "$top/apt/updated" ] || [ -n "$(find "$top/apt/updated" -mmin +1440)" ]; then
	apt-get "${apt_opts[@]}" -qq update
	touch "$top/apt/updated"
fi
pkg=$(apt-cache "${apt_opts[@]}" depends linux-source 2>/dev/null |
	sed -n 's/^ *Depends: \(linux-source-[0-9.]*\)$/\1/p' | head -n 1)
[ -n "$pkg" ] || { echo "hzfbench: kernels: $suite has no linux-source" >&2; exit 1; }
version=$(apt-cache "${apt_opts[@]}" show "$pkg" | sed -n 's/^Version: //p' | head -n 1)
pristine=$top/$pkg-$version
if [ ! -e "$pristine/.unpacked" ]; then
	echo "hzfbench: kernels: fetching $pkg $version from $suite"
	rm -rf "$pristine" "$top/deb"
	mkdir -p "$top/deb" "$pristine"
	(cd "$top/deb" && apt-get "${apt_opts[@]}" -qq download "$pkg")
	dpkg-deb --fsys-tarfile "$top"/deb/*.deb | tar -x -C "$top/deb" ./usr/src
	tar -x -f "$top"/deb/usr/src/"$pkg".tar.* -C "$pristine" --strip-components=1
	rm -rf "$top/deb"
	touch "$pristine/.unpacked"
fi

# --- ccache: the variants share one, and their command lines are alike ---
# (each variant's tree is VARIANT/src with its objects in VARIANT/src/obj,
# so Kbuild names every source ../something: the same text in all three)
export CCACHE_DIR=${CCACHE_DIR:-$top/ccache} CCACHE_NOHASHDIR=1
export CCACHE_SLOPPINESS=include_file_mtime,include_file_ctime,time_macros
ccache -M 5G >/dev/null

build() {
	local v=$1 dir=$top/$1 src=$top/$1/src start
	start=$(date +%s)
	mkdir -p "$dir"
	# a tree of hard links to the pristine one; patch(1) writes new files
	if [ ! -e "$src/.from" ] || [ "$(cat "$src/.from")" != "$pkg-$version" ] ||
		{ [ "$v" = global ] && ! cmp -s kernel/global.patch "$src/.patch"; }; then
		rm -rf "$src"
		cp -al "$pristine" "$src"
		rm -f "$src/.unpacked"
		if [ "$v" = global ]; then
			patch -p1 -s -d "$src" <kernel/global.patch
			cp kernel/global.patch "$src/.patch"
		fi
		echo "$pkg-$version" >"$src/.from"
	fi
	mkdir -p "$src/obj"
	{
		cat kernel/guest.config
		if [ "$v" = persistent ]; then
			echo CONFIG_PERSISTENT_HUGE_ZERO_FOLIO=y
		else
			echo '# CONFIG_PERSISTENT_HUGE_ZERO_FOLIO is not set'
		fi
	} >"$dir/fragment.config"
	(
		cd "$src"
		make -s O=obj allnoconfig >/dev/null
		scripts/kconfig/merge_config.sh -m -O obj obj/.config "$dir/fragment.config" >/dev/null
		make -s O=obj olddefconfig >/dev/null
	)
	# every line of the fragment must have survived olddefconfig
	while read -r line; do
		case $line in '#'*' is not set' | CONFIG_*) ;; *) continue ;; esac
		grep -qxF -- "$line" "$src/obj/.config" ||
			{ echo "hzfbench: kernels: $v: $line did not take (dependencies?)" >&2; exit 1; }
	done <"$dir/fragment.config"
	echo "hzfbench: kernels: $v: building $pkg $version ($jobs jobs, log in $dir/build.log)"
	if ! make -C "$src" O=obj -j"$jobs" CC="ccache gcc" LOCALVERSION="-hzf-$v" bzImage \
		>"$dir/build.log" 2>&1; then
		tail -n 30 "$dir/build.log" >&2
		echo "hzfbench: kernels: $v: the build failed (log: $dir/build.log)" >&2
		exit 1
	fi
	cp "$src/obj/arch/x86/boot/bzImage" "$dir/bzImage.new"
	mv "$dir/bzImage.new" "$dir/bzImage"
	cp "$src/obj/.config" "$dir/config"
	printf '%s %s %s %d\n' "$v" "$pkg-$version" "$(date -u +%FT%TZ)" "$(($(date +%s) - start))" \
		>>"$top/times"
	echo "hzfbench: kernels: $v: $dir/bzImage ($(cat "$src/obj/include/config/kernel.release")) in $(($(date +%s) - start)) s"
}

for v in "${variants[@]}"; do
	build "$v"
done
ccache -s | grep -E 'Hits|Misses|hit rate' | sed 's/^/hzfbench: kernels: ccache: /' || true
