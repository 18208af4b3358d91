# shellcheck shell=bash
# What every test script shares: sourced first, from the repository root.
# HZF_BUILD names the build folder (build, or build/asan and the other
# sanitizer builds); $bin is its hzfbench, $tmp a folder removed at exit.
# A script ends with `finish NAME`: "NAME: N passed, N failed, N skipped".
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
build=${HZF_BUILD:-build}
# shellcheck disable=SC2034 # $bin is for the scripts that source this
bin=$build/hzfbench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0 skipped=0

ok() { echo "ok   - $1"; passed=$((passed + 1)); }
fail() { echo "FAIL - $1"; shift; printf '  %s\n' "$@"; failed=$((failed + 1)); }
skip() { echo "skip - $1: $2"; skipped=$((skipped + 1)); }
# cols FILE NAME...: those CSV columns by name, one row a line, space-separated
# (the columns asked for hold no quoted commas)
cols() {
	local file=$1
	shift
	awk -F, -v want="$*" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; n = split(want, w, " "); next }
		{ for (i = 1; i <= n; i++) printf "%s%s", $c[w[i]], i < n ? " " : "\n" }' "$file"
}
meta_complete() { grep -q '"complete": true' "$1/meta.json" 2>/dev/null; }

finish() {
	echo "$1: $passed passed, $failed failed, $skipped skipped"
	[ "$failed" -eq 0 ]
}
