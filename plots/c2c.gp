# c2c: the core-to-core hand-off matrix as a heatmap, PUs in the order
# measured; white lines part NUMA nodes, black lines part packages, so a
# machine's levels show as blocks. Empty cells (the diagonal, pairs sampled
# out) stay grey: never filled in. Reads c2c.csv and c2c-pus.csv
# (pu,core,package,node), as `hzfbench c2c` writes them.
NAME = "c2c"; ARGS_GIVEN = ARGC; RESULTS = ARG1; FORMAT = ARG2; DATA = "c2c.csv"
load system("dirname ".ARG0)."/style.gp"

if (data_missing) { eval skip("no c2c.csv in the folder") }
matrix = dir."/c2c.csv"
pus = dir."/c2c-pus.csv"
if (system(sprintf("test -r '%s' && echo yes", pus)) ne "yes") { eval skip("no c2c-pus.csv beside c2c.csv") }
n = system(sprintf("awk 'END { print NR - 1 }' '%s'", matrix)) + 0
if (n < 2) { eval skip("c2c.csv has fewer than two PUs") }
# where the node and the package change along the PU order: lines at i - 0.5
bounds(col) = system(sprintf("awk -F, 'NR > 2 && $%d != prev { printf \"%%s \", NR - 2.5 } NR > 1 { prev = $%d }' '%s'", col, col, pus))
node_lines = bounds(4)
package_lines = bounds(3)
# one cell per line: row, column, ns (empty cells left out)
cells = system(sprintf("awk -F, 'NR > 1 { for (j = 2; j <= NF; j++) if ($j != \"\") print NR - 2, j - 2, $j }' '%s'", matrix))
set print $cells
print cells
unset print
# the PU numbers as tics, at most about 24 of them
every = n <= 24 ? 1 : int(ceil(n / 24.0))
labels = system(sprintf("awk -F, 'NR == 1 { for (j = 2; j <= NF; j++) printf \"%%s \", $j }' '%s'", matrix))
eval block_mode

do for [fmt in formats] {
	eval term(fmt)
	eval output(fmt)
	set title chart_title(sprintf("Core-to-core hand-off, one-way ns (%d PUs; lines: white between NUMA nodes, black between packages)", n))
	set size ratio -1
	set xrange [-0.5:n - 0.5]
	set yrange [n - 0.5:-0.5]
	set xtics () rotate by 90 right
	set ytics ()
	do for [i = 0:n - 1:every] {
		set xtics add (word(labels, i + 1) i)
		set ytics add (word(labels, i + 1) i)
	}
	set xlabel "PU"
	set ylabel "PU"
	unset grid
	unset key
	set object 1 rectangle from -0.5, -0.5 to n - 0.5, n - 0.5 behind fc rgb "#bbbbbb" fs solid noborder
	set palette defined (0 "#fde725", 0.35 "#8fd16a", 0.7 "#3fb2a8", 1 "#5d8fd0")
	set cblabel "one-way ns"
	unset arrow
	do for [b in node_lines] {
		set arrow from b + 0, -0.5 to b + 0, n - 0.5 nohead front lc rgb "white" lw 2
		set arrow from -0.5, b + 0 to n - 0.5, b + 0 nohead front lc rgb "white" lw 2
	}
	do for [b in package_lines] {
		set arrow from b + 0, -0.5 to b + 0, n - 0.5 nohead front lc rgb "black" lw 3
		set arrow from -0.5, b + 0 to n - 0.5, b + 0 nohead front lc rgb "black" lw 3
	}
	# the value in each cell where there is room for it
	if (n <= 12) {
		plot $cells using 2:1:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette, \
			$cells using 2:1:(sprintf("%.1f", $3)) with labels tc rgb "black" font ",18"
	} else {
		plot $cells using 2:1:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette
	}
	unset output
}
