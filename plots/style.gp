# plots/style.gp: what every chart shares. Each chart script sets NAME and
# keeps its arguments (load resets them), then loads this:
#   NAME = "x"; ARGS_GIVEN = ARGC; RESULTS = ARG1; FORMAT = ARG2
#   load system("dirname ".ARG0)."/style.gp"
# (gnuplot -c plots/NAME.gp RESULTS_DIR [png|svg|pdf]).
#
# One colour, dash and point per strategy everywhere (Okabe-Ito: apart in
# colour for every kind of colour vision, apart in grey by dash and point);
# 1600x900 at a projector's font size; titles name machine, kernel and date.

if (ARGS_GIVEN < 1 || RESULTS eq "") {
	print sprintf("usage: gnuplot -c plots/%s.gp RESULTS_DIR [png|svg|pdf]", NAME)
	exit status 2
}
dir = RESULTS
formats = FORMAT ne "" ? FORMAT : "png svg pdf"
if (formats ne "png svg pdf" && formats ne "png" && formats ne "svg" && formats ne "pdf") {
	print sprintf("%s: %s: not a format (png, svg or pdf)", NAME, formats)
	exit status 2
}
# a chart of another file (c2c.csv) sets DATA before loading this
data = exists("DATA") ? DATA : "summary.csv"
summary = dir."/summary.csv"
outdir = dir."/plots"
styles = dir."/strategies.csv"
model = dir."/model.csv"	# hzfbench model's predictions beside the measurements (has_model)

# How an awk program reads one of our CSVs by field: a quoted field
# ("cpus:0,2,4", "" for a quote inside it) is one field, its quotes taken
# off, where awk -F, alone would split it at its commas. csv_record(line)
# is the line with its fields parted by \034; csv_awk, the first rules of a
# program that reads CSV files, makes each record so and \034 its FS, and
# split(x, a, "\034") parts a record kept whole. No %: they go into a
# format of sprintf as they are.
csv_functions = 'function odd_quotes(s,   q) { q = gsub(/"/, "\"", s); return q != 2 * int(q / 2) } ' . \
	'function csv_record(s,   p, n, i, k, f, out) { if (!index(s, "\"")) { gsub(/,/, "\034", s); return s } ' . \
	'  n = split(s, p, ","); k = 0; out = ""; ' . \
	'  for (i = 1; i <= n; i++) { f = p[i]; ' . \
	'    if (substr(f, 1, 1) == "\"") { while (odd_quotes(f) && i < n) f = f "," p[++i]; ' . \
	'      f = substr(f, 2, length(f) - 2); gsub(/""/, "\"", f) } ' . \
	'    out = k++ ? out "\034" f : f } ' . \
	'  return out } '
csv_awk = 'BEGIN { FS = "\034" } { $0 = csv_record($0) } ' . csv_functions

