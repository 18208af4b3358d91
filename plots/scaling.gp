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
# one key for both panels; a log y axis where the rates span more than 30x
# (many tasks: the strategies that scale would leave global's line flat on 0)
have = union(have_thread, have_process)
pred = union(pred_thread, pred_process)
span = 1
do for [k in kinds] {
	eval spread("r", '$%s_'.k, value("have_".k), 2)
	span = r > span ? r : span
}
logy = span > 30
unit = logy ? 1e6 : 1	# log: faults/s, labelled 1M, 10M, ...; else millions
has_ideal = strstrt(have, "persistent") > 0
krows = key_rows(words(have) + (pred ne "") + has_ideal, 13)
cols = words(kinds)

do for [fmt in formats] {
	eval term(fmt)
	eval output(fmt)
	set multiplot title chart_title("Huge zero read faults per second (emulated faults; dotted: persistent's 1 task × tasks)")
	do for [i = 1:cols] {
		k = word(kinds, i)
		eval panel(i - 1, 1, cols, krows)
		set title sprintf("%s tasks", k)
		set logscale x 2
		set xlabel "tasks"
		if (logy) {
			set logscale y 10
			set format y "%.0s%c"
			set ylabel "faults / s (log)"
			set yrange [*:*]
		} else {
			set ylabel "million faults / s"
			set yrange [0:*]
		}
		set xrange [*:*]
		have_k = value("have_".k)
		# the predicted lines, spliced into the plot command: a plot-for over
		# no strategies would still draw one
		model_lines = ""
		do for [s in value("pred_".k)] {
			model_lines = model_lines.sprintf(", $model_%s_%s using 1:($2 * unit) with lines lc rgb '%s' dt (14, 10) lw 1.5", s, k, colour(s))
		}
		base = 0
		if (strstrt(have_k, "persistent")) {
			eval sprintf('one = $persistent_%s[1]', k)
			base = (word(one, 2) + 0) / (word(one, 1) + 0) * unit
		}
		eval "plot for [s in have_k] sprintf('$%s_%s', s, k) using 1:($2 * unit) with linespoints " . \
			"lc rgb colour(s) dt dash(s) pt point(s) ps 1.6*PS lw 2.5" . model_lines . \
			", (base > 0 ? base * x : NaN) with lines lc rgb '#888888' dt 3 lw 1.5"
		unset logscale y
		set format y "% h"
	}
	eval key_panel(krows)
	eval "plot ".strategy_keys(1.6, 2.5) . \
		(pred ne "" ? ", ".model_key : "") . \
		(has_ideal ? ", NaN with lines lc rgb '#888888' dt 3 lw 1.5 title 'ideal scaling'" : "")
	eval base_style
	unset multiplot
	unset output
}
