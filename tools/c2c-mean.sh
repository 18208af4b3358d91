#!/usr/bin/env bash
# The mean of two c2c.csv matrices of the same PUs, cell by cell (an empty
# cell, a pair sampled out, stays empty), as one c2c.csv on stdout: what
# hzfbench model reads for a run measured between the two.
#   tools/c2c-mean.sh BEFORE.csv AFTER.csv > c2c.csv
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: tools/c2c-mean.sh BEFORE.csv AFTER.csv" >&2; exit 2; }
paste -d, "$1" "$2" | awk -F, -v n="$(head -1 "$2" | awk -F, '{ print NF }')" '
	NR == 1 { for (i = 1; i <= n; i++) printf "%s%s", $i, i < n ? "," : "\n"; next }
	{ printf "%s", $1; for (i = 2; i <= n; i++) printf ",%s", $i == "" ? "" : ($i + $(i + n)) / 2; print "" }'
