# placement: ns per fault of each strategy under each placement run (compact,
# scatter, node:N, ...) at the most tasks run. Reads summary.csv: strategy,
# fault, task_kind, tasks, placement, ns_per_fault_median (emulated, threads).
NAME = "placement"; ARGS_GIVEN = ARGC; RESULTS = ARG1; FORMAT = ARG2
load system("dirname ".ARG0)."/style.gp"

# One pass, quoted placements (cpus:0,2,4) read whole: every placement run,
# in the order summary.csv first has it; the most emulated thread tasks; and
# each strategy's ns per fault there, one line a row, "strategy slot ns",
# into a file beside the charts (gnuplot's strcol() keeps a quoted field's
# text only up to its first comma: no placement is matched in gnuplot)
rows = outdir."/.placement.dat"
eval system(sprintf("awk -v rows='%s' '%s", rows, csv_awk) . \
	'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } ' . \
	'!($c["placement"] in slot) { slot[$c["placement"]] = ++np; list = list $c["placement"] " " } ' . \
	'$c["fault"] != "emulated" || $c["task_kind"] != "thread" { next } ' . \
	'{ n++; s[n] = $c["strategy"]; t[n] = $c["tasks"] + 0; at[n] = slot[$c["placement"]]; ' . \
	'  ns[n] = $c["ns_per_fault_median"]; if (t[n] > most) most = t[n] } ' . \
	'END { printf "" > rows; for (i = 1; i <= n; i++) if (t[i] == most) ' . \
	'  print s[i], at[i], (ns[i] == "" ? "NaN" : ns[i]) > rows; close(rows); ' . \
	'  printf "placements = \"%s\"; most = %d\n", list, most }' . \
	sprintf("' '%s'", summary))
if (words(placements) < 2) { system(sprintf("rm -f '%s'", rows)); eval skip(sprintf("one placement only (%s)", word(placements, 1))) }
np = words(placements)
eval block_mode
do for [s in strategies] {
	eval select_in(rows, '$'.s, '2:3', sprintf('strcol(1) eq "%s"', s))
}
system(sprintf("rm -f '%s'", rows))
eval keep_present("have", '$%s')
if (have eq "") { eval skip(sprintf("no emulated thread rows at %d tasks", most)) }

nh = words(have)
bar = 0.8 / nh	# the strategies' bars side by side fill 0.8 of a placement's slot

do for [fmt in formats] {
	eval term(fmt)
	eval output(fmt)
	set title chart_title(sprintf("ns per fault by placement, %d thread tasks (emulated)", most))
	set xrange [0.4:np + 0.6]
	set logscale y 10
	set ylabel "ns per fault (log)"
	set xtics () rotate by (np > 6 ? -30 : 0)
	do for [j = 1:np] { set xtics add (word(placements, j) j) }
	set boxwidth bar * 0.92
	set key below center horizontal reverse Left nobox
	plot for [i = 1:nh] sprintf('$%s', word(have, i)) using ($1 + (i - (nh + 1) / 2.0) * bar):2 with boxes \
		lc rgb colour(word(have, i)) title word(have, i)
	unset output
}
