# c2c: the core-to-core hand-off matrix as a heatmap, PUs grouped by package,
# NUMA node and core (the measured order interleaves them: compact takes a
# PU of every core before the cores' second threads); white lines part NUMA
# nodes, black lines part packages, so a machine's levels show as blocks.
# Empty cells (the diagonal, pairs sampled out) stay grey: never filled in.
# Up to 24 PUs the tics name each PU; past that, each node's block (left) and
# each package's (top). Reads c2c.csv and c2c-pus.csv (pu,core,package,node),
# as `hzfbench c2c` writes them; without a row for every PU measured in
# c2c-pus.csv, the measured order and PU tics.
NAME = "c2c"; ARGS_GIVEN = ARGC; RESULTS = ARG1; FORMAT = ARG2; DATA = "c2c.csv"
load system("dirname ".ARG0)."/style.gp"

if (data_missing) { eval skip("no c2c.csv in the folder") }
matrix = dir."/c2c.csv"
pus = dir."/c2c-pus.csv"
if (system(sprintf("test -r '%s' && echo yes", pus)) ne "yes") { eval skip("no c2c-pus.csv beside c2c.csv") }
cells = outdir."/.c2c-cells.dat"

# One pass over both files (c2c.csv has a million cells at 1,024 PUs: read
# once, a row split at a time). The drawing order: the measured PUs sorted
# by package, node, core and PU number (a stable merge sort). Writes the
# cells to cells, "column row ns" row by row in that order, NaN where
# empty, and prints the gnuplot assignments of the rest:
#   n: the PUs; order: the PU numbers in drawing order
#   node_lines, package_lines: where that level changes along the order (i - 0.5)
#   node_tics, package_tics: the commands that put a tic with the block's
#     name at the centre of each block of that level (x and y, or x2)
layout = 'FNR == 1 { f++; next } ' . \
	'f == 1 { core[$1] = $2; pkg[$1] = $3; node[$1] = $4; next } ' . \
	'{ m++; pu[m] = $1; row[m] = $0 } ' . \
	'function before(a, b) { if (pkg[a] != pkg[b]) return pkg[a] < pkg[b]; ' . \
	'  if (node[a] != node[b]) return node[a] < node[b]; ' . \
	'  if (core[a] != core[b]) return core[a] < core[b]; return a < b } ' . \
	'function msort(lo, hi,   mid, i, j, k) { if (hi <= lo) return; mid = int((lo + hi) / 2); ' . \
	'  msort(lo, mid); msort(mid + 1, hi); i = lo; j = mid + 1; k = 0; ' . \
	'  while (i <= mid && j <= hi) tmp[++k] = before(pu[o[j]] + 0, pu[o[i]] + 0) ? o[j++] : o[i++]; ' . \
	'  while (i <= mid) tmp[++k] = o[i++]; while (j <= hi) tmp[++k] = o[j++]; ' . \
	'  for (k = lo; k <= hi; k++) o[k] = tmp[k - lo + 1] } ' . \
	'function level(lv, what,   i, p, q, c, s, start) { if (!known) return ""; s = ""; start = 1; ' . \
	'  for (i = 1; i <= m + 1; i++) { p = pu[o[i]]; q = pu[o[i - 1]]; ' . \
	'    if (i > 1 && (i > m || (lv == 1 ? node[p] != node[q] || pkg[p] != pkg[q] : pkg[p] != pkg[q]))) { ' . \
	'      c = (start + i - 1) / 2 - 1; ' . \
	'      if (what == "tics" && lv == 1) s = s sprintf("set xtics add (\"node %s\" %g); set ytics add (\"node %s\" %g); ", node[q], c, node[q], c); ' . \
	'      else if (what == "tics") s = s sprintf("set x2tics add (\"package %s\" %g); ", pkg[q], c); ' . \
	'      else if (i <= m) s = s sprintf("%g ", i - 1.5); start = i } } ' . \
	'  return s } ' . \
	'END { known = 1; for (i = 1; i <= m; i++) { o[i] = i; if (!(pu[i] in pkg)) known = 0 } ' . \
	'  if (known) msort(1, m); ' . \
	'  for (r = 1; r <= m; r++) { split(row[o[r]], v, ","); ' . \
	'    for (c = 1; c <= m; c++) { x = v[o[c] + 1]; print c - 1, r - 1, (x == "" ? "NaN" : x) > cells } } ' . \
	'  close(cells); printf "n = %d; order = \"", m; for (i = 1; i <= m; i++) printf "%s ", pu[o[i]]; ' . \
	'  printf "\"; node_lines = \"%s\"; package_lines = \"%s\"; ", level(1, "lines"), level(2, "lines"); ' . \
	'  printf "node_tics = \047%s\047; package_tics = \047%s\047\n", level(1, "tics"), level(2, "tics") }'