# What every chart asks of the folder, in one call (it was seventeen, each
# a shell and a pipe of greps: a third of a second of every chart): the
# gnuplot assignments of which files are there (data_missing, has_model,
# has_styles), meta.json's fields (meta_KEY: the first "KEY": "..." of the
# file; online_cpus, fault_ns: the first "KEY": N), summary.csv's header
# and whether it has an emulated row, and strategies.csv's columns (of the
# chart's data where there is no strategies.csv: its strategies in the
# order they come); plots/ made where the chart is drawn
folder_awk = csv_functions . \
	'function lines(f, a,   n, line) { n = 0; while ((getline line < f) > 0) a[++n] = line; close(f); return n } ' . \
	'function readable(f,   line, r) { r = getline line < f; close(f); return r >= 0 } ' . \
	'function quoted(s) { gsub(Q, Q Q, s); return Q s Q } ' . \
	'function text(key,   i) { for (i = 1; i <= nmeta; i++) if (match(meta[i], "\"" key "\": \"[^\"]*")) ' . \
	'  return substr(meta[i], RSTART + length(key) + 5, RLENGTH - length(key) - 5); return "" } ' . \
	'function number(key,   i) { for (i = 1; i <= nmeta; i++) if (match(meta[i], "\"" key "\": [0-9]*")) ' . \
	'  return substr(meta[i], RSTART + length(key) + 4, RLENGTH - length(key) - 4); return "" } ' . \
	'function column(a, n, c,   i, f, s) { s = ""; for (i = 2; i <= n; i++) s = s (split(a[i], f, ",") > 1 ? f[c] : a[i]) " "; return s } ' . \
	'BEGIN { Q = sprintf("%c", 39); dir = ARGV[1]; data = ARGV[2]; nmeta = lines(dir "/meta.json", meta); ' . \
	'  printf "data_missing = %d; has_model = %d; has_meta = %d; ", !readable(dir "/" data), readable(dir "/model.csv"), readable(dir "/meta.json"); ' . \
	'  split("cpu_model kernel_release start_time virtualized kind", keys, " "); ' . \
	'  for (k = 1; k <= 5; k++) printf "meta_%s = %s; ", keys[k], quoted(text(keys[k])); ' . \
	'  printf "online_cpus = %s; fault_ns = %s; ", quoted(number("online_cpus")), quoted(number("fault_ns")); ' . \
	'  n = lines(dir "/summary.csv", sum); emulated = 0; ' . \
	'  for (i = 1; i <= n; i++) { c = split(sum[i], f, ","); if ((c > 1 ? f[2] : sum[i]) == "emulated") emulated = 1 } ' . \
	'  printf "summary_header = %s; has_emulated = %d; ", quoted(sum[1]), emulated; ' . \
	'  n = lines(dir "/strategies.csv", st); printf "has_styles = %d; ", readable(dir "/strategies.csv"); ' . \
	'  if (readable(dir "/strategies.csv")) { e = ""; for (i = 2; i <= n; i++) { split(st[i], f, ","); if (f[5] == 1) e = e f[1] " " } ' . \
	'    printf "strategies = %s; colours = %s; dashes = %s; points = %s; emulated_strategies = %s\n", ' . \
	'      quoted(column(st, n, 1)), quoted(column(st, n, 2)), quoted(column(st, n, 3)), quoted(column(st, n, 4)), quoted(e); exit } ' . \
	'  n = lines(dir "/" data, d); c = 0; s = ""; ' . \
	'  if (n) { nf = split(csv_record(d[1]), f, "\034"); for (i = 1; i <= nf; i++) if (f[i] == "strategy") c = i } ' . \
	'  for (i = 2; c && i <= n; i++) { split(csv_record(d[i]), f, "\034"); if (!seen[f[c]]++) s = s f[c] " " } ' . \
	'  printf "strategies = %s\n", quoted(s) }'
eval system(sprintf("{ test -r '%s/%s' || %s; } && test -d '%s' && mkdir -p '%s'; awk '%s' '%s' '%s'", \
	dir, data, exists("DATA") ? "true" : "false", dir, outdir, folder_awk, dir, data))
# a folder without that chart's own file is not an error: the chart skips
if (data_missing && (!exists("DATA") || system(sprintf("test -d '%s' && echo yes", dir)) ne "yes")) {
	print sprintf("%s: %s: no %s to chart", NAME, dir, data)
	exit status 1
}
# whether summary.csv has a column of that name
has_column(c) = strstrt(",".summary_header.",", ",".c.",") > 0
machine = !has_meta ? "" : sprintf("%s, %s CPUs · Linux %s · %s", meta_cpu_model, online_cpus, \
	meta_kernel_release, meta_start_time[1:10])
# measured in a qemu guest (hzfbench vm): said on every chart, with what it means
guest = meta_virtualized
if (guest ne "" && machine ne "") { machine = machine.sprintf(" · qemu guest (%s%s)", guest, guest eq "tcg" ? ": emulated times" : "") }
# emulated faults: their --fault-ns said on every chart, 0 as the stress it is
# (no work between two gets: a CPU keeps global's line for many of them)
if (machine ne "" && has_emulated && fault_ns ne "") { machine = machine . (fault_ns eq "0" ? \
	" · emulated at --fault-ns 0: a stress, no work between gets" : \
	sprintf(" · emulated at --fault-ns %s: a real fault's work", fault_ns)) }
