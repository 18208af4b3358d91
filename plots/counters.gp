# counters: the per-fault hardware counters by strategy at the most tasks run,
# one panel per counter that was counted. Where the machine could count none
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
counted = ""
do for [c in wanted] {
	eval select('$'.c, sprintf('(i = strstrt("global mmflag persistent", strcol("strategy")), i < 8 ? 1 : i < 15 ? 2 : 3):(strcol("%s") ne "" ? column("%s") : 0)', c, c), \
		sprintf('column("tasks") == %d && strcol("task_kind") eq "thread" && strcol("fault") eq "emulated" && strcol("placement") eq "compact" && strcol("%s") ne "" && strcol("strategy") ne "native"', most, c))
	eval count("n", '$'.c)
	if (n > 0) { counted = counted." ".c }
}
eval block_mode
unsupported = system(sprintf("grep -o '\"event\": \"[^\"]*' '%s/meta.json' | cut -d'\"' -f4 | tr '\\n' ' '", dir))

do for [fmt in formats] {
	eval term(fmt)
	eval output(fmt)
	if (counted eq "") {
		unset border; unset tics; unset grid; unset key
		set label 1 "hardware counters: not counted on this machine" at screen 0.5, 0.55 center font ",28"
		set label 2 (unsupported ne "" ? "unsupported here: ".unsupported : "no per-fault hardware counter in summary.csv") \
			at screen 0.5, 0.42 center font ",16"
		set title chart_title("Per-fault counters")
		plot [0:1][0:1] NaN notitle
		unset label 1; unset label 2
	} else {
		set multiplot layout 1, words(counted) title chart_title(sprintf("Per fault, %d thread tasks (emulated)", most))
		do for [c in counted] {
			set title sprintf("%s per fault", c[1:strstrt(c, "_per_fault") - 1]) noenhanced
			unset key
			set xrange [0.4:3.6]
			set yrange [0:*]
			set xtics ("global" 1, "mmflag" 2, "persistent" 3) rotate by -30 font ",16"
			set boxwidth 0.6
			plot for [i = 1:3] sprintf('$%s', c) using ($1 == i ? $1 : NaN):2 with boxes \
				lc rgb colour(word("global mmflag persistent", i)) notitle
		}
		unset multiplot
	}
	unset output
}
