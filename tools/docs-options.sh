#!/usr/bin/env bash
# The option tables in docs/*.md, between "<!-- options CMD -->" and
# "<!-- end options -->", made anew from hzfbench's own option tables
# (hzfbench help --markdown CMD): the docs never keep a copy of their own.
#   tools/docs-options.sh [--check] [BIN]
# BIN: the hzfbench to ask (default build/hzfbench). --check writes nothing
# and fails, naming each table that differs, where one does (make test runs
# it; make docs rewrites them).
set -euo pipefail

check=false
if [ "${1:-}" = --check ]; then
	check=true
	shift
fi
bin=${1:-build/hzfbench}
[ -x "$bin" ] || { echo "docs-options: $bin: not built (make)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

stale=0
for doc in docs/*.md; do
	grep -q '^<!-- options [a-z0-9]* -->$' "$doc" || continue
	out="$tmp/$(basename "$doc")"
	cmd=
	while IFS= read -r line; do
		if [ -n "$cmd" ]; then
			case $line in "<!-- end options -->") ;; *) continue ;; esac
			"$bin" help --markdown "$cmd" || { echo "docs-options: $doc: $cmd" >&2; exit 2; }
			cmd=
		elif [[ $line =~ ^'<!-- options '([a-z0-9]+)' -->'$ ]]; then
			cmd=${BASH_REMATCH[1]}
		fi
		printf '%s\n' "$line"
	done <"$doc" >"$out"
	if [ -n "$cmd" ]; then
		echo "docs-options: $doc: <!-- options $cmd --> has no <!-- end options -->" >&2
		exit 2
	fi
	cmp -s "$doc" "$out" && continue
	if $check; then
		echo "docs-options: $doc: an option table differs from hzfbench's (make docs):" >&2
		diff "$doc" "$out" | head -20 >&2 || true
		stale=1
	else
		cp "$out" "$doc"
		echo "docs-options: $doc rewritten"
	fi
done
exit $stale
