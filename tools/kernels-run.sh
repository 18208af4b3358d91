#!/usr/bin/env bash
# run.sh --kernels: the three guest kernels of make kernels side by side.
# In a qemu guest of each (4 CPUs, 2 sockets, 2 NUMA nodes), the real-fault
# sweep of the kernel alone (native: threads and processes, 1, 2 and 4
# tasks, compact) and hzfbench detect --behaviour; then one folder whose
# summary.csv and samples.csv hold every guest's rows with `strategy` naming
# the kernel that faulted, a meta.json saying so ("kind": "kernels"), the
# table, and report.html with the kernels chart. The guests' own folders
# stay inside it (KERNEL/ and KERNEL-detect/).
# With KVM=1 (run.sh --kvm) and a /dev/kvm that opens, each guest is the
# host's own shape instead (hzfbench vm --accel kvm --mirror-host: every host
# PU, or KVM_CPUS, a vCPU pinned to it), its sweep 1 to N tasks with
# --profile, and each kernel's share of samples in its get is printed; a
# KVM that cannot boot the first kernel's guest to /init within 20 s (a
# second try included, 60 s at most) is said in one line with qemu's own
# error, and the kernels run as without KVM.
# Usage: tools/kernels-run.sh OUT REPS MIN_MS [KVM [KVM_CPUS]]
#   (run.sh passes them; OUT and KVM_CPUS may be '')
set -euo pipefail
cd "$(dirname "$0")/.."
out=$1 reps=$2 min_ms=$3 kvm=${4:-0} kvm_cpus=${5:-}
bin=build/hzfbench
kdir=${HZF_KERNELS:-build/kernels}
[ "$reps" = auto ] && reps=5	# a guest's sweep is long enough at 5
kernels=()
for k in mmflag persistent global; do
	if [ -r "$kdir/$k/bzImage" ]; then
		kernels+=("$k")
	else
		echo "run.sh: --kernels: $kdir/$k/bzImage: not built (make kernels): left out" >&2
	fi
done
[ "${#kernels[@]}" -gt 0 ] || { echo "run.sh: --kernels: no kernel built in $kdir (make kernels)" >&2; exit 2; }
[ -n "$out" ] || out=results/$(date -u +%Y%m%dT%H%M%SZ)-kernels
if [ -e "$out" ] && [ -n "$(ls -A "$out")" ]; then
	echo "run.sh: --out: $out: exists and is not empty" >&2
	exit 2
