#!/usr/bin/env bash
# The bad-input suite: every subcommand with malformed, out-of-range,
# overflowing and conflicting values. Each must exit non-zero (2 for a usage
# error where the case says so), print exactly one line on stderr that names
# the bad value, never die by a signal or leave a core, and leave no results
# folder that looks complete. Ends with "cli: N passed, N failed, N skipped".
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/../lib.sh"

# --- every subcommand's --help lists the options it listed when
# tests/data/help-options.txt was written: one "SUBCOMMAND --option" a line, the
# options a help line begins with ("  --name" or "  -x, --name"). An option taken
# out of a help, or put in, shows here; a deliberate change rewrites the file:
# tests/cli/run.sh --write-help-options
help_options() {
	"$bin" --help | sed -n 's/^  \([a-z][a-z0-9]*\) .*/\1/p' | while read -r c; do
		"$bin" "$c" --help 2>&1 |
			sed -n 's/^  \(-[A-Za-z], \)\{0,1\}\(--[a-z][a-z0-9-]*\).*/\2/p' |
			sort -u | sed "s/^/$c /"
	done
}
if [ "${1:-}" = --write-help-options ]; then
	help_options >tests/data/help-options.txt
	exit
fi
help_options >"$tmp/help-options"
if diff tests/data/help-options.txt "$tmp/help-options" >"$tmp/diff"; then
	ok "each subcommand's --help lists the options of tests/data/help-options.txt"
else
	fail "each subcommand's --help lists the options of tests/data/help-options.txt" \
		"$(cat "$tmp/diff")"
fi
# --print-defaults: --name=value a line, from the table the parser takes them from
if "$bin" sweep --print-defaults >"$tmp/defaults" &&
	! grep -qv '^--[a-z][a-z-]*=.' "$tmp/defaults" &&
	grep -qx -- --max-reps=30 "$tmp/defaults" && grep -qx -- --tasks=pow2 "$tmp/defaults" &&
	"$bin" run --print-defaults | grep -qx -- --tasks=1; then
	ok "run and sweep --print-defaults: each default as --name=value"
else
	fail "run and sweep --print-defaults: each default as --name=value" "$(cat "$tmp/defaults")"
fi
# the docs and the option tables agree: every option a --help lists is
# named in its subcommand's section of docs/ (sweep's in run's too, whose
# options it takes), and each default the run table of docs/usage.md gives
# is the one run --print-defaults prints
section() {	# the text under "### `hzfbench CMD ..." in docs/, to the next heading
	awk -v c="$1" '/^#/ { p = index($0, "`hzfbench " c " ") || index($0, "`hzfbench " c "`") }
		p' docs/*.md
}
undoc=
while read -r c opt; do
	case $opt in --help | --print-defaults) continue ;; esac
	{ section "$c"; [ "$c" = sweep ] && section run; } >"$tmp/section"
	grep -qE -- "${opt}([^a-z-]|\$)" "$tmp/section" || undoc="$undoc $c:$opt"
done <tests/data/help-options.txt
section run | sed -n 's/^| `\(--[a-z-]*\)[^|]*|.*| \([^|]*\) |$/\1=\2/p' | tr -d '`' >"$tmp/doc-defaults"
wrong=
while IFS='=' read -r opt def; do
	doc=$(grep -- "^$opt=" "$tmp/doc-defaults" | cut -d= -f2-)
	[ "$opt" = --events ] && continue	# a list: the docs say what it holds
	[ "$doc" = "$def" ] || wrong="$wrong $opt=$def(docs:${doc:-none})"
done < <("$bin" run --print-defaults)
if [ -z "$undoc$wrong" ]; then
	ok "every option of every --help is in docs/, and the run table's defaults are run --print-defaults'"
else
	fail "every option of every --help is in docs/, and the run table's defaults are run --print-defaults'" \
		"not in docs:${undoc:- none}" "defaults that differ:${wrong:- none}"
fi

# --- the option tables' other forms: docs/ tables, man page, completion ---
# docs/*.md's tables between markers are hzfbench help --markdown's; a table
# edited by hand (or an option changed without make docs) fails the check
if tools/docs-options.sh --check "$bin" 2>"$tmp/docs-err"; then
	mkdir -p "$tmp/docs-copy"
	cp -r docs "$tmp/docs-copy/"
	# shellcheck disable=SC2016 # backquotes: Markdown's, not the shell's
	sed -i '0,/^| `--reps/s/^| `--reps.*/| `--reps R` | made up | `7` |/' "$tmp/docs-copy/docs/usage.md"
	if (cd "$tmp/docs-copy" && "$OLDPWD/tools/docs-options.sh" --check "$OLDPWD/$bin") \
		2>"$tmp/docs-err"; then
		fail "docs/ option tables: a hand-edited one is found" "docs-options.sh --check passed it"
	elif grep -q 'docs/usage.md: an option table differs' "$tmp/docs-err"; then
		ok "docs/ option tables are hzfbench help --markdown's, and a hand edit fails the check"
	else
		fail "docs/ option tables: a hand-edited one is found" "$(head -3 "$tmp/docs-err")"
	fi
else
	fail "docs/ option tables are hzfbench help --markdown's (make docs)" "$(head -8 "$tmp/docs-err")"
fi
# the man pages: hzfbench(1) and one a subcommand, which groff
# reads without a warning and man renders, each naming every option --help lists
mkdir -p "$tmp/man"
"$bin" help --man-dir "$tmp/man"
for page in "$tmp"/man/hzfbench-*.1; do
	c=${page##*/hzfbench-}
	awk -v c="${c%.1}" '/^\.B / { gsub(/\\-/, "-"); n = split(substr($0, 4), w, /[ ,]+/)
		for (i = 1; i <= n; i++) if (w[i] ~ /^--/) print c " " w[i] }' "$page"
