#!/usr/bin/env bash
# compare of three folders and show, in every --format, on the committed
# fixtures (tests/data/compare: made-up figures, six repetitions a
# configuration; tests/data/sample): the columns, the change and its mark,
# the labels; JSON that parses, markdown whose every row has the header's
# cells; and the one-line refusals. Ends with "tables: N passed, ...".
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

d=tests/data/compare
sample=tests/data/sample
jsoncheck=$build/jsoncheck
three=("$d/base" "$d/new1" "$d/new2")

# markdown: a header row, a separator row of ---/---: cells, every row as many cells as the header
md_table_ok() {
	awk '/^\|/ { line = $0; gsub(/\\\|/, "", line); n = gsub(/\|/, "|", line) - 1
			rows++; if (rows == 1) cells = n; else if (n != cells) bad = 1
			if (rows == 2 && $0 !~ /^\| ---:?( \| ---:?)* \|$/) bad = 1 }
		END { exit bad || rows < 3 || cells < 2 }' "$1"
}

# --- compare: three folders, the first the base ---
"$bin" compare "${three[@]}" --metric ns_per_fault --out "$tmp/c" >"$tmp/text" 2>"$tmp/err"
rc=$?
if [ $rc = 1 ] && [ ! -s "$tmp/err" ] &&
	grep -q '^metric  *configuration  *6\.18\.0-base  *±%stddev  *6\.18\.0-new1  *±%stddev  *%change  *sig  *6\.18\.0-new2  *±%stddev  *%change  *sig$' "$tmp/text" &&
	grep -q '^ns_per_fault  global,emulated,thread,1,compact,2097152,512  *4\.02  *2%  *6\.03  *2%  *+50\.0%  *regressed  *4\.221  *2%  *+5\.0%  *\*$' "$tmp/text" &&
	grep -q '^ns_per_fault  mmflag,emulated,thread,1,compact,2097152,512  *2\.613  *2%  *2\.01  *2%  *-23\.1%  *improved  *-$' "$tmp/text" &&
	grep -q '^ns_per_fault  persistent,emulated,thread,1,compact,2097152,512  *2\.412  *2%  *2\.412  *2%  *in noise  *2\.412  *2%  *in noise$' "$tmp/text" &&
	grep -q '^in noise: the medians. difference is no larger than the two stddevs' "$tmp/text" &&
	grep -qx '  only in 6.18.0-new2, not in 6.18.0-base: percpu,emulated,thread,1,compact,2097152,512' "$tmp/text" &&
	grep -q '^6\.18\.0-new1 against 6\.18\.0-base: 4 configurations matched; 1 regressed, 1 improved' "$tmp/text" &&
	grep -q '^6\.18\.0-new2 against 6\.18\.0-base: 3 configurations matched; 0 regressed, 0 improved' "$tmp/text" &&
	! grep -q ' $' "$tmp/text"; then
	ok "compare of three folders: a column group each, named by kernel release; change, mark, -; exit 1"
else
	fail "compare of three folders: a column group each, named by kernel release; change, mark, -; exit 1" \
		"rc=$rc" "$(cat "$tmp/text" "$tmp/err")"
fi

# the regression of new1 alone fails it; new2 alone against the base does not
"$bin" compare "$d/base" "$d/new2" --quiet --out "$tmp/c2" >"$tmp/out" 2>&1
rc2=$?
if [ $rc2 = 0 ] && [ ! -s "$tmp/out" ] &&
	grep -q '^ns_per_fault,global,emulated,thread,1,compact,2097152,512,4\.02,1\.86,6,6\.18\.0-new2,4\.221,1\.86,6,5\.00,.*,same$' "$tmp/c2/compare.csv" &&
	grep -q '^ns_per_fault,persistent,emulated,thread,1,compact,2097152,512,2\.412,1\.86,6,6\.18\.0-new2,2\.412,1\.86,6,,1,1,same$' "$tmp/c2/compare.csv" &&
	[ "$("$jsoncheck" "$tmp/c2/compare.json" rows.0.base_reps)" = 6 ] &&
	[ "$("$jsoncheck" "$tmp/c2/compare.json" rows.0.new_reps)" = 6 ] &&
	[ -n "$("$jsoncheck" "$tmp/c2/compare.json" rows.0.new_stddev_pct)" ] &&
	[ "$("$jsoncheck" "$tmp/c2/compare.json" new)" = "$d/new2" ]; then
	ok "compare of two folders: exit 0 without a regression; compare.json has each side's stddev and repetitions"