# a folder of run.sh --kernels: summary.csv's strategy names the guest kernel that faulted
kernels_folder = meta_kind eq "kernels"
chart_title(t) = machine eq "" ? t : sprintf("%s\n{/*0.75 %s}", t, machine)

# The strategies, in their order, and how each is drawn: strategies.csv
# (strategy,colour,dash,point,emulated), which hzfbench writes beside summary.csv and
# zeroout.csv from each strategy's ops table (and hzfbench report where a
# folder has none), read above. A folder from before it, charted here by
# hand: the strategies of the chart's data in the order they come, drawn in
# the order of the table's styles.
if (!has_styles) {
	colours = "#D55E00 #0072B2 #009E73 #CC79A7 #000000"; dashes = "1 2 4 5 3"; points = "7 5 9 11 13"
	emulated_strategies = strategies
}
# where s is in list (1, 2, ...), 0 if nowhere
place_in(list, s) = (at_ = strstrt(" ".list." ", " ".s." "), at_ ? words((" ".list." ")[1:at_]) + 1 : 0)
# where s is in strategies; its style then, or black, dash 3, point 13 for a
# name that is not one
strategy_at(s) = place_in(strategies, s)
style_of(list, s) = (i_ = strategy_at(s), i_ ? word(list, (i_ - 1) % words(list) + 1) : "")
colour(s) = (c_ = style_of(colours, s), c_ ne "" ? c_ : "#000000")
dash(s) = (d_ = style_of(dashes, s), d_ ne "" ? d_ + 0 : 3)
point(s) = (p_ = style_of(points, s), p_ ne "" ? p_ + 0 : 13)

# the terminal of one format, and the output file of this chart in it; points
# come out two or three times as large in svg and pdf as in png: every ps is a
# multiple of PS; and the pdf's font is half the size: a font size given in a
# chart is font_of(points at 1600x900)
term(fmt) = fmt eq "png" ? \
	'set terminal pngcairo size 1600,900 enhanced font "sans,20" linewidth 2 background "white"; PS = 1; FONT_SCALE = 1' : \
	fmt eq "svg" ? \
	'set terminal svg size 1600,900 dynamic enhanced font "sans,20" linewidth 2 background "white"; PS = 0.55; FONT_SCALE = 1' : \
	'set terminal pdfcairo size 8in,4.5in enhanced font "sans,10" linewidth 1.5; PS = 0.25; FONT_SCALE = 0.5'
font_of(points) = sprintf(",%g", points * FONT_SCALE)
output(fmt) = sprintf("set output '%s/%s.%s'", outdir, NAME, fmt)

# rows of a CSV file where cond holds, the fields of spec, into datablock name
select_in(file, name, spec, cond) = sprintf("set print %s; unset print; set table %s append; plot '%s' using %s with table if (%s); unset table", \
	name, name, file, spec, cond)
select(name, spec, cond) = select_in(summary, name, spec, cond)
# how many rows datablock name holds: eval count("n", "$d") sets n
count(var, name) = sprintf("%s = |%s|", var, name)
# eval keep_present("have", "$%s_thread"): have = the strategies whose block has rows
keep_present(var, pattern) = sprintf('%s = ""; do for [s in strategies] { eval count("n_", sprintf("%s", s)); if (n_ > 0) { %s = %s." ".s } }', \
	var, pattern, var, var)
csv_mode = "set datafile separator comma; set datafile columnheaders"
block_mode = "set datafile separator whitespace; set datafile nocolumnheaders"
eval csv_mode

# what every plot starts from (and a panel of a multiplot returns to)
base_style = 'set grid back lc rgb "#dddddd" lw 1; set border 3 lc rgb "#444444"; ' . \
	'set xtics nomirror out; set ytics nomirror out; set autoscale xy; set origin 0, 0; set size 1, 1; set margins -1, -1, -1, -1; ' . \
	'set key top left reverse Left noautotitle samplen 3 spacing 1.2 box lc rgb "#cccccc"; ' . \
	'set style fill solid 0.85 noborder'
