# lifecycle: the folio's churn under --workload lifecycle (waves of short
# lives, each a new mm, with the shrinker scanning at --shrink-hz): folio
# allocations and frees per second of each strategy at the most tasks run,
# each bar labelled with the share of the tasks' time spent allocating
# (zeroing 2 MiB). Reads summary.csv: strategy, fault, task_kind, tasks,
# workload, allocs_per_sec_median, frees_per_sec_median, alloc_share_median.
NAME = "lifecycle"; ARGS_GIVEN = ARGC; RESULTS = ARG1; FORMAT = ARG2
load system("dirname ".ARG0)."/style.gp"

if (!has_column("workload") || !has_column("allocs_per_sec_median")) { eval skip("no workload columns (an older folder)") }
lives = system(sprintf("awk '%s NR == 1 { for (i = 1; i <= NF; i++) if ($i == \"workload\") c = i; next } $c == \"lifecycle\" { n++ } END { print n + 0 }' '%s'", csv_awk, summary)) + 0
if (lives == 0) { eval skip("no --workload lifecycle rows") }
array M[1]
M[1] = 0
eval select('$t', '(strcol("workload") eq "lifecycle" && column("tasks") > M[1] ? M[1] = column("tasks") : 0, 1):(1)', 'strcol("workload") eq "lifecycle"')
most = M[1]
# a slot for each strategy of emulated faults, run or not
slots = words(emulated_strategies)
do for [s in emulated_strategies] {
	eval select('$'.s, sprintf('(%d):(column("allocs_per_sec_median")):(column("frees_per_sec_median")):(100 * column("alloc_share_median"))', place_in(emulated_strategies, s)), \
		sprintf('strcol("strategy") eq "%s" && strcol("workload") eq "lifecycle" && strcol("fault") eq "emulated" && column("tasks") == %d', s, most))
}
have = ""
do for [s in emulated_strategies] { eval count("n_", '$'.s); if (n_ > 0) { have = have." ".s } }
if (have eq "") { eval skip(sprintf("no emulated lifecycle rows at %d tasks", most)) }
eval block_mode

do for [fmt in formats] {
	eval term(fmt)
	eval output(fmt)
	set title chart_title(sprintf("The folio's life cycle: allocations and frees per second, %d tasks in waves (labels: time spent zeroing)", most))
	set xrange [0.4:slots + 0.6]
	set yrange [0:*]
	set offsets 0, 0, graph 0.15, 0
	set ylabel "per second"
	set xtics ()
	do for [j = 1:slots] { set xtics add (word(emulated_strategies, j) j) }
	set boxwidth 0.35
	set key below center horizontal reverse Left nobox
	plot for [s in have] sprintf('$%s', s) using ($1 - 0.19):2 with boxes lc rgb colour(s) notitle, \
		for [s in have] sprintf('$%s', s) using ($1 + 0.19):3 with boxes lc rgb colour(s) fs pattern 4 notitle, \
		for [s in have] sprintf('$%s', s) using ($1 - 0.19):2:(sprintf("%.0f/s\n%.2f%%", $2, $4)) with labels offset 0, 1.6 notitle, \
		NaN with boxes lc rgb "#777777" title "allocations", \
		NaN with boxes lc rgb "#777777" fs pattern 4 title "frees"
	unset output
}
