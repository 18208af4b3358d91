# breakdown: where a fault's life goes at the most tasks run, per strategy: the
# strategy's get, its put and teardown, and the rest. From --profile's
# get_share/put_share when the run has them; else from the difference to
# persistent (which counts nothing): get = fault ns over persistent's, put =
# teardown ns over persistent's, each as a share of the strategy's fault and
# teardown ns. Reads summary.csv: strategy, fault, task_kind, tasks,
# placement, ns_per_fault_median, teardown_ns_per_fault_median, and
# get_share, put_share where present (emulated faults, compact placement).
NAME = "breakdown"; ARGS_GIVEN = ARGC; RESULTS = ARG1; FORMAT = ARG2
load system("dirname ".ARG0)."/style.gp"

profiled = has_column("get_share")
cond(s, k) = sprintf('strcol("strategy") eq "%s" && strcol("task_kind") eq "%s" && strcol("fault") eq "emulated" && strcol("placement") eq "compact"', s, k)
array P[3]	# persistent at the most tasks: tasks, fault ns, teardown ns
kinds = ""
do for [k in "thread process"] {
	# the most tasks this kind was run with, and persistent's figures there
	P[1] = 0
	eval select('$all', sprintf('((%s) && column("tasks") > P[1] ? (P[1] = column("tasks"), P[2] = column("ns_per_fault_median"), P[3] = column("teardown_ns_per_fault_median")) : 0, column("tasks")):(1)', cond("persistent", k)), cond("persistent", k))
	eval count("np", '$all')
	if (np > 0) {
		most = P[1]
		eval sprintf('most_%s = %d; pf_%s = %g; pt_%s = %g', k, most, k, P[2], k, P[3])
		src = "diff"
		if (profiled) {
			eval select('$prof', '(column("tasks")):(1)', sprintf('%s && column("tasks") == %d && strcol("get_share") ne ""', cond("global", k), most))
			eval count("npr", '$prof')
			if (npr > 0) { src = "profile" }
		}
		eval sprintf('src_%s = "%s"', k, src)
		do for [i = 1:3] {
			s = word("global mmflag persistent", i)
			if (src eq "profile") {
				eval select(sprintf('$%s_%s', s, k), sprintf('(%d):(column("get_share")):(column("put_share"))', i), \
					sprintf('%s && column("tasks") == %d', cond(s, k), most))
			} else {
				eval select(sprintf('$%s_%s', s, k), sprintf('(%d):(g = column("ns_per_fault_median") - %g, g > 0 ? g : 0) / (column("ns_per_fault_median") + column("teardown_ns_per_fault_median")):((p = column("teardown_ns_per_fault_median") - %g, p > 0 ? p : 0) / (column("ns_per_fault_median") + column("teardown_ns_per_fault_median")))', i, P[2], P[3]), \
					sprintf('%s && column("tasks") == %d', cond(s, k), most))
			}
		}
		kinds = kinds." ".k
	}
}
if (kinds eq "") { eval skip("no persistent rows to hold the others against (emulated, compact)") }
eval block_mode

cols = words(kinds)

do for [fmt in formats] {
	eval term(fmt)
	eval output(fmt)
	set multiplot title chart_title("Where a fault's life goes, at the most tasks run (emulated)")
	do for [i = 1:cols] {
		k = word(kinds, i)
		eval panel(i - 1, 1, cols, 1)
		set title sprintf("%d %s tasks (%s)", value("most_".k), k, \
			value("src_".k) eq "profile" ? "cpu-clock samples" : "ns over persistent's")
		set xrange [0.4:3.6]
		set yrange [0:112]	# room above a full bar for its label
		set ytics 0, 20, 100
		set ylabel "% of fault + teardown"
		set xtics ("global" 1, "mmflag" 2, "persistent" 3)
		set boxwidth 0.6
		plot for [s in "global mmflag persistent"] sprintf('$%s_%s', s, k) using 1:(100) with boxes lc rgb "#cccccc", \
			for [s in "global mmflag persistent"] sprintf('$%s_%s', s, k) using 1:(100 * ($2 + $3)) with boxes lc rgb "#56B4E9", \
			for [s in "global mmflag persistent"] sprintf('$%s_%s', s, k) using 1:(100 * $2) with boxes lc rgb colour("global"), \
			for [s in "global mmflag persistent"] sprintf('$%s_%s', s, k) using 1:(100 * ($2 + $3)):(sprintf("%.1f%%", 100 * ($2 + $3))) with labels offset 0, 0.8
	}
	set ytics autofreq
	set xtics autofreq
	eval key_panel(1)
	plot NaN with boxes lc rgb colour("global") title "get", \
		NaN with boxes lc rgb "#56B4E9" title "put / teardown", \
		NaN with boxes lc rgb "#cccccc" title "rest of the fault"
	eval base_style
	unset multiplot
	unset output
}
