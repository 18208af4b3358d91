# kernel: real huge zero read faults, the running kernel alone (native) and
# with each strategy's get taken beside every fault: ns per fault against
# tasks (bars: fastest and slowest repetition), and each strategy's get timed
# in place as a share of the fault. Reads summary.csv: strategy, fault,
# task_kind, tasks, placement, ns_per_fault_median, ns_per_fault_min,
# ns_per_fault_max, get_share_of_fault (kernel faults, compact placement).
NAME = "kernel"; ARGS_GIVEN = ARGC; RESULTS = ARG1; FORMAT = ARG2
load system("dirname ".ARG0)."/style.gp"

if (kernels_folder) { eval skip("a folder of run.sh --kernels: the kernels chart draws it") }
shares = has_column("get_share_of_fault")
kinds = ""
do for [k in "thread process"] {
	do for [s in strategies] {
		c = sprintf('strcol("strategy") eq "%s" && strcol("task_kind") eq "%s" && strcol("fault") eq "kernel" && strcol("placement") eq "compact"', s, k)
		eval select(sprintf('$%s_%s', s, k), '(column("tasks")):(column("ns_per_fault_median")/1000):(column("ns_per_fault_min")/1000):(column("ns_per_fault_max")/1000)', c)
		if (shares) {
			eval select(sprintf('$share_%s_%s', s, k), '(column("tasks")):(strcol("get_share_of_fault") ne "" ? 100 * column("get_share_of_fault") : 0)', c)
		}
	}
	eval keep_present("have", '$%s_'.k)
	eval sprintf('have_%s = "%s"', k, have)
	if (have ne "") { kinds = kinds." ".k }
}
if (kinds eq "") { eval skip("no real-fault rows (run with --fault kernel)") }
eval block_mode
# one key for every panel; µs on a log axis where they span more than 30x
have = union(have_thread, have_process)
span = 1
do for [k in kinds] {
	eval spread("r", '$%s_'.k, value("have_".k), 2)
	span = r > span ? r : span
	eval spread("r", '$%s_'.k, value("have_".k), 4)
	eval sprintf("top_%s = hi_", k)
	if (shares) {
		eval spread("r", '$share_%s_'.k, value("have_".k), 2)
		eval sprintf("top_share_%s = hi_", k)
	}
}
logy = span > 30
krows = key_rows(words(have), 10)
cols = words(kinds)
rows = shares ? 2 : 1

do for [fmt in formats] {
	eval term(fmt)
	eval output(fmt)
	set multiplot title chart_title("Real huge zero read faults: the kernel alone and with each strategy beside it")
	do for [i = 1:cols] {
		k = word(kinds, i)
		eval panel(i - 1, rows, cols, krows)
		set title sprintf("%s tasks: µs per fault", k)
		set logscale x 2
		set xlabel shares ? "" : "tasks"
		if (logy) {
			set logscale y 10
			set ylabel "µs per fault (log)"
			set yrange [*:*]
		} else {
			set ylabel "µs per fault"
			set yrange [0:*]
			set ytics tic_step(value("top_".k))
		}
		set offsets graph 0.05, graph 0.05, 0, 0
		have_k = value("have_".k)
		plot for [s in have_k] sprintf('$%s_%s', s, k) using 1:2:3:4 with yerrorlines \
			lc rgb colour(s) dt dash(s) pt point(s) ps 1.4*PS lw 2
		unset logscale y
		set ytics autofreq
	}
	if (shares) {
		do for [i = 1:cols] {
			k = word(kinds, i)
			eval panel(cols + i - 1, rows, cols, krows)
			set title sprintf("%s tasks: get timed in place, %% of the fault", k)
			set xlabel "tasks"
			set ylabel "% of the fault"
			set yrange [0:*]
			set ytics tic_step(value("top_share_".k))
			have_k = value("have_".k)
			plot for [s in have_k] sprintf('$share_%s_%s', s, k) using 1:2 with linespoints \
				lc rgb colour(s) dt dash(s) pt point(s) ps 1.4*PS lw 2
		}
		set ytics autofreq
	}
	eval key_panel(krows)
	eval "plot ".strategy_keys(1.4, 2)
	eval base_style
	unset multiplot
	unset output
}
