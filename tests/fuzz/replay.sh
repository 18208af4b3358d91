#!/usr/bin/env bash
# Every fuzz target fed its kept corpus and every crasher ever found, once,
# through replay-NAME (a plain build, or a sanitizer one under make
# test-asan): what fuzzing found stays fixed. Part of make test.
# Ends with "fuzz: N passed, N failed, N skipped".
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

for src in tests/fuzz/fuzz_*.c; do
	name=${src#tests/fuzz/fuzz_}
	name=${name%.c}
	dirs=(tests/fuzz/corpus/"$name")
	[ -d tests/fuzz/crashers/"$name" ] && dirs+=(tests/fuzz/crashers/"$name")
	if "$build/replay-$name" "${dirs[@]}" >"$tmp/log" 2>&1; then
		ok "fuzz $name: $(tail -1 "$tmp/log") (${dirs[*]})"
	else
		fail "fuzz $name" "$(tail -20 "$tmp/log")"
	fi
done
finish fuzz
