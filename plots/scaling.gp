# scaling: faults per second against tasks, one line per strategy, a panel per
# task kind; the dotted line is ideal linear scaling from persistent's 1 task.
# Reads summary.csv: strategy, fault, task_kind, tasks, placement,
# faults_per_sec_median (emulated faults, compact placement).
NAME = "scaling"; ARGS_GIVEN = ARGC; RESULTS = ARG1; FORMAT = ARG2
load system("dirname ".ARG0)."/style.gp"

kinds = ""
do for [k in "thread process"] {
	do for [s in strategies] {
		eval select(sprintf('$%s_%s', s, k), '(column("tasks")):(column("faults_per_sec_median")/1e6)', \
			sprintf('strcol("strategy") eq "%s" && strcol("task_kind") eq "%s" && strcol("fault") eq "emulated" && strcol("placement") eq "compact"', s, k))
	}
	eval keep_present("have", '$%s_'.k)
	eval sprintf('have_%s = "%s"', k, have)
	if (has_model) {
		do for [s in strategies] {
			eval select_in(model, sprintf('$model_%s_%s', s, k), \
				'(column("tasks")):(column("faults_per_sec_median")/1e6)', \
				sprintf('strcol("strategy") eq "%s" && strcol("task_kind") eq "%s" && strcol("fault") eq "emulated" && strcol("placement") eq "compact"', s, k))
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

do for [fmt in formats] {
	eval term(fmt)
	eval output(fmt)
	set multiplot layout 1, words(kinds) title chart_title("Huge zero read faults per second (emulated faults)")
	do for [k in kinds] {
		set title sprintf("%s tasks", k)
		set logscale x 2
		set xlabel "tasks"
		set ylabel "million faults / s"
		set yrange [0:*]
		set xrange [*:*]
		have = value("have_".k)
		# the predicted lines, spliced into the plot command: a plot-for over
		# no strategies would still draw one
		model_lines = ""
		do for [s in value("pred_".k)] {
			model_lines = model_lines.sprintf(", $model_%s_%s using 1:2 with lines lc rgb '%s' dt (14, 10) lw 1.5 title '%s (model)'", s, k, colour(s), s)
		}
		base = 0
		if (strstrt(have, "persistent")) {
			eval sprintf('one = $persistent_%s[1]', k)
			base = (word(one, 2) + 0) / (word(one, 1) + 0)
		}
		eval "plot for [s in have] sprintf('$%s_%s', s, k) using 1:2 with linespoints " . \
			"lc rgb colour(s) dt dash(s) pt point(s) ps 1.6 lw 2.5 title s" . model_lines . \
			", (base > 0 ? base * x : NaN) with lines lc rgb '#888888' dt 3 lw 1.5 " . \
			"title (base > 0 ? 'ideal: persistent × tasks' : '')"
	}
	unset multiplot
	unset output
}