done | sort -u >"$tmp/man-options"
missing=$(grep -v -- ' --print-defaults$' tests/data/help-options.txt | sort -u |
	comm -23 - "$tmp/man-options" | tr '\n' ' ')
unrendered=
for page in "$tmp"/man/*.1; do
	if command -v groff >/dev/null; then
		groff -man -Tutf8 -ww -z "$page" 2>>"$tmp/groff-err"
	fi
	if command -v man >/dev/null; then
		MANWIDTH=80 man -l "$page" 2>/dev/null | grep -q '^NAME' || unrendered="$unrendered ${page##*/}"
	fi
done
pages=$(find "$tmp/man" -name '*.1' | wc -l)
if ! command -v groff >/dev/null || ! command -v man >/dev/null; then
	skip "man pages: groff and man read them" "groff or man not installed (groff-base, man-db)"
elif [ ! -s "$tmp/groff-err" ] && [ -z "$missing$unrendered" ] &&
	[ "$pages" = $(($("$bin" --help | grep -c '^  [a-z]') + 1)) ] &&
	grep -q '^\.BR hzfbench\\-vm (1)' "$tmp/man/hzfbench.1"; then
	ok "man pages: hzfbench(1) and $((pages - 1)) subcommands', no groff warning, man renders each, every --help option in its page"
else
	fail "man pages: no groff warning, man renders each, every --help option in its page" \
		"$(head -3 "$tmp/groff-err")" "missing:${missing:- none}" "unrendered:${unrendered:- none}" "pages: $pages"
fi
# bash completion: the subcommands, each one's options, a word option's words
"$bin" help --completion >"$tmp/completion.bash"
complete_words() {	# words...: what completing the last one offers
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _hzfbench
		printf "%s\n" "${COMPREPLY[@]}"' _ "$tmp/completion.bash" "$@"
}
if bash -n "$tmp/completion.bash" &&
	[ "$(complete_words hzfbench vm --accel '')" = "$(printf 'auto\ntcg\nkvm')" ] &&
	complete_words hzfbench swe | grep -qx sweep &&
	[ "$(complete_words hzfbench compare --thr)" = --threshold ] &&
	[ "$(complete_words hzfbench sweep --strategies gl)" = global ] &&
	[ "$(complete_words hzfbench sweep --strategies global,mm)" = global,mmflag ] &&
	[ "$(complete_words hzfbench run --strategy na)" = native ] &&
	[ "$(complete_words hzfbench usemem -- | sort | tr '\n' ' ')" = \
		"$(grep '^usemem ' tests/data/help-options.txt | cut -d' ' -f2 | sort -u | tr '\n' ' ')" ]; then
	ok "bash completion: subcommands, each one's --help options, --accel's words, strategy lists"
else
	fail "bash completion: subcommands, each one's --help options, --accel's words, strategy lists" \
		"$(complete_words hzfbench usemem -- | tr '\n' ' ')"
fi
# hzfbench help SUBCOMMAND is its --help; help's own errors are one line
if cmp -s <("$bin" help compare) <("$bin" compare --help) &&
	! "$bin" help --markdown strategies 2>"$tmp/err" && [ "$(wc -l <"$tmp/err")" -eq 1 ]; then
	ok "help SUBCOMMAND: its --help; --markdown of one without options: one line, non-zero"
else
	fail "help SUBCOMMAND: its --help; --markdown of one without options: one line, non-zero" \
		"$(cat "$tmp/err")"
fi

n=0
# refused(): the command ran in $tmp/cwd; rc and stderr judged
refused() {	# want rc label
	local want=$1 rc=$2 label=$3
	if [ "$rc" -ge 128 ]; then
		fail "bad: $label" "killed by signal $((rc - 128))" "$(head -5 "$tmp/err")"
	elif [ "$rc" -eq 0 ]; then
		fail "bad: $label" "exit 0" "$(cat "$tmp/err")"
	elif [ "$(wc -l <"$tmp/err")" -ne 1 ] || ! grep -qF -- "$want" "$tmp/err"; then
		fail "bad: $label" "rc=$rc, want one line with: $want" "$(head -5 "$tmp/err")"
	elif compgen -G "$tmp/cwd/core*" >/dev/null; then
		fail "bad: $label" "left a core file"
	else
		return 0
	fi
	return 1
}

# bad WANT CMD ARGS...: with --out DIR added, which must not end up complete
bad() {
	local want=$1 dir rc
	shift
	n=$((n + 1))
	dir=$tmp/bad$n
	mkdir -p "$tmp/cwd"
	(cd "$tmp/cwd" && exec "$OLDPWD/$bin" "$1" --out "$dir" "${@:2}") >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if refused "$want" "$rc" "$*"; then
		if meta_complete "$dir"; then
			fail "bad: $*" "left $dir looking complete"
		else
			ok "bad: $* -> $want"
		fi
	fi
}

# bad_as_is WANT ARGS...: the arguments exactly as given (no --out)
bad_as_is() {
	local want=$1
	shift
	mkdir -p "$tmp/cwd"
	(cd "$tmp/cwd" && exec "$OLDPWD/$bin" "$@") >"$tmp/out" 2>"$tmp/err"
	rc=$?	# the caller's to judge too
	refused "$want" "$rc" "$*" && ok "bad: $* -> $want"
}

sample=$PWD/tests/data/sample

