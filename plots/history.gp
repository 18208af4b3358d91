# history: ns per fault run after run, from a CI history (hzfbench history,
# run.sh --ci), one line per strategy at the most tasks, a panel per task
# kind; the band is the first run's median ± its stddev: the noise a change
# must rise above. Reads DIR/history.csv, or the history.csv beside DIR:
# time, git_revision, strategy, fault, task_kind, tasks, placement,
# ns_per_fault_median, ns_per_fault_stddev (emulated faults, compact).
NAME = "history"; ARGS_GIVEN = ARGC; RESULTS = ARG1; FORMAT = ARG2
load system("dirname ".ARG0)."/style.gp"

hist = dir."/history.csv"
if (system(sprintf("test -r '%s' && echo yes", hist)) ne "yes") { hist = dir."/../history.csv" }
if (system(sprintf("test -r '%s' && echo yes", hist)) ne "yes") { eval skip("no history.csv in or beside the folder") }
runs = int(system(sprintf("awk -F, 'NR > 1 && $1 != last { n++; last = $1 } END { print n + 0 }' '%s'", hist)))
if (runs < 2) { eval skip(sprintf("%d run in the history: nothing to follow yet", runs)) }
most = int(system(sprintf("awk -F, 'NR > 1 && $6 == \"emulated\" && $8 > m { m = $8 } END { print m + 0 }' '%s'", hist)))
# x: the run's number, labelled with its revision and date
xlabels = system(sprintf("awk -F, 'NR > 1 && $1 != last { n++; last = $1; printf \"set xtics add (\\\"%%s\\\\n%%s\\\" %%d); \", substr($2, 1, 7), substr($1, 6, 11), n }' '%s'", hist))

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

do for [fmt in formats] {
	eval term(fmt)
	eval output(fmt)
	set multiplot layout 1, words(kinds) title chart_title(sprintf("ns per fault, run after run, %d tasks (band: first run ± stddev)", most))
	do for [k in kinds] {
		set title sprintf("%s tasks", k)
		set logscale y 10
		set ylabel "ns per fault (log)"
		set xrange [0.5:runs + 0.5]
		set xtics () font ",13"
		eval xlabels
		set key top left
		have = value("have_".k)
		plot for [s in have] sprintf('$%s_%s', s, k) using 1:(b = (column(0) == 0 ? $2 : b), sd = (column(0) == 0 ? $3 : sd), b - sd):(b + sd) \
			with filledcurves lc rgb colour(s) fs transparent solid 0.15 noborder notitle, \
			for [s in have] sprintf('$%s_%s', s, k) using 1:2 with linespoints lc rgb colour(s) \
			dt dash(s) pt point(s) ps 1.4 lw 2 title s
	}
	unset multiplot
	unset output
}
