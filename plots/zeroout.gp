# zeroout: mm-less users zeroing storage (hzfbench zeroout, --workload
# zeroout): GB/s of each strategy with segments from the 4 KiB zero page and
# from the 2 MiB huge zero folio, at the most tasks run; bars from the
# slowest to the fastest repetition; the key says how many segments a request
# took. Reads zeroout.csv (in the folder, or in its zeroout/ folder, where
# ./run.sh puts it): strategy, segment, sink, tasks, segments_per_request,
# gb_per_sec.
NAME = "zeroout"; ARGS_GIVEN = ARGC; RESULTS = ARG1; FORMAT = ARG2
DATA = system(sprintf("test -r '%s/zeroout.csv' || test ! -r '%s/zeroout/zeroout.csv' && echo zeroout.csv || echo zeroout/zeroout.csv", ARG1, ARG1))
load system("dirname ".ARG0)."/style.gp"

if (data_missing) { eval skip("no zeroout.csv in the folder") }
zcsv = dir."/".DATA
# per strategy and segment at the most tasks: x, median, min, max GB/s, segments a request
prep = "awk '" . csv_awk . "NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { rows[NR] = $0; if ($c[\"tasks\"] > most) most = $c[\"tasks\"] } END { ns = split(order, S, \" \"); for (r in rows) { split(rows[r], f, \"\\034\"); if (f[c[\"tasks\"]] != most) continue; k = f[c[\"strategy\"]] \" \" f[c[\"segment\"]]; n[k]++; v[k, n[k]] = f[c[\"gb_per_sec\"]]; segs[k] = f[c[\"segments_per_request\"]]; sink = f[c[\"sink\"]] } for (i = 1; i <= ns; i++) for (g = 1; g <= 2; g++) { seg = g == 1 ? \"page\" : \"folio\"; k = S[i] \" \" seg; if (!n[k]) continue; m = n[k]; for (a = 1; a <= m; a++) w[a] = v[k, a] + 0; for (a = 1; a <= m; a++) for (b = a + 1; b <= m; b++) if (w[b] < w[a]) { t = w[a]; w[a] = w[b]; w[b] = t } med = m % 2 ? w[(m + 1) / 2] : (w[m / 2] + w[m / 2 + 1]) / 2; printf \"%s %d %s %g %g %g %s %s %d\\n\", seg, i, S[i], med, w[1], w[m], segs[k], sink, most } }' "
rows = system(sprintf("%s order='%s' '%s'", prep, emulated_strategies, zcsv))
if (rows eq "") { eval skip("zeroout.csv has no rows") }
set print $page
print system(sprintf("echo '%s' | awk '$1 == \"page\"'", rows))
unset print
set print $folio
print system(sprintf("echo '%s' | awk '$1 == \"folio\"'", rows))
unset print
# a slot for each strategy of emulated faults, run or not
slots = words(emulated_strategies)
sink = word(rows, 8)
most = word(rows, 9) + 0
pseg = system(sprintf("echo '%s' | awk '$1 == \"page\" { print $7; exit }'", rows))
fseg = system(sprintf("echo '%s' | awk '$1 == \"folio\" { print $7; exit }'", rows))
eval block_mode
# GB/s on a log axis where page and folio are more than 30x apart (an
# emulated sink: the page's bars would be flat on 0)
# a folder of one segment kind (--segments page) draws its bars alone
lo = 1e300; hi = -1e300
if (pseg ne "") { stats $page using 4 nooutput; lo = STATS_min; hi = STATS_max }
if (fseg ne "") { stats $folio using 4 nooutput; \
	lo = STATS_min < lo ? STATS_min : lo; hi = STATS_max > hi ? STATS_max : hi }
logy = lo > 0 && hi / lo > 30
pagebars = "$page using ($2 - 0.19):4 with boxes lc rgb \"#999999\" title sprintf(\"4 KiB zero page (%s segments a request)\", pseg), $page using ($2 - 0.19):4:5:6 with yerrorbars lc rgb \"#333333\" pt 0 notitle"
foliobars = "$folio using ($2 + 0.19):4 with boxes lc rgb \"#009E73\" title sprintf(\"2 MiB huge zero folio (%s)\", fseg), $folio using ($2 + 0.19):4:5:6 with yerrorbars lc rgb \"#333333\" pt 0 notitle"
bars = pseg eq "" ? foliobars : fseg eq "" ? pagebars : pagebars . ", " . foliobars

do for [fmt in formats] {
	eval term(fmt)
	eval output(fmt)
	set title chart_title(sprintf("Zeroing with no mm: GB/s by zero segment, %d tasks, %s sink (bars: slowest to fastest repetition)", most, sink))
	set xrange [0.4:slots + 0.6]
	if (logy) {
		set logscale y 10
		set yrange [lo / 3:*]
		set format y "%.0s%c"
		set ylabel "GB/s (log)"
	} else {
		set yrange [0:*]
		set ylabel "GB/s"
	}
	set xtics ()
	do for [j = 1:slots] { set xtics add (word(emulated_strategies, j) j) }
	set boxwidth 0.35
	set key below center horizontal reverse Left nobox
	set style fill solid 0.85 noborder
	plot @bars
	unset logscale y
	set format y "% h"
	unset output
}
