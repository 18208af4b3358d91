# placement: ns per fault of each strategy under each placement run (compact,
# scatter, node:N, ...) at the most tasks run. Reads summary.csv: strategy,
# fault, task_kind, tasks, placement, ns_per_fault_median (emulated, threads).
NAME = "placement"; ARGS_GIVEN = ARGC; RESULTS = ARG1; FORMAT = ARG2
load system("dirname ".ARG0)."/style.gp"

placements = system(sprintf("awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == \"placement\") c = i; next } !seen[$c]++ { printf \"%%s \", $c }' '%s'", summary))
if (words(placements) < 2) { eval skip(sprintf("one placement only (%s)", word(placements, 1))) }
array M[1]
M[1] = 0
eval select('$t', '(strcol("fault") eq "emulated" && strcol("task_kind") eq "thread" && column("tasks") > M[1] ? M[1] = column("tasks") : 0, 1):(1)', 'strcol("fault") eq "emulated"')
most = M[1]
np = words(placements)
do for [s in strategies] {
	eval select('$'.s, sprintf('(p = strcol("placement"), sum [j = 1:%d] (word("%s", j) eq p ? j : 0)):(column("ns_per_fault_median"))', np, placements), \
		sprintf('strcol("strategy") eq "%s" && strcol("task_kind") eq "thread" && strcol("fault") eq "emulated" && column("tasks") == %d', s, most))
}
eval keep_present("have", '$%s')
if (have eq "") { eval skip(sprintf("no emulated thread rows at %d tasks", most)) }
eval block_mode

nh = words(have)
bar = 0.8 / nh	# the strategies' bars side by side fill 0.8 of a placement's slot

do for [fmt in formats] {
	eval term(fmt)
	eval output(fmt)
	set title chart_title(sprintf("ns per fault by placement, %d thread tasks (emulated)", most))
	set xrange [0.4:np + 0.6]
	set logscale y 10
	set ylabel "ns per fault (log)"
	set xtics () rotate by (np > 6 ? -30 : 0)
	do for [j = 1:np] { set xtics add (word(placements, j) j) }
	set boxwidth bar * 0.92
	set key below center horizontal reverse Left nobox
	plot for [i = 1:nh] sprintf('$%s', word(have, i)) using ($1 + (i - (nh + 1) / 2.0) * bar):2 with boxes \
		lc rgb colour(word(have, i)) title word(have, i)
	unset output
}