set tics nomirror out
eval base_style

# A chart of several panels: the panels in a grid under the title, and one key
# for all of them in a strip at the bottom (a key in each panel says the same
# twice and, with many task counts, sits on the data). eval panel(i, rows,
# cols, krows) before the plot of panel i (0: top left, then row by row);
# after the last, eval key_panel(krows), plot each entry of the key as NaN
# (with its title and style), and eval base_style.
title_space = 0.1	# the chart's title and subtitle
# the key's strip: gnuplot fills as many rows as its height holds, then
# columns as wide as the longest entry (about 16 px a character at 1600x900)
strip(krows) = krows > 0 ? (krows * 38 + 14) / 900.0 : 0
key_rows(n, len) = int(ceil(n * 1.0 / floor(1550.0 / (16 * len + 72))))
panel(i, rows, cols, krows) = sprintf("set origin %.4f, %.4f; set size %.4f, %.4f; unset key", \
	(i % cols) * 1.0 / cols, strip(krows) + (rows - 1 - int(i / cols)) * (1 - title_space - strip(krows)) / rows, \
	1.0 / cols, (1 - title_space - strip(krows)) / rows)
key_panel(krows) = sprintf("set origin 0, 0; set size 1, %.4f; unset border; unset xtics; unset ytics; unset grid; " . \
	"unset title; unset xlabel; unset ylabel; unset logscale; unset offsets; set margins 0, 0, 0, 0; " . \
	"set xrange [0:1]; set yrange [0:1]; " . \
	"set key inside center center horizontal reverse Left samplen 3 spacing 1.2 nobox", strip(krows))

# ratio of the largest to the smallest value of column col in the blocks of
# pattern (one %s: the strategy) for each strategy of list: eval spread("r", ...)
# before drawing, to draw on log scale what spans more than a few times
spread(var, pattern, list, col) = sprintf('lo_ = 1e300; hi_ = 0; do for [s_ in "%s"] { ' . \
	'stats sprintf("%s", s_) using %d nooutput; lo_ = STATS_min < lo_ ? STATS_min : lo_; ' . \
	'hi_ = STATS_max > hi_ ? STATS_max : hi_ }; %s = lo_ > 0 && hi_ > 0 ? hi_ / lo_ : 1', \
	list, pattern, col, var)
# a tic step that puts about five tics from 0 to hi: a short panel's
# default tics crowd into each other
tic_step(hi) = hi <= 0 ? 1 : (tic_e_ = 10.0 ** floor(log10(hi / 5.0)), tic_m_ = hi / 5.0 / tic_e_, \
	(tic_m_ <= 1 ? 1 : tic_m_ <= 2 ? 2 : tic_m_ <= 5 ? 5 : 10) * tic_e_)
# the key's entries for the strategies of have, as the panels draw their
# lines (points of size, lines of width): eval "plot ".strategy_keys(1.6, 2.5)
strategy_keys(size, width) = sprintf("for [s in have] NaN with linespoints lc rgb colour(s) dt dash(s) " . \
	"pt point(s) ps %g*PS lw %g title s", size, width)
# the key's entry for the predicted lines (hzfbench model): one for them all
model_key = "NaN with lines lc rgb '#555555' dt (14, 10) lw 1.5 title 'model (inside its domain)'"
# model.csv's rows a line may be drawn through: no tag, that is neither outside
# the model nor of a domain not known (hzfbench model says which in the tag)
in_domain = ' && strcol("tag") eq ""'
# the strategies of list a or list b, in the order of strategies
union_from(i, ab) = i > words(strategies) ? "" : \
	(strstrt(ab, " ".word(strategies, i)." ") ? " ".word(strategies, i) : "").union_from(i + 1, ab)
union(a, b) = union_from(1, " ".a." ".b." ")

# say why a chart is not drawn, and end: not an error
skip(why) = sprintf("print '%s: skipped: %s'; exit", NAME, why)
