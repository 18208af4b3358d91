# cost: ns per fault against tasks, median with the fastest and slowest
# repetition as error bars, one line per strategy, a panel per task kind.
# Reads summary.csv: strategy, fault, task_kind, tasks, placement,
# ns_per_fault_median, ns_per_fault_min, ns_per_fault_max (emulated, compact).
NAME = "cost"; ARGS_GIVEN = ARGC; RESULTS = ARG1; FORMAT = ARG2
load system("dirname ".ARG0)."/style.gp"

kinds = ""
do for [k in "thread process"] {
	do for [s in strategies] {
		eval select(sprintf('$%s_%s', s, k), \
			'(column("tasks")):(column("ns_per_fault_median")):(column("ns_per_fault_min")):(column("ns_per_fault_max"))', \
			sprintf('strcol("strategy") eq "%s" && strcol("task_kind") eq "%s" && strcol("fault") eq "emulated" && strcol("placement") eq "compact"', s, k))
	}
	eval keep_present("have", '$%s_'.k)
	eval sprintf('have_%s = "%s"', k, have)
	if (has_model) {
		do for [s in strategies] {
			eval select_in(model, sprintf('$model_%s_%s', s, k), \
				'(column("tasks")):(column("ns_per_fault_median"))', \
				sprintf('strcol("strategy") eq "%s" && strcol("task_kind") eq "%s" && strcol("fault") eq "emulated" && strcol("placement") eq "compact"', s, k).in_domain)
		}
		eval keep_present("pred", '$model_%s_'.k)
	} else {
		pred = ""
	}
	eval sprintf('pred_%s = "%s"', k, pred)
	if (have ne "") { kinds = kinds." ".k }
}
if (kinds eq "") { eval skip("no emulated-fault rows at compact placement") }
eval block_mode
have = union(have_thread, have_process)
pred = union(pred_thread, pred_process)
krows = key_rows(words(have) + (pred ne ""), 10)
cols = words(kinds)

do for [fmt in formats] {
	eval term(fmt)
	eval output(fmt)
	set multiplot title chart_title("ns per huge zero read fault (emulated; bars: fastest and slowest repetition)")
	do for [i = 1:cols] {
		k = word(kinds, i)
		eval panel(i - 1, 1, cols, krows)
		set title sprintf("%s tasks", k)
		set logscale x 2
		set logscale y 10
		set xlabel "tasks"
		set ylabel "ns per fault (log)"
		set offsets graph 0.03, graph 0.03, 0, 0
		have_k = value("have_".k)
		# the predicted lines, spliced into the plot command: a plot-for over
		# no strategies would still draw one
		model_lines = ""
		do for [s in value("pred_".k)] {
			model_lines = model_lines.sprintf(", $model_%s_%s using 1:2 with lines lc rgb '%s' dt (14, 10) lw 1.5", s, k, colour(s))
		}
		eval "plot for [s in have_k] sprintf('$%s_%s', s, k) using 1:2:3:4 with yerrorlines " . \
			"lc rgb colour(s) dt dash(s) pt point(s) ps 1.6*PS lw 2.5" . model_lines
	}
	eval key_panel(krows)
	eval "plot ".strategy_keys(1.6, 2.5) . \
		(pred ne "" ? ", ".model_key : "")
	eval base_style
	unset multiplot
	unset output
}