else
	fail "compare of two folders: exit 0 without a regression; compare.json has each side's stddev and repetitions" \
		"rc=$rc2" "$(cat "$tmp/out" "$tmp/c2/compare.csv")"
fi

"$bin" compare "${three[@]}" --metric ns_per_fault --label A,B,C --format csv --out "$tmp/c" >"$tmp/csv" 2>&1
if [ "$(head -n 1 "$tmp/csv")" = metric,configuration,A,A_stddev_pct,B,B_stddev_pct,B_change_pct,B_sig,C,C_stddev_pct,C_change_pct,C_sig ] &&
	grep -qx 'ns_per_fault,"global,emulated,thread,1,compact,2097152,512",4.02,2%,6.03,2%,+50.0%,regressed,4.221,2%,+5.0%,\*' "$tmp/csv" &&
	grep -qx 'ns_per_fault,"mmflag,emulated,thread,1,compact,2097152,512",2.613,2%,2.01,2%,-23.1%,improved,-,,,' "$tmp/csv" &&
	[ "$(wc -l <"$tmp/csv")" = 5 ] && [ "$(grep -c ',B,' "$tmp/c/compare.csv")" = 4 ] &&
	[ "$(grep -c ',C,' "$tmp/c/compare.csv")" = 5 ]; then
	ok "compare --format csv: the table's columns named by --label, one row a configuration"
else
	fail "compare --format csv: the table's columns named by --label, one row a configuration" "$(cat "$tmp/csv")"
fi

"$bin" compare "${three[@]}" --label A,B,C --format json --out "$tmp/c" >"$tmp/json" 2>&1
if "$jsoncheck" "$tmp/json" >/dev/null && cmp -s "$tmp/json" "$tmp/c/compare.json" &&
	[ "$("$jsoncheck" "$tmp/json" folders.2.label)" = C ] &&
	[ "$("$jsoncheck" "$tmp/json" folders.1.regressed)" = 3 ] &&
	[ "$("$jsoncheck" "$tmp/json" regressed)" = 3 ] &&
	[ "$("$jsoncheck" "$tmp/json" rows.1.new_label)" = C ] &&
	[ "$("$jsoncheck" "$tmp/json" rows.1.verdict)" = same ]; then
	ok "compare --format json: compare.json's one document on stdout, every folder in it"
else
	fail "compare --format json: compare.json's one document on stdout, every folder in it" "$(head -c 600 "$tmp/json")"
fi

"$bin" compare "${three[@]}" --metric ns_per_fault --label 'A|1,B,C' --format markdown --out "$tmp/c" >"$tmp/md" 2>&1
if md_table_ok "$tmp/md" && [ "$(grep -c '^|' "$tmp/md")" = 6 ] &&
	grep -qx '| metric | configuration | A\\|1 | ±%stddev | B | ±%stddev | %change | sig | C | ±%stddev | %change | sig |' "$tmp/md" &&
	grep -qx '| ns_per_fault | global,emulated,thread,1,compact,2097152,512 | 4.02 | 2% | 6.03 | 2% | +50.0% | regressed | 4.221 | 2% | +5.0% | \* |' "$tmp/md" &&
	grep -qx 'B against A\\|1: 4 configurations matched; 1 regressed, 1 improved (beyond 10% at Holm-adjusted p < 0.05)' "$tmp/md"; then
	ok "compare --format markdown: a GitHub table, every row the header's 12 cells, a | in a label escaped"
