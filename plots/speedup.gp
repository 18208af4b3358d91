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
	# every other strategy over it
	do for [s in strategies] {
		if (s ne "global") {
			eval select(sprintf('$%s_%s', s, k), \
				'(column("tasks")):(column("faults_per_sec_median") / G[int(column("tasks"))])', cond(s))
		}
	}
	eval count("ng", '$g_'.k)
	have = ""
	do for [s in strategies] {
		if (ng > 0 && s ne "global") {
			eval count("n_", sprintf('$%s_%s', s, k))
			if (n_ > 0) { have = have." ".s }
		}
	}
	eval sprintf('have_%s = "%s"', k, have)
	if (have ne "") { kinds = kinds." ".k }
}
if (kinds eq "") { eval skip("no global and other strategy at the same task counts (emulated, compact)") }
eval block_mode
# one key for both panels; log y where the gains span more than 30x; each
# panel's subtitle gives the gains at its most tasks (labels at every point
# would sit on each other)
have = union(have_thread, have_process)
span = 1
least = 1.0	# the lowest gain, or 1: global's line
do for [k in kinds] {
	eval spread("r", '$%s_'.k, value("have_".k), 2)
	span = r > span ? r : span
	least = lo_ < least ? lo_ : least
}
logy = span > 30
gain(v) = sprintf(v < 10 ? "%.2f×" : v < 100 ? "%.1f×" : "%.0f×", v)
do for [k in kinds] {
	gains = ""
	most = 0
	do for [s in value("have_".k)] {
		eval sprintf('n_ = |$%s_%s|', s, k)
		do for [j = 1:n_] {
			eval sprintf('row = $%s_%s[%d]', s, k, j)
			most = word(row, 1) + 0 > most ? word(row, 1) + 0 : most
		}
	}
	do for [s in value("have_".k)] {
		eval sprintf('n_ = |$%s_%s|', s, k)
		do for [j = 1:n_] {
			eval sprintf('row = $%s_%s[%d]', s, k, j)
			if (word(row, 1) + 0 == most) { gains = gains.sprintf("%s%s %s", gains eq "" ? "" : ", ", s, gain(word(row, 2) + 0)) }
		}
	}
	eval sprintf('gains_%s = "at %d: %s"', k, most, gains)
}
krows = key_rows(words(have) + 1, 12)
cols = words(kinds)

do for [fmt in formats] {
	eval term(fmt)
	eval output(fmt)
	set multiplot title chart_title("Faults per second over global's at the same task count (emulated)")
	do for [i = 1:cols] {
		k = word(kinds, i)
		eval panel(i - 1, 1, cols, krows)
		set title sprintf("%s tasks\n{/*0.75 %s}", k, value("gains_".k))
		set logscale x 2
		set xlabel "tasks"
		set offsets graph 0.05, graph 0.05, graph 0.1, 0
		if (logy) {
			set logscale y 10
			set ylabel "× global (log)"
			set yrange [least / 2:*]	# global's line clear of the axis
			set offsets graph 0.05, graph 0.05, 0, 0
		} else {
			set ylabel "× global"
			set yrange [0:*]
		}
		have_k = value("have_".k)
		plot for [s in have_k] sprintf('$%s_%s', s, k) using 1:2 with linespoints \
			lc rgb colour(s) dt dash(s) pt point(s) ps 1.6*PS lw 2.5, \
			1 with lines lc rgb colour("global") dt 1 lw 1.5
		unset logscale y
	}
	eval key_panel(krows)
	eval "plot ".strategy_keys(1.6, 2.5).", NaN with lines lc rgb colour('global') dt 1 lw 1.5 title 'global (1×)'"
	eval base_style
	unset multiplot
	unset output
}