eval system(sprintf("awk -F, -v cells='%s' '%s' '%s' '%s'", cells, layout, pus, matrix))
if (n < 2) { system(sprintf("rm -f '%s'", cells)); eval skip("c2c.csv has fewer than two PUs") }
eval block_mode
if (n <= 12) {
	set table $measured	# the cells that have a value
	plot cells using 1:2:3 with table if (strcol(3) ne "NaN")
	unset table
}
# past 24 PUs, the tics name blocks: nodes on the left and below, packages above
blocks = n > 24 && node_lines ne ""
every = n <= 24 ? 1 : int(ceil(n / 24.0))

do for [fmt in formats] {
	eval term(fmt)
	eval output(fmt)
	set title chart_title(sprintf("Core-to-core hand-off, one-way ns, %d PUs (lines: white between NUMA nodes, black between packages)", n))
	set size ratio -1
	set xrange [-0.5:n - 0.5]
	set yrange [n - 0.5:-0.5]
	set xtics () rotate by 90 right
	set ytics ()
	unset x2tics
	if (blocks) {
		eval node_tics
		set xtics scale 0
		set ytics scale 0
		set xlabel "PUs by package, NUMA node and core"
		set ylabel ""
		if (package_lines ne "") {
			set x2range [-0.5:n - 0.5]
			set x2tics () scale 0 nomirror
			eval package_tics
		}
	} else {
		do for [i = 0:n - 1:every] {
			set xtics add (word(order, i + 1) i)
			set ytics add (word(order, i + 1) i)
		}
		set xlabel "PU"
		set ylabel "PU"
	}
	unset grid
	unset key
	set object 1 rectangle from -0.5, -0.5 to n - 0.5, n - 0.5 behind fc rgb "#bbbbbb" fs solid noborder
	set palette defined (0 "#fde725", 0.35 "#8fd16a", 0.7 "#3fb2a8", 1 "#5d8fd0")
	set cblabel "one-way ns"
	unset arrow
	# the lines widen with the PUs they part: a node of 8 PUs at 256 PUs is a
	# few pixels square, and a thin line between two such blocks is lost
	do for [b in node_lines] {
		set arrow from b + 0, -0.5 to b + 0, n - 0.5 nohead front lc rgb "white" lw 2
		set arrow from -0.5, b + 0 to n - 0.5, b + 0 nohead front lc rgb "white" lw 2
	}
	do for [b in package_lines] {
		set arrow from b + 0, -0.5 to b + 0, n - 0.5 nohead front lc rgb "black" lw 3
		set arrow from -0.5, b + 0 to n - 0.5, b + 0 nohead front lc rgb "black" lw 3
	}
	if (n <= 12) {
		# a box per cell, the value printed in it
		plot $measured using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette, \
			$measured using 1:2:(sprintf("%.1f", $3)) with labels tc rgb "black" font font_of(18)
	} else {
		# one image, a pixel per cell: a box each would be n² shapes in the SVG
		plot cells using 1:2:3 with image
	}
	unset output
	if (fmt eq "svg" && n > 12) {
		# a viewer scales the image up smoothly, blurring cells into each other
		system(sprintf("sed -i 's/<image /<image style=\"image-rendering:pixelated\" /' '%s/%s.svg'", outdir, NAME))
	}
	set xtics scale default
	set ytics scale default
	unset x2tics
}
system(sprintf("rm -f '%s'", cells))
