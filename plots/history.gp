# history: ns per fault run after run, from a CI history (hzfbench history,
# run.sh --ci), one line per strategy at the most tasks, a panel per task
# kind, each over its first run's (strategies thousands of times apart on one
# axis would hide a change of 10%); the band is the first run's median ± its
# stddev: the noise a change must rise above. Each panel's subtitle gives
# the first run's ns; about six runs are labelled, with revision and day. Reads DIR/history.csv, or the history.csv beside DIR:
# time, git_revision, strategy, fault, task_kind, tasks, placement,
# ns_per_fault_median, ns_per_fault_stddev (emulated faults, compact).
NAME = "history"; ARGS_GIVEN = ARGC; RESULTS = ARG1; FORMAT = ARG2
load system("dirname ".ARG0)."/style.gp"

hist = dir."/history.csv"
if (system(sprintf("test -r '%s' && echo yes", hist)) ne "yes") { hist = dir."/../history.csv" }
if (system(sprintf("test -r '%s' && echo yes", hist)) ne "yes") { eval skip("no history.csv in or beside the folder") }
runs = int(system(sprintf("awk '%s NR > 1 && $1 != last { n++; last = $1 } END { print n + 0 }' '%s'", csv_awk, hist)))
if (runs < 2) { eval skip(sprintf("%d run in the history: nothing to follow yet", runs)) }
most = int(system(sprintf("awk '%s NR > 1 && $6 == \"emulated\" && $8 > m { m = $8 } END { print m + 0 }' '%s'", csv_awk, hist)))
# x: the run's number, every few labelled with its revision and day
every = int(ceil(runs / 6.0))
xlabels = system(sprintf("awk -v every=%d '%s NR > 1 && $1 != last { n++; last = $1; d = substr($1, 6, 5); if ((n - 1) %% every == 0) printf \"set xtics add (\\\"%%s\\\\n%%s\\\" %%d); \", substr($2, 1, 7), d, n }' '%s'", every, csv_awk, hist))

kinds = ""
do for [k in "thread process"] {
	do for [s in strategies] {
		last = ""
		run = 0
		eval sprintf('set print $%s_%s; unset print', s, k)
		eval sprintf('set table $%s_%s append', s, k)
		plot hist using (t = strcol("time"), t ne last ? (run = run + 1, last = t) : 0, run):(column("ns_per_fault_median")):(column("ns_per_fault_stddev")) \
			with table if (strcol("strategy") eq s && strcol("task_kind") eq k && strcol("fault") eq "emulated" && strcol("placement") eq "compact" && column("tasks") == most)
		unset table
	}
	eval keep_present("have", '$%s_'.k)
	eval sprintf('have_%s = "%s"', k, have)
	if (have ne "") { kinds = kinds." ".k }
}
if (kinds eq "") { eval skip("no emulated compact rows in the history") }
eval block_mode
have = union(have_thread, have_process)
do for [k in kinds] {
	first = ""
	do for [s in value("have_".k)] {
		eval sprintf('row = $%s_%s[1]', s, k)
		v = word(row, 2) + 0
		first = first.sprintf("%s%s %s", first eq "" ? "" : ", ", s, sprintf(v < 100 ? "%.3g" : "%.0f", v))
	}
	eval sprintf('first_%s = "first run, ns: %s"', k, first)
}
krows = key_rows(words(have), 10)
cols = words(kinds)

do for [fmt in formats] {
	eval term(fmt)
	eval output(fmt)
	set multiplot title chart_title(sprintf("ns per fault run after run over the first run's, %d tasks (band: first run ± stddev)", most))
	do for [i = 1:cols] {
		k = word(kinds, i)
		eval panel(i - 1, 1, cols, krows)
		set title sprintf("%s tasks\n{/*0.7 %s}", k, value("first_".k))
		set ylabel "× first run"
		set xrange [0.5:runs + 0.5]
		eval sprintf("set xtics () font '%s'", font_of(14))
		eval xlabels
		have_k = value("have_".k)
		plot for [s in have_k] sprintf('$%s_%s', s, k) using 1:(b = (column(0) == 0 ? $2 : b), sd = (column(0) == 0 ? $3 : sd), 1 - sd / b):(1 + sd / b) \
			with filledcurves lc rgb colour(s) fs transparent solid 0.15 noborder, \
			for [s in have_k] sprintf('$%s_%s', s, k) using 1:(b = (column(0) == 0 ? $2 : b), $2 / b) with linespoints lc rgb colour(s) \
			dt dash(s) pt point(s) ps 1.4*PS lw 2
	}
	set xtics autofreq font ""
	eval key_panel(krows)
	eval "plot ".strategy_keys(1.4, 2)
	eval base_style
	unset multiplot
	unset output
}
