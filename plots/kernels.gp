# kernels: the three guest kernels make kernels builds, side by side (a
# folder of run.sh --kernels): real huge zero read faults taken by the
# kernel alone, in qemu guests of the same topology, where summary.csv's
# strategy names the kernel (mmflag: stock; persistent: CONFIG_PERSISTENT_
# HUGE_ZERO_FOLIO; global: kernel/global.patch). µs per fault and µs of
# teardown per fault against tasks (bars: fastest and slowest repetition).
# Reads summary.csv: strategy, fault, task_kind, tasks, placement,
# ns_per_fault_median/_min/_max, teardown_ns_per_fault_median.
NAME = "kernels"; ARGS_GIVEN = ARGC; RESULTS = ARG1; FORMAT = ARG2
load system("dirname ".ARG0)."/style.gp"

if (!kernels_folder) { eval skip("not a folder of run.sh --kernels") }
kernel_names = "global mmflag persistent"
strategies = kernel_names	# what keep_present looks through
kinds = ""
do for [k in "thread process"] {
	do for [s in kernel_names] {
		c = sprintf('strcol("strategy") eq "%s" && strcol("task_kind") eq "%s" && strcol("fault") eq "kernel" && strcol("placement") eq "compact"', s, k)
		eval select(sprintf('$%s_%s', s, k), '(column("tasks")):(column("ns_per_fault_median")/1000):(column("ns_per_fault_min")/1000):(column("ns_per_fault_max")/1000):(column("teardown_ns_per_fault_median")/1000)', c)
	}
	eval keep_present("have", '$%s_'.k)
	eval sprintf('have_%s = "%s"', k, have)
	if (have ne "") { kinds = kinds." ".k }
}
if (kinds eq "") { eval skip("no real-fault rows of the three kernels") }
eval block_mode
# one key for every panel; short panels get about five tics
have = ""
do for [k in kinds] { have = have." ".value("have_".k) }
have = union(have, "")
do for [k in kinds] {
	eval spread("r", '$%s_'.k, value("have_".k), 4)
	eval sprintf("top_%s = hi_", k)
	eval spread("r", '$%s_'.k, value("have_".k), 5)
	eval sprintf("top_teardown_%s = hi_", k)
}
krows = key_rows(words(have), 10)
cols = words(kinds)

do for [fmt in formats] {
	eval term(fmt)
	eval output(fmt)
	set multiplot title chart_title("Three kernels side by side: huge zero read faults in guests of the same topology")
	do for [i = 1:cols] {
		k = word(kinds, i)
		eval panel(i - 1, 2, cols, krows)
		set title sprintf("%s tasks: µs per fault", k)
		set logscale x 2
		set xlabel ""
		set ylabel "µs per fault"
		set yrange [0:*]
		set ytics tic_step(value("top_".k))
		set offsets graph 0.05, graph 0.05, 0, 0
		have_k = value("have_".k)
		plot for [s in have_k] sprintf('$%s_%s', s, k) using 1:2:3:4 with yerrorlines \
			lc rgb colour(s) dt dash(s) pt point(s) ps 1.4*PS lw 2
	}
	do for [i = 1:cols] {
		k = word(kinds, i)
		eval panel(cols + i - 1, 2, cols, krows)
		set title sprintf("%s tasks: µs of teardown (munmap) per fault", k)
		set xlabel "tasks"
		set ylabel "µs per fault"
		set ytics tic_step(value("top_teardown_".k))
		have_k = value("have_".k)
		plot for [s in have_k] sprintf('$%s_%s', s, k) using 1:5 with linespoints \
			lc rgb colour(s) dt dash(s) pt point(s) ps 1.4*PS lw 2
	}
	set ytics autofreq
	eval key_panel(krows)
	eval "plot ".strategy_keys(1.4, 2)
	eval base_style
	unset multiplot
	unset output
}
