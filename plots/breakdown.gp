# breakdown: where a fault's life goes, global at every task count run (its
# get grows as tasks queue on the line), mmflag and persistent at the most:
# the strategy's get, its put and teardown, and the rest. From --profile's
# get_share/put_share when the run has them; else from the difference to
# persistent at the same task count (which counts nothing): get = fault ns
# over persistent's, put = teardown ns over persistent's, each as a share of
# the strategy's fault and teardown ns. Reads summary.csv: strategy, fault, task_kind, tasks,
# placement, ns_per_fault_median, teardown_ns_per_fault_median, and
# get_share, put_share where present (emulated faults, compact placement).
NAME = "breakdown"; ARGS_GIVEN = ARGC; RESULTS = ARG1; FORMAT = ARG2
load system("dirname ".ARG0)."/style.gp"

# profiled: some global row has --profile's get_share (the column is always there)
profiled = has_column("get_share") && system(sprintf("awk '%s NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } " . \
	"$c[\"strategy\"] == \"global\" && $c[\"get_share\"] != \"\" { n++ } END { print n + 0 }' '%s'", csv_awk, summary)) + 0 > 0
# One kind's bars, one line each ("label" get put), into a file beside the
# charts: global at every task count run, mmflag and persistent at the most.
# From --profile's shares where a row has them; else the get as timed inside
# the fault (get_ns_in_fault_median: emulated faults at --fault-ns above 0,
# and real ones) and the put as teardown ns over persistent's; else each
# row's fault and teardown ns over persistent's at the same task count (at
# the most where that count has none).
bars(k, file) = system(sprintf("awk -v k=%s -v prof=%d '" . csv_awk . \
	'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } ' . \
	'$c["fault"] != "emulated" || $c["placement"] != "compact" || $c["task_kind"] != k { next } ' . \
	'{ s = $c["strategy"]; t = $c["tasks"] + 0; f[s, t] = $c["ns_per_fault_median"]; ' . \
	'  z[s, t] = $c["teardown_ns_per_fault_median"]; ' . \
	'  if (prof) { g[s, t] = $c["get_share"]; p[s, t] = $c["put_share"] } ' . \
	'  if ("get_ns_in_fault_median" in c) gi[s, t] = $c["get_ns_in_fault_median"]; ' . \
	'  if (s == "persistent" && t > most) most = t; if (s == "global") ts[t] = 1 } ' . \
	'function share(s, t, what,   b, fz, v) { ' . \
	'  if (prof && g[s, t] != "") return what == "g" ? g[s, t] : p[s, t]; ' . \
	'  b = ((("persistent", t) in f) ? t : most); fz = f[s, t] + z[s, t]; if (fz <= 0) return 0; ' . \
	'  if (what == "g" && gi[s, t] != "") { v = gi[s, t]; return v > 0 ? v / fz : 0 } ' . \
	'  v = what == "g" ? f[s, t] - f["persistent", b] : z[s, t] - z["persistent", b]; return v > 0 ? v / fz : 0 } ' . \
	'END { if (!most) exit; n = 0; for (t in ts) order[++n] = t + 0; ' . \
	'  for (i = 2; i <= n; i++) for (j = i; j > 1 && order[j] < order[j - 1]; j--) { x = order[j]; order[j] = order[j - 1]; order[j - 1] = x } ' . \
	'  for (i = 1; i <= n; i++) printf "\"global %%d\" %%.6f %%.6f\n", order[i], share("global", order[i], "g"), share("global", order[i], "p"); ' . \
	'  for (i = 1; i <= 2; i++) { s = i == 1 ? "mmflag" : "persistent"; if ((s, most) in f) ' . \
	'    printf "\"%%s %%d\" %%.6f %%.6f\n", s, most, share(s, most, "g"), share(s, most, "p") } }' . \
	"' '%s' > '%s'; wc -l < '%s'", k, profiled, summary, file, file)) + 0
# timed: the get measured inside the fault (a --fault-ns run's rows have it)
timed = system(sprintf("awk '%s NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } " . \
	"$c[\"fault\"] == \"emulated\" && $c[\"get_ns_in_fault_median\"] != \"\" { n++ } END { print n + 0 }' '%s'", csv_awk, summary)) + 0 > 0
kinds = ""
do for [k in "thread process"] {
	file = sprintf("%s/.breakdown-%s.dat", outdir, k)
	nb = bars(k, file)
	if (nb > 0) {
		eval sprintf('nb_%s = %d', k, nb)
		kinds = kinds." ".k
	}
}
if (kinds eq "") { eval skip("no persistent rows to hold the others against (emulated, compact)") }
eval block_mode

cols = words(kinds)

do for [fmt in formats] {
	eval term(fmt)
	eval output(fmt)
	set multiplot title chart_title(sprintf("Where a fault's life goes (emulated; %s)", \
		profiled ? "profiled shares" : timed ? "the get timed in the fault, the put over persistent's" : \
		"ns over persistent's"))
	do for [i = 1:cols] {
		k = word(kinds, i)
		eval panel(i - 1, 1, cols, 1)
		set title sprintf("%s tasks", k)
		set xrange [0.4:value("nb_".k) + 0.6]
		set yrange [0:112]	# room above a full bar for its label
		set ytics 0, 20, 100
		set ylabel "% of fault + teardown"
		set boxwidth 0.6
		eval sprintf('set xtics font "%s"', font_of(15))
		blk = sprintf("%s/.breakdown-%s.dat", outdir, k)
		plot blk using ($0 + 1):(100):xtic(1) with boxes lc rgb "#cccccc", \
			blk using ($0 + 1):(100 * ($2 + $3)) with boxes lc rgb "#56B4E9", \
			blk using ($0 + 1):(100 * $2) with boxes lc rgb colour("global"), \
			blk using ($0 + 1):(100 * ($2 + $3)):(sprintf("%.1f%%", 100 * $2)) with labels offset 0, 0.8
	}
	set ytics autofreq
	set xtics autofreq
	eval sprintf('set xtics font "%s"', font_of(20))
	eval key_panel(1)
	plot NaN with boxes lc rgb colour("global") title "get (its share labelled)", \
		NaN with boxes lc rgb "#56B4E9" title "put / teardown", \
		NaN with boxes lc rgb "#cccccc" title "rest of the fault"
	eval base_style
	unset multiplot
	unset output
}
system(sprintf("rm -f '%s'/.breakdown-*.dat", outdir))
