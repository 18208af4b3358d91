# counters: the per-fault hardware counters by strategy at the most tasks run,
# one panel per counter that was counted (a bar for each strategy run, at
# its place in strategies), each bar labelled with its value. Where the machine could count none
# (meta.json unsupported_events), the chart says so instead of an empty frame.
# Reads summary.csv: strategy, fault, task_kind, tasks, placement and the
# *_per_fault perf columns (emulated faults, thread tasks, compact).
NAME = "counters"; ARGS_GIVEN = ARGC; RESULTS = ARG1; FORMAT = ARG2
load system("dirname ".ARG0)."/style.gp"

wanted = "cycles_per_fault instructions_per_fault cache_misses_per_fault l1d_load_misses_per_fault llc_load_misses_per_fault branch_misses_per_fault"
if (!has_column("cycles_per_fault")) { eval skip("no perf columns in summary.csv (a run before counters)") }
cond(s) = sprintf('strcol("strategy") eq "%s" && strcol("task_kind") eq "thread" && strcol("fault") eq "emulated" && strcol("placement") eq "compact"', s)
array M[1]
M[1] = 0
eval select('$t', sprintf('((%s) && column("tasks") > M[1] ? M[1] = column("tasks") : 0, 1):(1)', cond("global")), cond("global"))
most = M[1]
bars = strategies
counted = ""
do for [c in wanted] {
	eval select('$'.c, sprintf('(st = strcol("strategy"), sum [j = 1:words(bars)] (word(bars, j) eq st ? j : 0)):(strcol("%s") ne "" ? column("%s") : 0)', c, c), \
		sprintf('column("tasks") == %d && strcol("task_kind") eq "thread" && strcol("fault") eq "emulated" && strcol("placement") eq "compact" && strcol("%s") ne "" && strstrt(" ".bars." ", " ".strcol("strategy")." ")', most, c))
	eval count("n", '$'.c)
	if (n > 0) { counted = counted." ".c }
}
eval block_mode
unsupported = system(sprintf("grep -o '\"event\": \"[^\"]*' '%s/meta.json' | cut -d'\"' -f4 | tr '\\n' ' '", dir))
# a panel per counter, in two rows past three, one key for them all; each
# bar labelled with its value (a count near 0 beside thousands has no bar)
nc = words(counted)
rows = nc > 3 ? 2 : 1
cols = int(ceil(nc * 1.0 / rows))
have = ""
nbars = 1	# the rightmost bar drawn
do for [c in counted] {
	stats '$'.c using 2 nooutput
	eval sprintf("top_%s = STATS_max", c)
	eval sprintf('n_ = |$%s|', c)
	do for [r = 1:n_] {
		eval sprintf('j = int(word($%s[%d], 1))', c, r)
		have = union(have, word(bars, j))
		nbars = j > nbars ? j : nbars
	}
}
short(c) = c eq "cache_misses_per_fault" ? "cache misses" : c eq "l1d_load_misses_per_fault" ? "L1d load misses" : \
	c eq "llc_load_misses_per_fault" ? "LLC load misses" : c eq "branch_misses_per_fault" ? "branch misses" : \
	c[1:strstrt(c, "_per_fault") - 1]
value_label(v) = v >= 1000 ? sprintf("%.0f", v) : gprintf("%.3g", v)

do for [fmt in formats] {
	eval term(fmt)
	eval output(fmt)
	if (counted eq "") {
		unset border; unset tics; unset grid; unset key
		set label 1 "hardware counters: not counted on this machine" at screen 0.5, 0.55 center font font_of(28)
		set label 2 (unsupported ne "" ? "unsupported here: ".unsupported : "no per-fault hardware counter in summary.csv") \
			at screen 0.5, 0.42 center font font_of(16)
		set title chart_title("Per-fault counters")
		plot [0:1][0:1] NaN notitle
		unset label 1; unset label 2
	} else {
		set multiplot title chart_title(sprintf("Per fault, %d thread tasks (emulated)", most))
		do for [i = 1:nc] {
			c = word(counted, i)
			eval panel(i - 1, rows, cols, 1)
			set title sprintf("%s per fault", short(c)) noenhanced
			set xrange [0.4:nbars + 0.6]
			set yrange [0:*]
			set offsets 0, 0, graph 0.15, 0
			set ytics tic_step(value("top_".c))
			unset xtics
			set boxwidth 0.7
			plot for [j = 1:nbars] sprintf('$%s', c) using ($1 == j ? $1 : NaN):2 with boxes \
				lc rgb colour(word(bars, j)), \
				sprintf('$%s', c) using 1:2:(value_label($2)) with labels offset 0, 0.7 font font_of(16)
		}
		set ytics autofreq
		unset offsets
		eval key_panel(1)
		plot for [s in have] NaN with boxes lc rgb colour(s) title s
		eval base_style
		set xtics autofreq
		unset multiplot
	}
	unset output
}