# --- run, sweep, usemem, c2c, model: every option's bad values ---
bad "--size: 12Q: not a size" run --size 12Q
bad "--size: 0: must be at least 1 byte" run --size 0
bad "--size: 99999999999999999999: too large" run --size 99999999999999999999
bad "--size: 17179869184G: too large" run --size 17179869184G
bad "--size: 1M: smaller than --step" run --size 1M
bad "--step: -2M: not a size" run --step -2M
bad "--step: 1: 107374182400 faults per pass" run --step 1
bad "--tasks: 0: too small" run --tasks 0
bad "--tasks: 5000: too large (at most 4096: one task a PU, or 4096 where" run --tasks 5000
bad "--tasks: two: not a number" run --tasks two
bad "--tasks: 3: placement compact has" run --tasks 3
bad "--tasks: 9-1: range ends before it starts" sweep --tasks 9-1
bad "--tasks: 1,,2: empty item in list" sweep --tasks 1,,2
bad "--task-kind: fiber: not a task kind" run --task-kind fiber
bad "--task-kinds: fiber: not a task kind" sweep --task-kinds thread,fiber
bad "--strategy: percpu_ref: not a strategy (global, mmflag, persistent, percpu, native)" run --strategy percpu_ref
bad "--strategies: percpuref: not a strategy" sweep --strategies global,percpuref
bad "--strategy: global,mmflag: run takes one value" run --strategy global,mmflag
bad "--placement: spread: not a placement" run --placement spread
bad "--placement: node:x: not a number" run --placement node:x
bad "--placement: node:99: no NUMA node 99" sweep --placements node:99
bad "--placement: cpus:4000: no usable CPU 4000" run --placement cpus:4000
bad "--fault-ns: 1e3: not a number" run --fault-ns 1e3
bad "--shrink-hz: -1: not a number" run --shrink-hz -1
bad "--workload: zeroes: not a workload (usemem, lifecycle, zeroout)" run --workload zeroes
bad "--task-kind: thread: --workload lifecycle gives each life an mm of its own" run --workload lifecycle --task-kind thread
bad "--faults-per-life: 8: needs --workload lifecycle" run --faults-per-life 8
bad "--size: 1G: --workload lifecycle sizes each life by --faults-per-life" run --workload lifecycle --size 1G
bad "--faults-per-life: 0: too small" run --workload lifecycle --faults-per-life 0
bad "--shrink-hz: 1000000: too large" run --shrink-hz 1000000
bad "--fault-ns: 99999999999: too large" run --fault-ns 99999999999
bad "--fault: real: not a fault mode" run --fault real
bad "--strategy: native: measures the running kernel alone" run --strategy native
bad "--faults: real: not a fault mode" sweep --faults emulated,real
bad "--set-thp: never: not a THP mode" run --fault kernel --strategy native --set-thp never
bad "--set-thp: madvise: only kernel faults use THP" run --set-thp madvise
bad "--mm-atomics: maybe: not on or off" run --mm-atomics maybe
bad "--mm-atomics: off: a kernel fault counts its mm itself" run --fault kernel --mm-atomics off
bad "--mm-atomics: off: a kernel fault counts its mm itself" sweep --faults kernel --mm-atomics off
bad "--reps: 0: too small" run --reps 0
bad "--events: bogus: not an event" run --events cycles,bogus
bad "--events: cycles: given twice" sweep --events cycles,cycles
bad "usemem: --readonly missing" usemem -n 2 -j 2M 1G
bad "usemem: -j missing" usemem -n 2 --readonly 1G
bad "usemem: SIZE missing" usemem -n 2 --readonly -j 2M
bad "-n: two: not a number" usemem -n two --readonly -j 2M 1G
bad "-t: 0: too small" usemem -t 0 --readonly -j 2M 1G
bad "usemem: -n 2 -t 2: processes of threads are not measured" usemem -n 2 -t 2 --readonly -j 2M 1G
bad "-j: 0x: not a size" usemem --readonly -j 0x 1G
bad "SIZE: 1Q: not a size" usemem --readonly -j 2M 1Q
bad "usemem: -R: unknown option" usemem -R --readonly -j 2M 1G
bad "usemem: 2G: unexpected argument" usemem --readonly -j 2M 1G 2G
bad "--reps: -1: not a number" run --reps -1
bad "--warmup: x: not a number" run --warmup x
bad "--min-ms: 99999999: too large" run --min-ms 99999999
bad "--counter-node: 7: no such NUMA node" run --counter-node 7
bad "--counter-node: -1: not a number" run --counter-node -1
bad "--topology: /nonexistent.xml: cannot be loaded" run --topology /nonexistent.xml
bad "--bogus: unknown option" run --bogus
bad "--reps: needs a value" run --reps
bad "--reps: autox: not a number" run --reps autox
bad "--max-reps: 12: needs --reps auto" run --max-reps 12
bad "--max-reps: 5: too small" sweep --reps auto --max-reps 5
bad "--max-reps: 99999999999999999999: too large" run --reps auto --max-reps 99999999999999999999
bad "--min-reps: 8: needs --reps auto" run --min-reps 8
bad "--min-reps: 5: too small" sweep --reps auto --min-reps 5
bad "--min-reps: 10: more than --max-reps" run --reps auto --min-reps 10 --max-reps 8
bad "--target-ci: 3: needs --reps auto" sweep --target-ci 3
bad "--target-ci: 0: not a percentage in (0, 100]" run --reps auto --target-ci 0
bad "--target-ci: 101: not a percentage in (0, 100]" run --reps auto --target-ci 101
bad "--target-ci: nan: not a percentage in (0, 100]" run --reps auto --target-ci nan
bad "--target-ci: 2%: not a percentage in (0, 100]" run --reps auto --target-ci 2%
bad "--tag: \"\": empty" run --tag ""
bad '--tag: a\x09b: holds a control character' run --tag "$(printf 'a\tb')"
bad '--tag: a\x0ab: holds a control character' run --tag "$(printf 'a\nb')"
bad ": longer than 128 bytes" sweep --tag "$(printf '%0129d' 0)"
bad "--sched: batch: not a policy (fifo, rr, other; fifo:PRIO, rr:PRIO)" run --sched batch
bad "--sched: fifo:0: priority not in 1-99" run --sched fifo:0
bad "--sched: rr:100: priority not in 1-99" sweep --sched rr:100
bad "--sched: fifo:x: priority not in 1-99" run --sched fifo:x
bad "--sched: other:5: other takes no priority" run --sched other:5
bad "--sched: :1: not a policy" run --sched :1
bad "topo: --out: not an option of topo" topo
bad "extra: unexpected argument" run extra
bad "frobnicate: not a subcommand" frobnicate
bad "--method: xchg: not cas or rw" c2c --method xchg
bad "--pairs: some: not all or neighbours" c2c --pairs some
bad "--rounds: 5: too small" c2c --rounds 5
bad "--placement: none: c2c pins both sides" c2c --placement none
bad "--tasks: 1: too small" c2c --tasks 1
bad "c2c: extra: unexpected argument" c2c extra
bad "--handoff-ns: core=fast: a latency is not a number" model --handoff-ns core=fast --fixed-ns 1 --get-ns 1
bad "--handoff-ns: socket=9: a level is not core" model --handoff-ns socket=9 --fixed-ns 1 --get-ns 1
bad "--fixed-ns: -1: not a number of ns" model --handoff-ns 40 --fixed-ns -1 --get-ns 1
bad "--get-ns: 1e99: not a number of ns" model --handoff-ns 40 --fixed-ns 1 --get-ns 1e99
bad "model: --fixed-ns and --get-ns are needed without --from" model --handoff-ns 40
bad "model: no hand-off latencies: give --c2c FILE" model --fixed-ns 1 --get-ns 1
bad "model: /nonexistent.csv: give --c2c FILE" model --c2c /nonexistent.csv --fixed-ns 1 --get-ns 1
bad "--handoff-ns: 40: give it or --c2c, not both" model --handoff-ns 40 --c2c x.csv
bad "--preset: seed-008: the one preset is seed-007" model --preset seed-008
bad "--put-batch: 0.5: less than one put a move" model --put-batch 0.5 --fixed-ns 1 --get-ns 1 --handoff-ns 3
bad "--teardown-ns: -4: " model --teardown-ns -4 --fixed-ns 1 --get-ns 1 --handoff-ns 3
bad "model: /nonexistent.csv: No such file or directory" model --contention /nonexistent.csv --fixed-ns 1 --get-ns 1 --handoff-ns 3
bad "--from: tests/data/sample: takes its configurations from the folder" model --from tests/data/sample --tasks 2
bad "model: --from: /nonexistent: No such file or directory" model --from /nonexistent --handoff-ns 40
bad "--tasks: 0: too small" model --handoff-ns 40 --fixed-ns 1 --get-ns 1 --tasks 0
bad "--placement: none: the model needs pinned tasks" model --handoff-ns 40 --fixed-ns 1 --get-ns 1 --placement none