else
	fail "compare --format markdown: a GitHub table, every row the header's 12 cells, a | in a label escaped" "$(cat "$tmp/md")"
fi
# rendered by GitHub's own converter (cmark-gfm, .ci/run installs it) or pandoc:
# one table, the header's 12 cells, a row for every table line but the rule
md_render() {
	if command -v cmark-gfm >/dev/null; then cmark-gfm -e table "$1"
	else pandoc -f gfm -t html "$1"; fi
}
if ! command -v cmark-gfm >/dev/null && ! command -v pandoc >/dev/null; then
	skip "compare's markdown renders as a table" "neither cmark-gfm nor pandoc (CI installs cmark-gfm)"
elif md_render "$tmp/md" >"$tmp/md.html" 2>&1 && [ "$(grep -c '<table>' "$tmp/md.html")" = 1 ] &&
	[ "$(grep -o '<th[ >]' "$tmp/md.html" | wc -l)" = 12 ] &&
	[ "$(grep -o '<tr>' "$tmp/md.html" | wc -l)" = $(($(grep -c '^|' "$tmp/md") - 1)) ] &&
	grep -q '<td>regressed</td>' "$tmp/md.html"; then
	ok "compare's markdown renders as a table ($(command -v cmark-gfm >/dev/null && echo cmark-gfm || echo pandoc))"
else
	fail "compare's markdown renders as a table" "$(head -20 "$tmp/md.html")"
fi

"$bin" compare "${three[@]}" --metric ns_per_fault --label 'A<1>,B,C' --format html --out "$tmp/c" >"$tmp/html" 2>&1
if [ "$(head -n 1 "$tmp/html")" = '<!DOCTYPE html>' ] && [ "$(grep -o '<th[ >]' "$tmp/html" | wc -l)" = 12 ] &&
	[ "$(grep -c '^<tr><td>ns_per_fault</td>' "$tmp/html")" = 4 ] && grep -q '<th class="n">A&lt;1&gt;</th>' "$tmp/html" &&
	grep -q '<td class="n">+50.0%</td><td>regressed</td>' "$tmp/html" && ! grep -q '<link\|<script\|src=' "$tmp/html" &&
	[ "$(tail -n 1 "$tmp/html")" = '</body></html>' ]; then
	ok "compare --format html: a page of its own, one table, labels escaped"
else
	fail "compare --format html: a page of its own, one table, labels escaped" "$(cat "$tmp/html")"
fi

# --- compare's refusals: one line, exit 2 ---
refused() {	# refused WHAT ARGS...: exit 2 and one line on stderr holding WHAT, nothing on stdout
	local what=$1
	shift
	"$bin" compare "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	if [ $rc = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -qF -- "$what" "$tmp/err" && [ ! -s "$tmp/out" ]; then
		ok "compare refuses: $what"
	else
		fail "compare refuses: $what" "rc=$rc" "$(cat "$tmp/err" "$tmp/out")"
	fi
}
refused "compare: BASE_DIR and NEW_DIR are needed" "$d/base"
refused "compare: $d/meta.json: No such file or directory: not a results folder" "$d/base" "$d/new1" "$d"
refused "--label: A,B: 2 names for 3 folders" "${three[@]}" --label A,B --out "$tmp/c"
refused "--label: A,,C: an empty name" "${three[@]}" --label A,,C
refused "--format: bogus: not" "${three[@]}" --format bogus

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
# as the issue asked it: piped to jq, which reads one document and its numbers
if ! command -v jq >/dev/null; then
	skip "show --format json | jq" "no jq"
elif [ "$("$bin" show "$sample" --format json | jq -r 'length, (.[0].ns_per_fault_median + 0)')" = \
	"$(printf '56\n3.875')" ]; then
	ok "show --format json | jq: 56 objects, ns_per_fault_median a number"
else
	fail "show --format json | jq" "$("$bin" show "$sample" --format json 2>&1 | jq . 2>&1 | head -5)"
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
