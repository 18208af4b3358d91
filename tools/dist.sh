#!/usr/bin/env bash
# make dist: the bundle for a machine with no compiler and no packages.
#   tools/dist.sh BINARY NAME
# stages build/dist/NAME/ and writes NAME.tar.gz (NAME is
# hzfbench-VERSION-ARCH) holding that one folder: bin/hzfbench (BINARY, linked
# with an rpath of $ORIGIN/../lib), lib/ with every library of its DT_NEEDED
# closure but glibc's, plots/*.gp, run.sh, README.md and docs/, tools/perf-wrap.sh (what
# run.sh --perf-record calls), share/ with the man pages and bash completion, and BUNDLE, the marker by which run.sh knows it
# runs from a bundle, which also says what the bundle needs of the machine.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-} name=${2:-}
{ [ -x "$bin" ] && [ -n "$name" ]; } || { echo "usage: tools/dist.sh BINARY NAME" >&2; exit 2; }
stage=build/dist/$name
rm -rf "$stage"
mkdir -p "$stage/bin" "$stage/lib" "$stage/plots" "$stage/tools" "$stage/docs"
install -m 755 "$bin" "$stage/bin/hzfbench"
install -m 644 plots/*.gp "$stage/plots/"
install -m 644 README.md "$stage/"
install -m 644 docs/*.md "$stage/docs/"	# README links them
install -m 755 run.sh "$stage/"
install -m 755 tools/perf-wrap.sh "$stage/tools/"
# the man page and bash completion, made by the binary from its option tables
mkdir -p "$stage/share/man/man1" "$stage/share/bash-completion/completions"
"$bin" help --man-dir "$stage/share/man/man1"
"$bin" help --completion >"$stage/share/bash-completion/completions/hzfbench"

# glibc's own libraries: every Linux machine has them, matched to its loader
glibc='^(ld-linux.*|libc|libm|libmvec|libpthread|libdl|librt|libresolv|libutil|libanl|libthread_db|libBrokenLocale|libnss_[a-z]+)\.so\.[0-9.]+$'
needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'; }
# ldd says where this machine's loader finds each library of the closure;
# readelf's DT_NEEDED entries say which object needs which
declare -A path=() taken=()
while read -r soname arrow where _; do
	[ "$arrow" = '=>' ] && path[$soname]=$where
done < <(ldd "$bin")
queue=("$bin")
while [ "${#queue[@]}" -gt 0 ]; do
	object=${queue[0]}
	queue=("${queue[@]:1}")
	for soname in $(needed "$object"); do
		[[ $soname =~ $glibc ]] && continue
		[ -n "${taken[$soname]:-}" ] && continue
		where=${path[$soname]:-}
		if [ -z "$where" ] || [ "$where" = not ]; then
			echo "dist: $soname: needed by $object: not found by ldd" >&2
			exit 1
		fi
		cp -L "$where" "$stage/lib/$soname"
		chmod 644 "$stage/lib/$soname"
		taken[$soname]=1
		queue+=("$where")
	done
done

libs=$(printf '%s\n' "${!taken[@]}" | sort | paste -sd ' ')
# the newest glibc symbol version that the binary or a bundled library asks for
glibc_min=$(objdump -T "$stage/bin/hzfbench" "$stage"/lib/* | grep -o 'GLIBC_[0-9][0-9.]*' |
	sed 's/GLIBC_//' | sort -uV | tail -1)
{
	echo "$name: $("$bin" --version), git $(git describe --always --dirty 2>/dev/null || echo unknown)"
	echo "libraries (lib/): $libs"
	echo "needs: Linux on $(uname -m), glibc $glibc_min or newer"
	echo "run: ./run.sh (README.md, make dist); charts need gnuplot (Debian: gnuplot-nox)"
} >"$stage/BUNDLE"
chmod 644 "$stage/BUNDLE"

tar --owner=0 --group=0 --numeric-owner --sort=name -czf "$name.tar.gz" -C build/dist "$name"
echo "dist: $name.tar.gz ($(tar -tzf "$name.tar.gz" | grep -vc '/$') files," \
	"$(($(wc -c <"$name.tar.gz") / 1024)) KiB; libraries: $libs; glibc $glibc_min or newer)"