# --- overflow: values past every integer type, and lists that would not fit ---
bad "--size: 18446744073709551616: too large" run --size 18446744073709551616
bad "--size: 16E: not a size" run --size 16E
bad "--size: 0x: not a size" run --size 0x
bad "--size: 0x10000000000000000: too large" run --size 0x10000000000000000
bad "--tasks: 1-99999999999999: too large" sweep --tasks 1-99999999999999
bad "--tasks: 99999999999999999999999: too large" run --tasks 99999999999999999999999
bad "--tasks: pow2,all,1-1000000: too large" sweep --tasks pow2,all,1-1000000
bad "--counter-node: 99999999999999999999: too large" run --counter-node 99999999999999999999
bad "--rounds: 999999999999999999: too large" c2c --rounds 999999999999999999
bad "-n: 99999999999: too large" usemem -n 99999999999 --readonly -j 2M 1G
bad '--events: "": empty item in list' run --events ,
bad "--events: rZZZ: not an event" run --events rZZZ
# the PMU's own names: an event no PMU here has (or a build without libpfm4) in one line
bad "--events: NO_SUCH_EVENT:XSNP_HITM: not an event: neither a perf generic name" \
	run --events task-clock,NO_SUCH_EVENT:XSNP_HITM
bad "--events: r1b7:config1=zz: not a raw event: rNNNN[:config1=HEX][:config2=HEX]" \
	sweep --events r1b7:config1=zz
bad "--inject-ns: global: not STRATEGY=NS" run --inject-ns global
bad "--inject-ns: bogus=5: not an emulated strategy" run --inject-ns bogus=5
bad "--placement: cpus:: empty" run --placement cpus:
bad "--placement: cpus:1-0: range ends before it starts" run --placement cpus:1-0
bad "--placement: node:-1: not a number" run --placement node:-1
bad "--placement: cpus:0-2000000: a CPU number past 1048576" run --placement cpus:0-2000000
bad "--placement: cpus:0x10: not a number or range" run --placement cpus:0x10

