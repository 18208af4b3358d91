#!/usr/bin/env bash
# make test: the unit tests, then the end-to-end tests; one closing line.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

passed=0 failed=0 skipped=0
count() {	# add up a "NAME: N passed, N failed, N skipped" line
	local line
	line=$(grep -E '^[a-z0-9-]+: [0-9]+ passed, [0-9]+ failed' "$1" | tail -1)
	if [ -z "$line" ]; then
		echo "tests: $2 printed no summary line" >&2
		failed=$((failed + 1))
		return
	fi
	read -r p f s < <(echo "$line" |
		sed -E 's/^[a-z0-9-]+: ([0-9]+) passed, ([0-9]+) failed(, ([0-9]+) skipped)?.*/\1 \2 \4/')
	set -- "$p" "$f" "${s:-0}"
	passed=$((passed + $1)); failed=$((failed + $2)); skipped=$((skipped + ${3:-0}))
}

log=$(mktemp)
trap 'rm -f "$log"' EXIT
build/hzftest | tee "$log"
count "$log" unit
tests/e2e.sh | tee "$log"
count "$log" e2e
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