fi
mkdir -p "$out"
start=$(date -u +%FT%TZ)
vm=(vm --smp 4 --sockets 2 --nodes 2 --mem 2G --timeout 1800)
tasks=1,2,4 profile=()
if [ "$kvm" = 1 ]; then
	# (a test, not an open: bash's <> would make a file where there is no device)
	if [ -c /dev/kvm ] && [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
		pick=()
		if [ -n "$kvm_cpus" ]; then
			pick=(--cpus "$kvm_cpus")
		elif [ "$(nproc --all)" -gt 288 ]; then
			pick=(--placement node:0)
			echo "kernels: --kvm: $(nproc --all) PUs, over qemu's 288 CPUs: mirroring node 0's (--kvm-cpus LIST chooses others)"
		fi
		# one guest first, bounded: a KVM that cannot boot one (nested KVM here:
		# qemu aborts on an MSR, or the guest hangs after the BIOS) is one line
		# and TCG; its folder, console.log included, stays as kvm-probe/
		if $bin vm --accel kvm --mirror-host "${pick[@]}" --timeout 60 --boot-timeout 20 \
			--kernel "${kernels[0]}" --out "$out/kvm-probe" -- topo >/dev/null 2>"$out/kvm-probe.err"; then
			vm=(vm --accel kvm --mirror-host "${pick[@]}" --timeout 1800)
			tasks=pow2 profile=(--profile)
			rm -f "$out/kvm-probe.err"
		else
			rc=$?
			why=$(sed -n 's/^hzfbench: vm: //p' "$out/kvm-probe.err" | tail -n 1)
			if [ "$rc" = 2 ]; then	# --kvm-cpus the host cannot mirror: no KVM's fault
				echo "run.sh: --kvm: $why" >&2
				exit 2
			fi
			echo "run.sh: --kvm: KVM cannot boot a guest to /init here (vm --accel kvm --kernel ${kernels[0]}: $why): the kernels run under TCG, as with --kernels alone" >&2
			kvm=0
		fi
	else
		echo "run.sh: --kvm: no usable /dev/kvm here: the kernels run as with --kernels alone" >&2
		kvm=0
	fi
fi
# at each task kind's most tasks, the share of all samples in the kernel's get
get_share() {	# FOLDER
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["tasks"] + 0 >= most[$c["task_kind"]] {
			most[$c["task_kind"]] = $c["tasks"] + 0; g[$c["task_kind"]] = $c["kernel_get_share"] }
		END {
			split("thread process", kind, " ")
			for (i = 1; i <= 2; i++) {
				k = kind[i]
				if (!(k in most)) continue
				v = g[k] == "" ? "not measured" : sprintf("%.2f%%", 100 * g[k])
				printf "%s%s %d: %s", sep, k, most[k], v
				sep = ", "
			}
		}' "$1/summary.csv"
}
said='' shares=''
for k in "${kernels[@]}"; do
	echo "kernels: $k: the real-fault sweep in a guest (hzfbench ${vm[*]} --kernel $k)"
	# shellcheck disable=SC2054 # the commas are hzfbench's list syntax
	$bin "${vm[@]}" --kernel "$k" --out "$out/$k" -- sweep --faults kernel --strategies native \
		--task-kinds thread,process --tasks "$tasks" --placements compact --reps "$reps" \
		--min-ms "$min_ms" --events none "${profile[@]}" --quiet --out r
	if [ "${#profile[@]}" -gt 0 ]; then
		share=$(get_share "$out/$k/r")
		echo "kernels: $k: samples in the kernel's get (get_huge_zero_folio and kin): $share"
		shares="$shares${shares:+; }$k: $share"
	fi
	$bin "${vm[@]}" --kernel "$k" --out "$out/$k-detect" -- detect --behaviour --allow-drop-caches \
		>"$out/$k-detect.txt"
	verdict=$(head -n 1 "$out/$k-detect.txt")
	counts=$(sed -n 2p "$out/$k-detect.txt" | sed 's/^ *//')
	echo "kernels: $k: detect --behaviour says $verdict ($counts)"
	said="$said${said:+; }$k: $verdict"
done

# every guest's rows, strategy named after the kernel (native there is that
# kernel); native's get, a no-op timed in place, is left empty: no strategy's
# get was timed here, and a figure there would read as the kernel's
for f in summary.csv samples.csv; do
	first=1
	for k in "${kernels[@]}"; do
		awk -F, -v OFS=, -v k="$k" -v first="$first" '
			NR == 1 {
				for (i = 1; i <= NF; i++)
					if ($i ~ /^(get_ns_in_fault(_median)?|get_share_of_fault|get_share|put_share)$/)
						blank[i] = 1
				if (first) print
				next
			}
			$1 == "native" { $1 = k; for (i in blank) $i = ""; print }' "$out/$k/r/$f"
		first=0
	done >"$out/$f"
done
first=$out/${kernels[0]}/r/meta.json
release=$(sed -n 's/.*"kernel_release": "\([^"]*\)".*/\1/p' "$first" | head -n 1)
accel=$(sed -n 's/.*"virtualized": "\([^"]*\)".*/\1/p' "$first" | head -n 1)
cpus=$(sed -n 's/^  "online_cpus": \([0-9]*\).*/\1/p' "$first" | head -n 1)
shape=$(sed -n 's/.*"topology": {.*"packages": \([0-9]*\), "numa_nodes": \([0-9]*\).*/\1 sockets, \2 NUMA nodes/p' "$first" | head -n 1)
{
	printf '{\n  "kind": "kernels",\n  "cpu_model": "%s%s",\n' "${shape:-a qemu guest}" \
		"$([ "$kvm" = 1 ] && echo ", the host's (vm --mirror-host)")"
	printf '  "online_cpus": %s,\n  "kernel_release": "%s",\n' "${cpus:-0}" "${release%-*}-$(IFS=/; echo "${kernels[*]}")"
	printf '  "virtualized": "%s",\n  "kernels_said": "detect --behaviour says %s",\n' "$accel" "$said"
	[ -z "$shares" ] || printf '  "kernels_get_share": "%s",\n' "$shares"
	printf '  "kernels": ['
	sep=''
	for k in "${kernels[@]}"; do
		printf '%s\n    {"kernel": "%s", "results": "%s/r", "detect": "%s"}' "$sep" "$k" "$k" \
			"$(head -n 1 "$out/$k-detect.txt")"
		sep=,
	done
	printf '\n  ],\n'
	printf '  "start_time": "%s",\n  "end_time": "%s",\n  "complete": true\n}\n' "$start" "$(date -u +%FT%TZ)"
} >"$out/meta.json"
$bin show "$out"
# the kernels side by side, each against the first: its median, ±%stddev,
# %change and the mark of compare's tests, one column group a kernel (exit
# status 1, a kernel slower than the first, is a finding here, not a failure)
if [ "${#kernels[@]}" -ge 2 ]; then
	folders=()
	for k in "${kernels[@]}"; do
		folders+=("$out/$k/r")
	done
	echo
	rc=0
	$bin compare "${folders[@]}" --label "$(IFS=,; echo "${kernels[*]}")" \
		--metric ns_per_fault,teardown_ns_per_fault --out "$out" || rc=$?
	[ "$rc" -le 1 ] || echo "run.sh: --kernels: compare could not hold the kernels side by side" >&2
fi
$bin report "$out" >/dev/null || echo "run.sh: --kernels: the report could not be made (gnuplot?)" >&2
[ -z "$shares" ] || echo "kernels: samples in each kernel's get: $shares"
[ "$accel" != tcg ] || echo "kernels: the guests ran under TCG: their times are emulated; compare them only with each other"
echo "kernels: results=$out report=$out/report.html"