# --- zeroout ---
bad "--sink: disk: not a sink (emulated, file)" zeroout --sink disk
bad "--segments: huge: not a segment (page, folio)" zeroout --segments huge
bad "--zero-size: 3M: not a multiple of 2M" zeroout --zero-size 3M
bad "--zero-size: 0: must be at least 1 byte" zeroout --zero-size 0
bad "--zero-size: 99999999999999999999: too large" zeroout --zero-size 99999999999999999999
bad "--tasks: 0: too small" zeroout --tasks 0
bad "--strategies: native: serves no user without an mm" zeroout --strategies native
bad "--reps: 0: too small" zeroout --reps 0
bad "--min-ms: x: not a number" zeroout --min-ms x
bad "--warmup: 100001: too large" zeroout --warmup 100001
bad "--placement: bogus: not a placement" zeroout --placement bogus
bad "--segments: huge: not a segment (page, folio)" zeroout --segments page,huge
bad "--strategies: bogus: not a strategy" zeroout --strategies bogus
bad "--workload: lifecycle: hzfbench zeroout is --workload zeroout" zeroout --workload lifecycle

# --- show, report, compare, history, topo, probe, strategies: folders and files ---
bad_as_is "show: needs one results folder" show
bad_as_is "show: needs one results folder" show a b
bad_as_is "show: /nonexistent: No such file or directory" show /nonexistent
bad_as_is "report: DIR missing" report
bad_as_is "report: /nonexistent: No such file or directory" report /nonexistent
bad_as_is "compare: BASE_DIR and NEW_DIR are needed" compare
bad_as_is "compare: /x: No such file or directory" compare /x /y
bad_as_is "--threshold: -5: out of range" compare "$sample" "$sample" --threshold -5
bad_as_is "--threshold: 1e999: not a number" compare "$sample" "$sample" --threshold 1e999
bad_as_is "--alpha: 2: out of range" compare "$sample" "$sample" --alpha 2
bad_as_is "--metric: bogus: not a metric" compare "$sample" "$sample" --metric bogus
bad_as_is "--normalize: bogus: not a strategy" compare "$sample" "$sample" --normalize bogus
bad_as_is "--ungated: ,,,,,,,,,,,,: more fields than the key has" compare "$sample" "$sample" --ungated ,,,,,,,,,,,,
bad_as_is "history: FILE and DIR are needed" history
bad_as_is "history: /nonexistent: No such file or directory" history "$tmp/h.csv" /nonexistent
bad_as_is "--tasks: 99999999999999999999999: too large" topo --tasks 99999999999999999999999
bad_as_is "detect: --behaviour or --lifecycle is needed" detect
bad_as_is "detect: --allow-drop-caches is needed" detect --behaviour
bad_as_is "detect: --allow-drop-caches is needed" detect --lifecycle
bad_as_is "detect: --bogus: unknown option" detect --behaviour --bogus
bad_as_is "detect: now: unexpected argument" detect --behaviour --allow-drop-caches now
bad_as_is "detect: --behaviour and --lifecycle: one or the other" detect --behaviour --lifecycle --allow-drop-caches
bad_as_is "detect: --expect: global: only --lifecycle expects a strategy" detect --behaviour --allow-drop-caches --expect global
bad_as_is "--expect: native: not behaviour, config, global, mmflag or persistent" detect --lifecycle --allow-drop-caches --expect native
bad_as_is "detect: --expect: needs a value" detect --lifecycle --allow-drop-caches --expect
bad_as_is "detect: --holder: only --behaviour scans for holders" detect --lifecycle --holder --allow-drop-caches
bad_as_is "--sample-ms: 0: too small" doctor --sample-ms 0
bad_as_is "--sample-ms: 1e3: not a number" doctor --sample-ms 1e3
bad_as_is "doctor: --json and --warnings: one or the other" doctor --json --warnings
bad_as_is "doctor: extra: unexpected argument" doctor extra
bad_as_is "doctor: --bogus: unknown option" doctor --bogus
bad_as_is "--placement: node:99: " doctor --placement node:99
bad_as_is "--placement: wide: " doctor --placement wide
bad_as_is "--tasks: 0: too small" doctor --tasks 0
bad_as_is "--tasks: 99: " doctor --tasks 99
bad_as_is "--ignore: bogus: not a factor (cpufreq, boost, smt, hypervisor, steal, thp, numa_balancing, perf_event_paranoid, nmi_watchdog, isolation, clocksource, load)" doctor --strict --ignore hypervisor,bogus
bad_as_is "doctor: --ignore: needs --strict" doctor --ignore load
bad_as_is "doctor: --tune and --reset: one or the other" doctor --tune --reset
bad_as_is "doctor: --tune, --reset: not with --json, --warnings or --strict" doctor --reset --strict
bad_as_is "doctor: --set-thp: needs --tune" doctor --set-thp madvise
bad_as_is "--set-thp: never: not madvise or always" doctor --tune --set-thp never
bad_as_is "doctor: --state: needs --tune or --reset" doctor --state /nonexistent/state
bad_as_is "--state: \"\": empty file name" doctor --reset --state ''
bad_as_is "--topology: /etc/passwd: cannot be loaded" topo --topology /etc/passwd
bad_as_is "probe: extra: unexpected argument" probe extra
bad_as_is "strategies: extra: unexpected argument" strategies extra
bad_as_is "--version: extra: unexpected argument" --version extra
bad_as_is ": not a subcommand" ""
# made here: /etc/passwd differs from machine to machine (a fresh Debian's has no quote in it)
printf 'name,age\nx,1\n' >"$tmp/people.csv"
printf 'pu,0,1\n0,,1\n1,"2\n' >"$tmp/torn-c2c.csv"
bad_as_is "model: $tmp/people.csv: not a c2c.csv" model --c2c "$tmp/people.csv" --fixed-ns 1 --get-ns 1
bad_as_is "model: $tmp/torn-c2c.csv: line 3 is not CSV" model --c2c "$tmp/torn-c2c.csv" --fixed-ns 1 --get-ns 1
printf 'pu,0,1\n0,,abc\n1,30,\n' >"$tmp/word-c2c.csv"
printf 'pu,0,1\n0,3,30\n1,30,\n' >"$tmp/diag-c2c.csv"
printf 'pu,0,1\n1,,30\n0,30,\n' >"$tmp/swapped-c2c.csv"
bad_as_is "model: $tmp/word-c2c.csv: line 2: abc: not a latency in ns" \
	model --c2c "$tmp/word-c2c.csv" --fixed-ns 1 --get-ns 1 --out "$tmp/word-model"
