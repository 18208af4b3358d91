#!/usr/bin/env bash
# show in every --format, on the committed fixture tests/data/sample: the
# columns, JSON that parses, markdown whose every row has the header's
# cells, and the one-line refusal. Ends with "tables: N passed, ...".
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

sample=tests/data/sample
jsoncheck=$build/jsoncheck

# markdown: a header row, a separator row of ---/---: cells, every row as many cells as the header
md_table_ok() {
	awk '/^\|/ { line = $0; gsub(/\\\|/, "", line); n = gsub(/\|/, "|", line) - 1
			rows++; if (rows == 1) cells = n; else if (n != cells) bad = 1
			if (rows == 2 && $0 !~ /^\| ---:?( \| ---:?)* \|$/) bad = 1 }
		END { exit bad || rows < 3 || cells < 2 }' "$1"
}

# --- show --format ---
"$bin" show "$sample" >"$tmp/show" 2>&1
"$bin" show "$sample" --format text >"$tmp/show-text" 2>&1
if cmp -s "$tmp/show" "$tmp/show-text" && grep -q '^strategy  *fault  *kind  *tasks  *placement  *ns/fault' "$tmp/show" &&
	grep -q 'most tasks over 1 task' "$tmp/show"; then
	ok "show --format text is show"
else
	fail "show --format text is show" "$(head -3 "$tmp/show-text")"
fi
"$bin" show "$sample" --format csv >"$tmp/show.csv" 2>&1
if [ "$(head -n 1 "$tmp/show.csv")" = strategy,fault,task_kind,tasks,placement,ns_per_fault_median,ns_per_fault_min,ns_per_fault_max,ns_per_fault_stddev,faults_per_sec_median,teardown_ns_per_fault_median,fairness_min_max ] &&
	[ "$(wc -l <"$tmp/show.csv")" = "$(wc -l <"$sample/summary.csv")" ] &&
	grep -qx 'global,emulated,thread,1,compact,3.875,3.478,4.272,0.561,260809299,3.278,1.0000' "$tmp/show.csv"; then
	ok "show --format csv: the table alone, summary.csv's names, a row a configuration"
else
	fail "show --format csv: the table alone, summary.csv's names, a row a configuration" "$(head -3 "$tmp/show.csv")"
fi
"$bin" show "$sample" --format json >"$tmp/show.json" 2>&1
if "$jsoncheck" "$tmp/show.json" >/dev/null && [ "$("$jsoncheck" "$tmp/show.json" 0.strategy)" = global ] &&
	[ "$("$jsoncheck" "$tmp/show.json" 0.ns_per_fault_median)" = 3.875 ] &&
	[ "$("$jsoncheck" "$tmp/show.json" 55.placement)" = scatter ] &&
	! "$jsoncheck" "$tmp/show.json" 56.strategy >/dev/null 2>&1; then
	ok "show --format json: one array of 56 objects, numbers as numbers"
else
	fail "show --format json: one array of 56 objects, numbers as numbers" "$(head -c 400 "$tmp/show.json")"
fi
"$bin" show "$sample" --format markdown >"$tmp/show.md" 2>&1
if md_table_ok "$tmp/show.md" && [ "$(wc -l <"$tmp/show.md")" = 58 ] &&
	grep -qx '| strategy | fault | kind | tasks | placement | ns/fault | min | max | stddev | faults/s | teardown ns | fairness |' "$tmp/show.md"; then
	ok "show --format markdown: a GitHub table, every row the header's cells"
else
	fail "show --format markdown: a GitHub table, every row the header's cells" "$(head -4 "$tmp/show.md")"
fi
if ! "$bin" show "$sample" --format yaml >"$tmp/out" 2>"$tmp/err" && [ "$(wc -l <"$tmp/err")" = 1 ] &&
	grep -q -- '--format: yaml: not' "$tmp/err"; then
	ok "show --format yaml is refused in one line"
else
	fail "show --format yaml is refused in one line" "$(cat "$tmp/err")"
fi

finish tables
