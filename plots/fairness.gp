# fairness: the slowest task's fault rate over the fastest's against tasks
# (1.0: every task got the same), one line per strategy, a panel per task
# kind. Reads summary.csv: strategy, fault, task_kind, tasks, placement,
# fairness_min_max (emulated faults, compact placement).
NAME = "fairness"; ARGS_GIVEN = ARGC; RESULTS = ARG1; FORMAT = ARG2
load system("dirname ".ARG0)."/style.gp"

kinds = ""
do for [k in "thread process"] {
	do for [s in strategies] {
		eval select(sprintf('$%s_%s', s, k), '(column("tasks")):(column("fairness_min_max"))', \
			sprintf('strcol("strategy") eq "%s" && strcol("task_kind") eq "%s" && strcol("fault") eq "emulated" && strcol("placement") eq "compact" && column("tasks") > 1', s, k))
	}
	eval keep_present("have", '$%s_'.k)
	eval sprintf('have_%s = "%s"', k, have)
	if (have ne "") { kinds = kinds." ".k }
}
if (kinds eq "") { eval skip("no emulated rows with more than one task") }
eval block_mode
have = union(have_thread, have_process)
krows = key_rows(words(have), 10)
cols = words(kinds)

do for [fmt in formats] {
	eval term(fmt)
	eval output(fmt)
	set multiplot title chart_title("Fairness: slowest task's fault rate over the fastest's (emulated)")
	do for [i = 1:cols] {
		k = word(kinds, i)
		eval panel(i - 1, 1, cols, krows)
		set title sprintf("%s tasks", k)
		set logscale x 2
		set xlabel "tasks"
		set ylabel "slowest / fastest"
		set yrange [0:1.05]
		set xrange [1:*]
		set offsets graph 0.1, graph 0.1, 0, 0
		have_k = value("have_".k)
		plot for [s in have_k] sprintf('$%s_%s', s, k) using 1:2 with linespoints \
			lc rgb colour(s) dt dash(s) pt point(s) ps 1.8*PS lw 2.5
	}
	eval key_panel(krows)
	eval "plot ".strategy_keys(1.8, 2.5)
	eval base_style
	unset multiplot
	unset output
}