if [ ! -e "$tmp/word-model" ]; then
	ok "model: a malformed c2c.csv writes no folder"
else
	fail "model: a malformed c2c.csv wrote $tmp/word-model"
fi
bad_as_is "model: $tmp/diag-c2c.csv: line 2: 3: not empty on the diagonal" \
	model --c2c "$tmp/diag-c2c.csv" --fixed-ns 1 --get-ns 1
bad_as_is "model: $tmp/swapped-c2c.csv: line 2: 1: a row's PU is not its column's" \
	model --c2c "$tmp/swapped-c2c.csv" --fixed-ns 1 --get-ns 1

# --- malformed files where a folder is read: a CSV that is not one, a NUL, a torn row ---
folder() { mkdir -p "$tmp/$1" && cp "$sample"/*.* "$tmp/$1/"; }
folder torn
head -c 300 "$sample/summary.csv" >"$tmp/torn/summary.csv"
bad_as_is "torn/summary.csv: cut off (no newline at its end)" show "$tmp/torn"
folder torn-row
head -c "$(($(head -1 "$sample/summary.csv" | wc -c) + 40))" "$sample/summary.csv" >"$tmp/torn-row/summary.csv"
bad_as_is "torn-row/summary.csv: cut off (no newline at its end)" show "$tmp/torn-row"
folder nul
printf 'strategy\0,x\n' >"$tmp/nul/summary.csv"
bad_as_is "$tmp/nul/summary.csv: not text (a NUL byte)" show "$tmp/nul"
folder quote
printf 'a,b\n"unterminated,1\n' >"$tmp/quote/samples.csv"
bad_as_is "samples.csv" compare "$sample" "$tmp/quote"


# --- every reader of a results folder refuses one cut short, torn or unfinished, alike:
# exit 2, one line naming the file and what is wrong, nothing written beside it ---
reader_cases() {	# NAME FILE WANT: each folder made here from the sample, torn one way
	folder header-only && head -1 "$sample/summary.csv" >"$tmp/header-only/summary.csv"
	echo "header-only summary.csv no rows (empty, or torn after its header)"
	folder short-row && { head -1 "$sample/summary.csv"; sed -n 2p "$sample/summary.csv" |
		cut -d, -f1-9; } >"$tmp/short-row/summary.csv"
	echo "short-row summary.csv line 2 is not CSV (torn, or not a summary.csv)"
	folder cut-row && head -c -7 "$sample/summary.csv" >"$tmp/cut-row/summary.csv"
	echo "cut-row summary.csv cut off (no newline at its end)"
	folder garbage && head -c 2000 /dev/urandom | tr -d '\0' >"$tmp/garbage/summary.csv"
	echo "garbage summary.csv "
	folder cut-meta && head -c 300 "$sample/meta.json" >"$tmp/cut-meta/meta.json"
	echo "cut-meta meta.json not JSON (cut off, or not hzfbench's)"
	folder unfinished && sed -i 's/"complete": true/"complete": false/' "$tmp/unfinished/meta.json"
	echo "unfinished meta.json \"complete\": false: its run was stopped or failed"
	mkdir -p "$tmp/empty-folder"
	echo "empty-folder meta.json No such file or directory: not a results folder"
	echo "no-folder . No such file or directory"
}
reader_cases >"$tmp/cases"
while read -r name file want; do
	d=$tmp/$name
	[ "$file" = . ] && file= || file=/$file
	for cmd in show report "model --from" "history $tmp/never.csv" "compare $sample"; do
		before=$(ls "$d" 2>/dev/null)
		read -ra words <<<"$cmd"
		(cd "$tmp" && exec "$OLDPWD/$bin" "${words[@]}" "$d") >"$tmp/out" 2>"$tmp/err"
		rc=$?
		if [ "$rc" -ne 2 ] || [ "$(wc -l <"$tmp/err")" -ne 1 ] ||
			! grep -qF -- "$d$file: $want" "$tmp/err"; then
			fail "reader: ${words[0]} of a $name folder" "rc=$rc, want 2 and one line: $d$file: $want" \
				"$(head -3 "$tmp/err")"
		elif [ "$(ls "$d" 2>/dev/null)" != "$before" ] || [ -e "$tmp/never.csv" ]; then
			fail "reader: ${words[0]} of a $name folder" "wrote beside it" "$(ls "$d" "$tmp/never.csv" 2>&1)"
		else
			ok "reader: ${words[0]} of a $name folder: 2, \"$d$file: $want\""
		fi
	done
done <"$tmp/cases"

bad "model: extra: unexpected argument" model extra

# --- machines of thousands of PUs (HWLOC_SYNTHETIC): task counts and CPU lists grow with them ---
big="pack:8 numa:2 core:128 pu:2"	# 4,096 PUs, 16 nodes of 256
HWLOC_SYNTHETIC=$big bad_as_is "--tasks: 4097: too large (at most 4096" topo --tasks 4097
odd=$(seq -s, 1 2 4095)	# 2,048 single CPUs in 9,684 bytes
if HWLOC_SYNTHETIC=$big "$bin" topo --placement "cpus:$odd" >"$tmp/out" 2>"$tmp/err" &&
	[ "$(grep '^placement' "$tmp/out")" = "placement cpus:$odd, 2048 tasks: PUs $odd" ] &&
	grep -q '^  2047   4095   2047   7        15$' "$tmp/out" &&
	grep -q '^  NUMA node 15: PUs 3840-4095, ' "$tmp/out"; then
	ok "topo at 4,096 PUs: a cpus: placement of 2,048 CPUs planned and printed whole"
else
	fail "topo at 4,096 PUs: a cpus: placement of 2,048 CPUs planned and printed whole" \
		"$(head -c 300 "$tmp/out")" "$(cat "$tmp/err")"
fi
if HWLOC_SYNTHETIC="pack:16 numa:2 core:128 pu:2" "$bin" topo --tasks 8192 >"$tmp/out" 2>"$tmp/err" &&
	grep -q '^  8191   8191   4095   15       31$' "$tmp/out"; then
	ok "topo at 8,192 PUs: 8,192 tasks, one a PU (past 4,096)"
else
	fail "topo at 8,192 PUs: 8,192 tasks, one a PU (past 4,096)" "$(tail -2 "$tmp/out")" "$(cat "$tmp/err")"
fi

# --events list: every generic name with what perf_event_open says of it
# here (the unit tests check the word against perf_event_open), the raw
# syntax, and libpfm4's PMUs or that the build has none; exit 0, nothing on
# stderr
if "$bin" run --events list >"$tmp/out" 2>"$tmp/err" && [ ! -s "$tmp/err" ] &&
	grep -Eqx '  task-clock  *software  (counts|unsupported: .*|refused: .*)' "$tmp/out" &&
	grep -Eqx '  cycles  *hardware  (counts|unsupported: .*|refused: .*)' "$tmp/out" &&
	[ "$(grep -c '^  [a-zA-Z1-]*  *\(hardware\|software\)  ' "$tmp/out")" = 33 ] &&
	grep -q '^raw codes: rNNNN\[:config1=HEX\]' "$tmp/out" &&
	grep -Eq '^libpfm4: (PMUs detected on this CPU: |not in this build)' "$tmp/out" &&
	"$bin" sweep --events list=MIGRATION >"$tmp/some" 2>>"$tmp/err" &&
	[ "$(grep -c '^  [a-z-]*  *software' "$tmp/some")" = 2 ] && ! grep -q '^  task-clock' "$tmp/some"; then
	ok "--events list: the generic names, each counted or said not to be, and libpfm4's PMUs; list=PATTERN keeps some"
else
	fail "--events list: the generic names, each counted or said not to be, and libpfm4's PMUs; list=PATTERN keeps some" \
		"$(head -40 "$tmp/out")" "$(cat "$tmp/err")"
fi

mkdir -p "$tmp/full" && echo precious >"$tmp/full/keep.txt"
if ! "$bin" run --out "$tmp/full" --size 64M --min-ms 1 --reps 1 2>"$tmp/err" &&
	grep -q -- "--out: $tmp/full: exists and is not empty" "$tmp/err" &&
	[ "$(cat "$tmp/full/keep.txt")" = precious ] && [ "$(ls "$tmp/full")" = keep.txt ]; then
	ok "an existing folder is never written into"
else
	fail "an existing folder is never written into" "$(cat "$tmp/err")"
fi

# --- issue 39's kinds: a file not hzfbench's written into, a figure that is not
# finite, a chart with nothing of one kind, a name given twice, a check made
# only after the work, a root that is not there, a file that blocks the open ---
cp "$sample/samples.csv" "$tmp/other.csv"
cp "$tmp/other.csv" "$tmp/other.before"
bad_as_is "history: $tmp/other.csv: not a history (its first line is not the header" \
	history "$tmp/other.csv" "$sample"
if cmp -s "$tmp/other.csv" "$tmp/other.before" && [ "$rc" = 2 ]; then
	ok "history: a CSV that is not a history: exit 2, left as it was"
else
	fail "history: a CSV that is not a history: exit 2, left as it was" "rc=$rc"
fi
"$bin" history "$tmp/torn-h.csv" "$sample" && head -c -3 "$tmp/torn-h.csv" >"$tmp/torn-h2.csv"
if "$bin" history "$tmp/torn-h2.csv" "$sample" 2>"$tmp/err" &&
	[ "$(awk -F, '{ print NF }' "$tmp/torn-h2.csv" | sort -u)" = 17 ] &&
	[ "$(wc -l <"$tmp/torn-h2.csv")" = $((2 * $(wc -l <"$tmp/torn-h.csv") - 1)) ]; then
	ok "history: a last line without its newline is mended before the rows go on"
else
	fail "history: a last line without its newline is mended before the rows go on" \
		"$(cat "$tmp/err")" "$(tail -c 300 "$tmp/torn-h2.csv")"
fi
mkfifo "$tmp/h.fifo"
(cd "$tmp" && timeout 5 "$OLDPWD/$bin" history "$tmp/h.fifo" "$sample") >"$tmp/out" 2>"$tmp/err"
rc=$?
refused "history: $tmp/h.fifo: not a regular file" "$rc" "history onto a FIFO" && [ "$rc" = 2 ] &&
	ok "bad: history onto a FIFO: 2, not held in open()"
folder fifo-meta && rm "$tmp/fifo-meta/meta.json" && mkfifo "$tmp/fifo-meta/meta.json"
(cd "$tmp" && timeout 5 "$OLDPWD/$bin" show "$tmp/fifo-meta") >"$tmp/out" 2>"$tmp/err"
rc=$?
refused "fifo-meta/meta.json: not a regular file (a FIFO or a socket)" "$rc" "show of a FIFO meta.json" &&
	[ "$rc" = 2 ] && ok "bad: show of a folder whose meta.json is a FIFO: 2, not held in open()"
mkfifo "$tmp/c2c.fifo"
(cd "$tmp" && timeout 5 "$OLDPWD/$bin" model --c2c "$tmp/c2c.fifo" --fixed-ns 1 --get-ns 1) \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
refused "$tmp/c2c.fifo: not text to read (a NUL byte, a FIFO or a socket)" "$rc" "model --c2c FIFO" &&
	[ "$rc" = 2 ] && ok "bad: model --c2c of a FIFO: 2, not held in open()"
printf 'pu,0\n0,\0\n' >"$tmp/nul-c2c.csv"
bad_as_is "model: $tmp/nul-c2c.csv: not text to read (a NUL byte" \
	model --c2c "$tmp/nul-c2c.csv" --fixed-ns 1 --get-ns 1
# a figure no run writes: every reader names the file, the line and the column
folder nan && sed -i '3s/^\(\([^,]*,\)\{8\}\)[^,]*/\1nan/' "$tmp/nan/summary.csv"
folder huge && sed -i '2s/^\(\([^,]*,\)\{12\}\)[^,]*/\11e999/' "$tmp/huge/summary.csv"
folder inf-sample && sed -i '2s/^\(\([^,]*,\)\{10\}\)[^,]*/\1-inf/' "$tmp/inf-sample/samples.csv"
for c in "nan summary.csv line 3, column ns_per_fault_median: nan: not a finite number" \
	"huge summary.csv line 2, column faults_per_sec_median: 1e999: not a finite number"; do
	read -r name file want <<<"$c"
	for cmd in show report "model --from" "history $tmp/never.csv" "compare $sample"; do
		read -ra words <<<"$cmd"
		(cd "$tmp" && exec "$OLDPWD/$bin" "${words[@]}" "$tmp/$name") >"$tmp/out" 2>"$tmp/err"
		rc=$?
		if refused "$tmp/$name/$file: $want" "$rc" "${words[0]} of a $name folder" &&
			[ "$rc" = 2 ] && [ ! -e "$tmp/never.csv" ] && [ ! -e "$tmp/$name/report.html" ]; then
			ok "bad: ${words[0]} of a folder with $file's $want: 2"
		elif [ "$rc" != 2 ]; then
			fail "bad: ${words[0]} of a $name folder" "rc=$rc, want 2"
		fi
	done
done
bad_as_is "$tmp/inf-sample/samples.csv: line 2, column ns_per_fault: -inf: not a finite number" \
	compare "$sample" "$tmp/inf-sample"
bad_as_is "--label: a,b,a: a: given twice" compare "$sample" "$sample" "$sample" --label a,b,a
bad_as_is "vm: frobnicate: not a subcommand" vm --timeout 5 -- frobnicate
HZF_SYSROOT=$tmp/no-root bad_as_is "\$HZF_SYSROOT: $tmp/no-root: No such file or directory" \
	doctor --strict
HZF_SYSROOT=$tmp/other.csv bad_as_is "\$HZF_SYSROOT: $tmp/other.csv: not a folder" doctor --json
mkdir -p "$tmp/vm-full" && echo precious >"$tmp/vm-full/keep.txt"
if ! command -v qemu-system-x86_64 >/dev/null; then
	skip "vm --out on a folder not empty: 2" "qemu-system-x86_64 not installed"
else
	bad_as_is "--out: $tmp/vm-full: exists and is not empty" vm --out "$tmp/vm-full" -- topo
	if [ "$rc" = 2 ] && [ "$(ls "$tmp/vm-full")" = keep.txt ]; then
		ok "vm --out on a folder not empty: 2, the folder as it was"
	else
		fail "vm --out on a folder not empty: 2, the folder as it was" "rc=$rc"
	fi
fi

# a zeroout folder of one segment kind: its bars alone, report exits 0
if ! command -v gnuplot >/dev/null; then
	skip "report of a zeroout folder of page segments alone" "gnuplot not installed"
elif "$bin" zeroout --out "$tmp/zo-page" --segments page --tasks 1 --reps 2 --min-ms 5 \
	>/dev/null 2>"$tmp/err" && "$bin" report "$tmp/zo-page" >/dev/null 2>>"$tmp/err" &&
	[ -s "$tmp/zo-page/plots/zeroout.png" ] && [ -s "$tmp/zo-page/report.html" ]; then
	ok "report of a zeroout folder of page segments alone: 0, its chart drawn"
else
	fail "report of a zeroout folder of page segments alone: 0, its chart drawn" "$(head -3 "$tmp/err")"
fi

# an --out refused before the kernel's faults are probed: one line, nothing run
(cd "$tmp" && exec "$OLDPWD/$bin" run --out "$tmp/full" --fault kernel --strategy native --size 64M \
	--min-ms 5 --reps 1 --events none) >"$tmp/out" 2>"$tmp/err"
rc=$?
refused "--out: $tmp/full: exists and is not empty" "$rc" "run --fault kernel --out FULL" &&
	[ "$rc" = 2 ] && ok "bad: run --fault kernel --out on a folder not empty: 2, refused before any fault"

finish cli
