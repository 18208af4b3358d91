# speedup: each strategy's faults per second over global's at the same task
# count (seed 007's +164% is one point of it: 2.64x), a panel per task kind.
# Reads summary.csv: strategy, fault, task_kind, tasks, placement,
# faults_per_sec_median (emulated faults, compact placement).
NAME = "speedup"; ARGS_GIVEN = ARGC; RESULTS = ARG1; FORMAT = ARG2
load system("dirname ".ARG0)."/style.gp"

array G[4097]
kinds = ""
do for [k in "thread process"] {
	do for [i = 1:4097] { G[i] = NaN }
	cond(s) = sprintf('strcol("strategy") eq "%s" && strcol("task_kind") eq "%s" && strcol("fault") eq "emulated" && strcol("placement") eq "compact"', s, k)
	# global's rate at each task count, kept in G as the table is made (every
	# row is read before the if: only global's may write)
	eval select('$g_'.k, sprintf('((%s) ? G[int(column("tasks"))] = column("faults_per_sec_median") : 0, column("tasks")):(1)', \
		cond("global")), cond("global"))
	do for [s in "mmflag persistent percpu"] {
		eval select(sprintf('$%s_%s', s, k), \
			'(column("tasks")):(column("faults_per_sec_median") / G[int(column("tasks"))])', cond(s))
	}
	eval count("ng", '$g_'.k)
	have = ""
	if (ng > 0) {
		eval sprintf('n1 = |$mmflag_%s|; n2 = |$persistent_%s|; n3 = |$percpu_%s|', k, k, k)
		have = (n1 > 0 ? " mmflag" : "").(n2 > 0 ? " persistent" : "").(n3 > 0 ? " percpu" : "")
	}
	eval sprintf('have_%s = "%s"', k, have)
	if (have ne "") { kinds = kinds." ".k }
}
if (kinds eq "") { eval skip("no global and other strategy at the same task counts (emulated, compact)") }
eval block_mode

do for [fmt in formats] {
	eval term(fmt)
	eval output(fmt)
	set multiplot layout 1, words(kinds) title chart_title("Faults per second over global's at the same task count (emulated)")
	do for [k in kinds] {
		set title sprintf("%s tasks", k)
		set logscale x 2
		set xlabel "tasks"
		set ylabel "× global"
		set yrange [0:*]
		set offsets graph 0.05, graph 0.1, graph 0.15, 0
		set key top left
		have = value("have_".k)
		plot for [s in have] sprintf('$%s_%s', s, k) using 1:2 with linespoints \
			lc rgb colour(s) dt dash(s) pt point(s) ps 1.6 lw 2.5 title s, \
			for [s in have] sprintf('$%s_%s', s, k) using 1:2:(sprintf("%.1f×", $2)) \
			with labels offset 0, 1.1 tc rgb colour(s) notitle, \
			1 with lines lc rgb colour("global") dt 1 lw 1.5 title "global"
	}
	unset multiplot
	unset output
}
