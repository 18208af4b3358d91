#!/usr/bin/env bash
# The races hzfbench runs on purpose, for make test-tsan: every emulated
# strategy's tasks as threads faulting while the shrinker scans, the zeroout
# users pinning and releasing, c2c's ping-pong and its contended line. Under
# ThreadSanitizer a data race ends the run with its report; with any build
# each must end clean.
# Ends with "races: N passed, N failed, N skipped".
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

race() {	# name command...
	local name=$1
	shift
	if "$@" >"$tmp/log" 2>&1 && ! grep -q 'ThreadSanitizer' "$tmp/log"; then
		ok "$name"
	else
		fail "$name" "$(head -40 "$tmp/log")"
	fi
}

for s in global mmflag persistent percpu; do
	race "$s: 2 threads faulting under a 200 Hz shrinker" \
		"$bin" run --strategy "$s" --tasks 2 --task-kind thread --shrink-hz 200 \
		--size 256M --reps 2 --warmup 0 --min-ms 50 --events none --quiet --out "$tmp/$s"
done
race "zeroout: 2 threads pinning the folio, async completion" \
	"$bin" zeroout --tasks 2 --reps 2 --min-ms 30 --zero-size 4M --out "$tmp/zeroout"
race "c2c: the ping-pong pair" "$bin" c2c --rounds 1000 --out "$tmp/c2c"
race "c2c --contention: the pair on one line, work between" \
	"$bin" c2c --rounds 1000 --contention --work-ns 0,200 --out "$tmp/c2cc"

finish races
