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
# a folder without that chart's own file is not an error: the chart skips
data_missing = system(sprintf("test -r '%s/%s' && echo yes", dir, data)) ne "yes"
if (data_missing && (!exists("DATA") || system(sprintf("test -d '%s' && echo yes", dir)) ne "yes")) {
	print sprintf("%s: %s: no %s to chart", NAME, dir, data)
	exit status 1
}
outdir = dir."/plots"
system(sprintf("mkdir -p '%s'", outdir))

# a string field of meta.json, "" where there is none
meta(key) = system(sprintf("grep -o '\"%s\": \"[^\"]*' '%s/meta.json' 2>/dev/null | head -1 | cut -d'\"' -f4", key, dir))
# whether summary.csv has a column of that name
has_column(c) = system(sprintf("head -1 '%s' | tr ',' '\\n' | grep -cx '%s'", summary, c)) + 0 > 0
machine = system(sprintf("test -r '%s/meta.json' && echo yes", dir)) ne "yes" ? "" : \
	sprintf("%s, %s CPUs · Linux %s · %s", meta("cpu_model"), \
	system(sprintf("grep -o '\"online_cpus\": [0-9]*' '%s/meta.json' | grep -o '[0-9]*$'", dir)), \
	meta("kernel_release"), meta("start_time")[1:10])
# measured in a qemu guest (hzfbench vm): said on every chart, with what it means
guest = meta("virtualized")
if (guest ne "" && machine ne "") { machine = machine.sprintf(" · qemu guest (%s%s)", guest, guest eq "tcg" ? ": emulated times" : "") }
# a folder of run.sh --kernels: summary.csv's strategy names the guest kernel that faulted
kernels_folder = meta("kind") eq "kernels"
chart_title(t) = machine eq "" ? t : sprintf("%s\n{/*0.75 %s}", t, machine)

strategies = "global mmflag persistent percpu native"
colour(s) = s eq "global" ? "#D55E00" : s eq "mmflag" ? "#0072B2" : \
	s eq "persistent" ? "#009E73" : s eq "percpu" ? "#CC79A7" : "#000000"
dash(s) = s eq "global" ? 1 : s eq "mmflag" ? 2 : s eq "persistent" ? 4 : s eq "percpu" ? 5 : 3
point(s) = s eq "global" ? 7 : s eq "mmflag" ? 5 : s eq "persistent" ? 9 : s eq "percpu" ? 11 : 13

# the terminal of one format, and the output file of this chart in it
term(fmt) = fmt eq "png" ? \
	'set terminal pngcairo size 1600,900 enhanced font "sans,20" linewidth 2 background "white"' : \
	fmt eq "svg" ? \
	'set terminal svg size 1600,900 dynamic enhanced font "sans,20" linewidth 2 background "white"' : \
	'set terminal pdfcairo size 8in,4.5in enhanced font "sans,10" linewidth 1.5'
output(fmt) = sprintf("set output '%s/%s.%s'", outdir, NAME, fmt)

# rows of a CSV file where cond holds, the fields of spec, into datablock name
select_in(file, name, spec, cond) = sprintf("set print %s; unset print; set table %s append; plot '%s' using %s with table if (%s); unset table", \
	name, name, file, spec, cond)
select(name, spec, cond) = select_in(summary, name, spec, cond)
# hzfbench model's predictions beside the measurements, where model.csv is
model = dir."/model.csv"
has_model = system(sprintf("test -r '%s' && echo yes", model)) eq "yes"
# how many rows datablock name holds: eval count("n", "$d") sets n
count(var, name) = sprintf("%s = |%s|", var, name)
# eval keep_present("have", "$%s_thread"): have = the strategies whose block has rows
keep_present(var, pattern) = sprintf('%s = ""; do for [s in strategies] { eval count("n_", sprintf("%s", s)); if (n_ > 0) { %s = %s." ".s } }', \
	var, pattern, var, var)
csv_mode = "set datafile separator comma; set datafile columnheaders"
block_mode = "set datafile separator whitespace; set datafile nocolumnheaders"
eval csv_mode

set grid back lc rgb "#dddddd" lw 1
set border 3 lc rgb "#444444"
set tics nomirror out
set key top left reverse Left noautotitle samplen 3 spacing 1.2 box lc rgb "#cccccc"
set style fill solid 0.85 noborder

# say why a chart is not drawn, and end: not an error
skip(why) = sprintf("print '%s: skipped: %s'; exit", NAME, why)
