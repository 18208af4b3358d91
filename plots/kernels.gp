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

do for [fmt in formats] {
	eval term(fmt)
	eval output(fmt)
	set multiplot layout 2, words(kinds) title chart_title("Three kernels side by side: huge zero read faults in guests of the same topology")
	do for [k in kinds] {
		set title sprintf("%s tasks: µs per fault", k)
		set logscale x 2
		set xlabel ""
		set ylabel "µs per fault"
		set yrange [0:*]
		set offsets graph 0.05, graph 0.05, graph 0.45, 0	# room for the key above the lines
		set key top left
		have = value("have_".k)
		plot for [s in have] sprintf('$%s_%s', s, k) using 1:2:3:4 with yerrorlines \
			lc rgb colour(s) dt dash(s) pt point(s) ps 1.4 lw 2 title s
	}
	do for [k in kinds] {
		set title sprintf("%s tasks: µs of teardown (munmap) per fault", k)
		set xlabel "tasks"
		set ylabel "µs per fault"
		set key top left
		have = value("have_".k)
		plot for [s in have] sprintf('$%s_%s', s, k) using 1:5 with linespoints \
			lc rgb colour(s) dt dash(s) pt point(s) ps 1.4 lw 2 title s
	}
	unset multiplot
	unset output
}
