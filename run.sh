#!/usr/bin/env bash
# hzfbench's main job: install what is missing, build, run the default sweep
# (every strategy x emulated and real kernel faults x 1..CPU-count tasks in
# powers of two x threads and processes x compact, plus scatter on machines
# with more than one package or NUMA node), print the summary table and where
# the results are, and render the charts and report.html into that folder.
# Real faults are left out, with a note, where THP is off or the kernel does
# not map the huge zero folio on read faults. A short
# --workload lifecycle sweep goes into DIR/lifecycle/, and hzfbench zeroout
# (file sink) into DIR/zeroout/. The core-to-core
# hand-off matrix (hzfbench c2c) is measured once per machine and kept in
# results/c2c-cache/; each run copies it in, and hzfbench model predicts every
# configuration from it, for the report to show beside the measurements.
set -euo pipefail

usage() {
	cat <<'TXT'
usage: ./run.sh [options] [-- sweep options...]
  --out DIR        results folder, new or empty (default results/<UTC time>-<host>)
  --reps N|auto    measured repetitions per configuration (default auto: until the
                   median's 95% confidence interval is within --target-ci, 6 at
                   least, --max-reps at most)
  --max-reps N     with --reps auto: at most this many (default 7)
  --target-ci PCT  with --reps auto: the interval's half-width in % (default: the
                   sweep's, hzfbench sweep --print-defaults)
  --tag TEXT       a label kept in meta.json and summary.csv's tag column
  --min-ms MS      each repetition lasts at least this long (default 100)
  --size BYTES     each task's region a pass, K/M/G/T (default 16G: 8192 faults of
                   2 MiB; the sweep's own default is 100G)
  --fault-ns NS|auto  busy work per emulated fault standing for the rest of the fault
                   path: a real fault's regime (default auto: the running kernel's own
                   huge zero read fault, timed here, where it maps the folio; else
                   2000 ns, a steady THP zero-page read fault as measured on this
                   project's KVM hosts, 1.0-2.5 us); a --fault-ns 0 stress sweep of
                   global, mmflag and persistent goes beside it into DIR/stress/
  --tasks LIST     task counts, as the sweep takes them (default: the sweep's, hzfbench
                   sweep --print-defaults: pow2 is 1, 2, 4, ... and the CPU count)
  --no-kernel      emulated faults only (no real huge-page read faults)
  --set-thp MODE   set THP to MODE (madvise or always) for the run's real faults and
                   put it back at the end (default: leave sysfs alone)
  --perf-record    also wrap global at every CPU in `perf record -g`: the report
                   goes to DIR/perf/perf-report.txt (installs linux-perf)
  --c2c            and in `perf c2c record`: DIR/perf/c2c-report.txt (on bare metal
                   it names the contended line; under KVM it says what is missing)
  --ci             the CI profile instead: short and fixed (emulated faults, tasks
                   1,2, threads and processes, 7 repetitions, no counters), each
                   configuration's medians appended to the history, no table
  --history FILE   the history --ci appends to (default results/history.csv)
  --baseline DIR   with --ci: compare against the results folder DIR, each
                   repetition over persistent's (a ratio, so that machines
                   differ less), and exit with compare's status (1: regressed)
  --threshold PCT  with --baseline: the change that counts (default 50)
  --ungated PATTERN  with --baseline: configurations compared and shown but not
                   failing the run (compare --ungated; repeatable), e.g.
                   'global,*,*,2' where the host cannot hold that figure steady
  --kernels        instead of the sweep: the three kernels make kernels built
                   (mmflag, persistent, global), each in a qemu guest of 4 CPUs in
                   2 sockets and 2 NUMA nodes (hzfbench vm): the real-fault sweep of
                   the kernel alone, detect --behaviour, and one report with the
                   three side by side (guest measurements; --reps, default 5, and
                   --min-ms apply; tools/kernels-run.sh). Under TCG their times are
                   emulated: compare them only with each other
  --kvm            with --kernels: each guest under KVM in the host's own shape
                   (hzfbench vm --mirror-host: every host PU a vCPU pinned to it,
                   each node's memory bound to its host node), 1 to N tasks, with
                   --profile: the kernels side by side, and each kernel's share in
                   get_huge_zero_folio. Without a usable /dev/kvm, or where KVM
                   cannot boot a first guest to /init within 20 s (said in one
                   line with qemu's own error): as --kernels alone, under TCG
  --kvm-cpus LIST  with --kvm: mirror these host PUs only (default all; node 0's
                   where the host has more than qemu's 288)
  --fresh-c2c      measure the hand-off matrix again instead of reusing the one
                   kept for this machine in results/c2c-cache/
  --c2c-pairs N    the hand-off matrix: at most N pairs of PUs, spread evenly, the
                   rest left empty (hzfbench c2c --max-pairs, and its default)
  --c2c-rounds N   round trips per batch of each pair (hzfbench c2c --rounds, and
                   its default)
  --zero-size BYTES  the zeroout stage's request, a multiple of 2M (default: zeroout's,
                   hzfbench zeroout --print-defaults; each task writes one at least a
                   repetition)
  --plan           run nothing: print each stage's estimated wall time (the sweep's
                   configurations with theirs: hzfbench sweep --plan) and the total;
                   under HWLOC_SYNTHETIC, for that machine
  --with-plan      print the plan (as --plan) first, then run; at the end, the real
                   wall time beside the planned (also in DIR/plan.txt)
  --no-install     do not install missing packages; fail and name them (make dist's
                   bundle installs nothing either way)
  --tune           as root: hzfbench doctor --tune before anything is measured
                   (cpufreq governor, boost, NUMA balancing, NMI watchdog,
                   perf_event_paranoid, the huge zero page), and hzfbench doctor
                   --reset to put it all back at the end, on an error, Ctrl-C or
                   SIGTERM too
  -h, --help       this text
Anything after -- goes to `hzfbench sweep` as it is (see `build/hzfbench sweep --help`).
TXT
}

# run.sh's own choices, not the sweep's defaults (hzfbench sweep --print-defaults):
# --reps auto with --max-reps 7, --min-ms 100 and --size 16G keep the default job
# on a 256-PU machine under 20 minutes (README's "At scale"). --target-ci,
# --tasks, --zero-size, --c2c-pairs and --c2c-rounds, left empty here, take
# hzfbench's own defaults once it is built.
reps=auto max_reps=7 min_ms=100 size=16G target_ci='' tasks=''
out='' tag='' fault_ns=auto install=1 kernel=1 set_thp='' perf=()
ci=0 history=results/history.csv baseline='' threshold=50 fresh_c2c=0 ungated=() kernels=0
plan=0 with_plan=0 c2c_pairs='' c2c_rounds='' zero_size='' tune=0 kvm=0 kvm_cpus=''
while [ $# -gt 0 ]; do
	case $1 in
	--out|--reps|--max-reps|--target-ci|--tag|--min-ms|--size|--fault-ns|--tasks|--set-thp|--history|--baseline|--threshold|--ungated|--c2c-pairs|--c2c-rounds|--zero-size|--kvm-cpus)
		[ $# -ge 2 ] || { echo "run.sh: $1: needs a value" >&2; exit 2; }
		case $1 in
		--out) out=$2 ;;
		--reps) reps=$2 ;;
		--max-reps) max_reps=$2 ;;
		--target-ci) target_ci=$2 ;;
		--tag) tag=$2 ;;
		--min-ms) min_ms=$2 ;;
		--size) size=$2 ;;
		--fault-ns) fault_ns=$2 ;;
		--tasks) tasks=$2 ;;
		--set-thp) set_thp=$2 ;;
		--history) history=$2 ;;
		--baseline) baseline=$2 ;;
		--threshold) threshold=$2 ;;
		--ungated) ungated+=(--ungated "$2") ;;
		--c2c-pairs) c2c_pairs=$2 ;;
		--c2c-rounds) c2c_rounds=$2 ;;
		--zero-size) zero_size=$2 ;;
		--kvm-cpus) kvm_cpus=$2 ;;
		esac
		shift 2 ;;
	--no-install) install=0; shift ;;
	--tune) tune=1; shift ;;
	--fresh-c2c) fresh_c2c=1; shift ;;
	--plan) plan=1; shift ;;
	--with-plan) with_plan=1; shift ;;
	--ci) ci=1; shift ;;
	--kernels) kernels=1; shift ;;
	--kvm) kvm=1; shift ;;
	--perf-record) perf+=(record); shift ;;
	--c2c) perf+=(c2c); shift ;;
	--no-kernel) kernel=0; shift ;;
	-h|--help) usage; exit 0 ;;
	--) shift; break ;;
	*) echo "run.sh: $1: unknown option (./run.sh --help)" >&2; exit 2 ;;
	esac
done

if [ "$fault_ns" != auto ] && ! [[ $fault_ns =~ ^[0-9]+$ ]]; then
	echo "run.sh: --fault-ns: $fault_ns: not a number of ns or auto" >&2
	exit 2
fi
if [ "${#ungated[@]}" -gt 0 ] && [ -z "$baseline" ]; then
	echo "run.sh: --ungated: ${ungated[1]}: needs --ci --baseline" >&2
	exit 2
fi
if [ "$((plan + with_plan))" -gt 0 ] && { [ "$ci" -eq 1 ] || [ "$kernels" -eq 1 ]; }; then
	echo "run.sh: --plan, --with-plan: plan the main job, not --ci or --kernels" >&2
	exit 2
fi
if [ "$kernels" -eq 1 ] && [ "$tune" -eq 1 ]; then
	echo "run.sh: --tune: not with --kernels (the guests are not this machine)" >&2
	exit 2
fi
if [ "$kvm" -eq 1 ] && [ "$kernels" -eq 0 ]; then
	echo "run.sh: --kvm: needs --kernels (the guests it runs under KVM)" >&2
	exit 2
fi
if [ -n "$kvm_cpus" ] && [ "$kvm" -eq 0 ]; then
	echo "run.sh: --kvm-cpus: $kvm_cpus: needs --kvm" >&2
	exit 2
fi
if [ "$kernels" -eq 1 ] && [ "$ci" -eq 1 ]; then
	echo "run.sh: --kernels: not with --ci" >&2
	exit 2
fi
if [ -n "$baseline" ] && [ "$ci" -eq 0 ]; then
	echo "run.sh: --baseline: $baseline: needs --ci" >&2
	exit 2
fi
if [ -n "$baseline" ] && [ ! -r "$baseline/samples.csv" ]; then
	echo "run.sh: --baseline: $baseline: not a results folder (no samples.csv)" >&2
	exit 2
fi

cd "$(dirname "$0")"
if [ -f BUNDLE ]; then
	# make dist's bundle: its own binary and libraries, nothing to build or
	# install; what the machine must have is a glibc new enough (BUNDLE says
	# which), perf for --perf-record and --c2c, and gnuplot for the charts only
	bin=bin/hzfbench
	if [ "$kernels" -eq 1 ]; then
		echo "run.sh: --kernels: needs the source tree (make kernels), not this bundle" >&2
		exit 2
	fi
	if ! err=$($bin --version 2>&1 >/dev/null); then
		echo "run.sh: $bin: does not start here: $err ($(grep '^needs: ' BUNDLE))" >&2
		exit 1
	fi
	if [ "${#perf[@]}" -gt 0 ] && ! command -v perf >/dev/null 2>&1; then
		echo "run.sh: --perf-record, --c2c: perf is not installed (Debian: linux-perf)" >&2
		exit 1
	fi
else
	deps=run
	[ "${#perf[@]}" -gt 0 ] && deps=perf
	if [ "$install" -eq 1 ]; then
		tools/deps.sh $deps
	else
		HZF_NO_INSTALL=1 tools/deps.sh $deps
	fi
	make -s build/hzfbench >/dev/null
	if [ "$kernels" -eq 1 ]; then
		if [ "$install" -eq 1 ]; then tools/deps.sh vm; else HZF_NO_INSTALL=1 tools/deps.sh vm; fi
		exec tools/kernels-run.sh "$out" "$reps" "$min_ms" "$kvm" "$kvm_cpus"
	fi
	bin=build/hzfbench
fi
# the options run.sh shares with hzfbench and does not choose itself: hzfbench's
# defaults, from the tables they are declared in
default_of() {	# SUBCOMMAND NAME
	$bin "$1" --print-defaults | sed -n "s/^--$2=//p"
}
target_ci=${target_ci:-$(default_of sweep target-ci)}
tasks=${tasks:-$(default_of sweep tasks)}
zero_size=${zero_size:-$(default_of zeroout zero-size)}
c2c_pairs=${c2c_pairs:-$(default_of c2c max-pairs)}
c2c_rounds=${c2c_rounds:-$(default_of c2c rounds)}
# at exit, whatever ends the run: the machine as it was, and no folder left behind
tuned=0 before=''
cleanup() {
	[ -z "$before" ] || rm -rf "$before"
	if [ "$tuned" -eq 1 ]; then
		tuned=0
		"$bin" doctor --reset || echo "run.sh: --tune: hzfbench doctor --reset failed (see above)" >&2
	fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
if [ "$tune" -eq 1 ] && [ "$plan" -eq 0 ]; then
	# 1: a write refused, said; the rest made and kept in the state. 2: nothing changed
	rc=0
	"$bin" doctor --tune || rc=$?
	[ "$rc" -le 1 ] || exit "$rc"
	tuned=1
	[ "$rc" -eq 0 ] || echo "run.sh: --tune: some fixes were refused (above): measuring anyway" >&2
fi
# what on this machine can skew the figures, with the fixes (meta.json keeps it all)
[ "$plan" -eq 1 ] || $bin doctor --warnings >&2 || true
tagged=()
[ -n "$tag" ] && tagged=(--tag "$tag")
if [ "$ci" -eq 1 ]; then
	# short and fixed, so that one run is like the next: what a CI job graphs
	[ -n "$out" ] || out=results/ci-$(date -u +%Y%m%dT%H%M%SZ)-$(uname -n)
	# shellcheck disable=SC2054 # the commas are hzfbench's list syntax
	$bin sweep --strategies global,mmflag,persistent --faults emulated --tasks 1,2 \
		--task-kinds thread,process --placements compact --reps 7 --warmup 1 \
		--min-ms 100 --events none --quiet --out "$out" "${tagged[@]}" "$@" >/dev/null || exit
	mkdir -p "$(dirname "$history")"
	$bin history "$history" "$out" || exit
	echo "ci: results=$out configurations=$(($(wc -l <"$out/summary.csv") - 1)) history=$history"
	$bin report "$out" >/dev/null 2>&1 || echo "ci: the report could not be made (gnuplot?)" >&2
	[ -n "$baseline" ] || exit 0
	rc=0
	$bin compare "$baseline" "$out" --normalize persistent --metric ns_per_fault \
		--threshold "$threshold" "${ungated[@]}" || rc=$?
	echo "ci: compare=$rc (0: no regression, 1: regressed, 2: could not compare)"
	exit $rc
fi
# a bad --zero-size said now, not after the sweep (zeroout's own check, a probe of µs)
$bin zeroout --zero-size "$zero_size" --strategies persistent --segments folio --tasks 1 \
	--reps 1 --min-ms 1 --plan >/dev/null || exit 2
read -r packages nodes < <($bin topo --summary |
	sed -E 's/packages=([0-9]+) numa_nodes=([0-9]+).*/\1 \2/')
placements=compact
if [ "$packages" -gt 1 ] || [ "$nodes" -gt 1 ]; then
	placements=compact,scatter
fi
topo=$($bin topo)
grep -E '^(machine|kernel|huge zero folio):' <<<"$topo"
faults=emulated strategies=global,mmflag,persistent,percpu
thp=$(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || true)
zero=$(cat /sys/kernel/mm/transparent_hugepage/use_zero_page 2>/dev/null || true)
if [ "$kernel" -eq 1 ] && [ "$plan" -eq 1 ] && [ -n "${HWLOC_SYNTHETIC:-}" ]; then
	# another machine: planned with real faults, as its THP would take them
	faults=emulated,kernel strategies=global,mmflag,persistent,percpu,native
elif [ "$kernel" -eq 1 ]; then
	if grep -q '^huge zero folio: not mapped' <<<"$topo"; then
		# hzfbench topo tried one read fault: real memory came back
		echo "run.sh: this kernel does not map the huge zero folio on read faults: emulated faults only" >&2
	elif [ -n "$set_thp" ] || [[ -n $thp && $thp != *"[never]"* && $zero = 1 ]]; then
		faults=emulated,kernel strategies=global,mmflag,persistent,percpu,native
	else
		echo "run.sh: THP is off or the huge zero page disabled: emulated faults only" >&2
	fi
fi
# the emulated faults' regime: a real fault's work between two gets, where the
# model holds (docs/model.md); --fault-ns 0, a fault of no work, is the stress
# sweep beside it
fault_ns_said=''
if [ "$fault_ns" = auto ]; then
	fault_ns=2000 fault_ns_said="a stated default: a steady THP zero-page read fault as measured on this project's KVM hosts, 1.0-2.5 us"
	if [[ $faults == *kernel* ]] && [ "$plan" -eq 0 ]; then
		ft=$(mktemp -d)
		if $bin run --fault kernel --strategy native --tasks 1 --reps 3 --min-ms 50 --events none \
			--quiet --out "$ft/r" >/dev/null 2>&1; then
			kf=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
				{ printf "%.0f", $c["ns_per_fault_median"] }' "$ft/r/summary.csv")
			[ -n "$kf" ] && [ "$kf" -gt 0 ] &&
				fault_ns=$kf fault_ns_said="this kernel's own huge zero read fault, timed now (native, 1 task)"
		fi
		rm -rf "$ft"
	elif [[ $faults == *kernel* ]]; then
		fault_ns_said="$fault_ns_said (--plan: the kernel's own fault is timed when it runs)"
	fi
	echo "run.sh: --fault-ns auto: $fault_ns ns, $fault_ns_said"
fi
stress=0
[ "$fault_ns" -gt 0 ] && stress=1
# shellcheck disable=SC2054 # the commas are hzfbench's list syntax
st_args=(sweep --strategies global,mmflag,persistent --faults emulated --fault-ns 0 --tasks "$tasks"
	--task-kinds thread,process --placements "$placements" --reps "$reps" --min-ms "$min_ms"
	--size "$size" --events none --quiet "${tagged[@]}")
[ "$reps" = auto ] && st_args+=(--max-reps "$max_reps" --target-ci "$target_ci")
# shellcheck disable=SC2054 # the commas are hzfbench's list syntax
args=(sweep --strategies "$strategies" --faults "$faults" --tasks "$tasks"
	--task-kinds thread,process --placements "$placements"
	--reps "$reps" --min-ms "$min_ms" --size "$size" --fault-ns "$fault_ns" "${tagged[@]}")
if [ "$reps" = auto ]; then
	args+=(--max-reps "$max_reps" --target-ci "$target_ci")
fi

if [ -n "$set_thp" ]; then
	[[ $faults == *kernel* ]] || { echo "run.sh: --set-thp: needs real faults (drop --no-kernel)" >&2; exit 2; }
	args+=(--set-thp "$set_thp")
fi
virt=0
grep -qw hypervisor /proc/cpuinfo 2>/dev/null && virt=1
[ -n "${HWLOC_SYNTHETIC:-}" ] && virt=0	# planning another machine
c2c_args=(c2c --max-pairs "$c2c_pairs" --rounds "$c2c_rounds")
# shellcheck disable=SC2054 # the commas are hzfbench's list syntax
lc_args=(sweep --workload lifecycle --strategies global,mmflag,persistent,percpu --tasks "$tasks"
	--reps 3 --min-ms "$min_ms" --events none --quiet)
zo_args=(zeroout --sink file --zero-size "$zero_size" --tasks "$tasks" --reps 3 --min-ms "$min_ms")
# each stage's own --plan, then the sum: nothing runs, nothing is written;
# plan_lo and plan_hi are the bounds in seconds (equal without --reps auto)
make_plan() {
	local sweep_plan report_s=5	# report: gnuplot's charts, 2 s here
	seconds() { grep -E "^plan: ($1) [0-9:]+ \(" | tail -1 | sed -E 's/.*\(([0-9.]+) s.*/\1/'; }
	sweep_plan=$("$bin" "${args[@]}" --plan "$@") || return 1
	echo "$sweep_plan"
	plan_lo=$(seconds 'at least' <<<"$sweep_plan") plan_hi=$(seconds 'estimated|at most' <<<"$sweep_plan")
	[ -n "$plan_lo" ] || plan_lo=$plan_hi
	# NAME COMMAND...: its estimate in one line (a --reps auto sweep's "at most"),
	# and its seconds added to the bounds (its "at least" to the lower one)
	stage_plan() {
		local name=$1 out lo hi
		shift
		out=$("$bin" "$@" --plan) || return 1
		hi=$(seconds 'estimated|at most' <<<"$out") lo=$(seconds 'at least' <<<"$out")
		[ -n "$lo" ] || lo=$hi
		echo "plan: $name: $(grep -E '^plan: (estimated|at most) [0-9:]+ \(' <<<"$out" | tail -1 |
			sed -E 's/^plan: (estimated )?//')"
		plan_lo=$(awk -v a="$plan_lo" -v b="$lo" 'BEGIN { print a + b }')
		plan_hi=$(awk -v a="$plan_hi" -v b="$hi" 'BEGIN { print a + b }')
	}
	if [ "$(nproc)" -ge 2 ] || [ -n "${HWLOC_SYNTHETIC:-}" ]; then
		stage_plan c2c "${c2c_args[@]}" --contention || return 1
		[ "$virt" -eq 0 ] || stage_plan "c2c before the sweep (a virtual machine)" "${c2c_args[@]}" || return 1
	fi
	if [ "$stress" -eq 1 ]; then
		stage_plan "stress (--fault-ns 0)" "${st_args[@]}" || return 1
	fi
	stage_plan lifecycle "${lc_args[@]}" || return 1
	stage_plan zeroout "${zo_args[@]}" || return 1
	echo "plan: report: about $report_s s"
	plan_lo=$(awk -v a="$plan_lo" -v r="$report_s" 'BEGIN { print a + r }')
	plan_hi=$(awk -v a="$plan_hi" -v r="$report_s" 'BEGIN { print a + r }')
	awk -v lo="$plan_lo" -v hi="$plan_hi" 'function hms(s) { s = int(s + 0.5)
		return sprintf("%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) }
		BEGIN { if (lo != hi) printf "plan: ./run.sh: at least %s, at most %s\n", hms(lo), hms(hi)
			else printf "plan: ./run.sh: estimated %s (%.0f s)\n", hms(hi), hi }'
}
plan_lo='' plan_hi=''
if [ "$plan" -eq 1 ]; then
	make_plan "$@" || exit
	exit 0
elif [ "$with_plan" -eq 1 ]; then
	make_plan "$@" || exit
fi
[ -n "$out" ] || out=results/$(date -u +%Y%m%dT%H%M%SZ)-$(uname -n)	# the report goes there too
args+=(--out "$out")
# each stage's wall time, printed at the end and kept in DIR/stages.csv
stage_t0=''
stages=()
stage() {	# NAME: the previous stage ends, this one starts
	local now
	now=$(date +%s.%N)
	[ -z "$stage_t0" ] || stages+=("$stage_name,$(awk -v a="$stage_t0" -v b="$now" 'BEGIN { printf "%.1f", b - a }')")
	stage_name=$1 stage_t0=$now
}
if [ "$virt" -eq 1 ] && [ "$(nproc)" -ge 2 ]; then
	# a VM's hand-off can change during the sweep: measured before it too, to tell
	# (cleanup removes the folder)
	stage c2c-before
	before=$(mktemp -d)
	"$bin" "${c2c_args[@]}" --out "$before/m" >/dev/null 2>&1 || rm -rf "$before/m"
fi
stage sweep
"$bin" "${args[@]}" "$@" || exit
for what in "${perf[@]}"; do
	echo "perf $what: $(tools/perf-wrap.sh "$out" "$what")"
done
if [ "$stress" -eq 1 ]; then
	# the same strategies with no work between gets: where global's line stays put
	stage stress
	if "$bin" "${st_args[@]}" --out "$out/stress" >"$out/stress.log" 2>&1; then
		# a get's own cost, measurable here and not under the real fault's noise
		"$bin" show "$out/stress" 2>&1 | grep -E '^[a-z]+ - [a-z]+ at 1 task ' |
			sed 's/^/stress: /' || true
	else
		echo "stress: the --fault-ns 0 sweep failed, $? (see $out/stress.log)" >&2
	fi
fi

stage c2c
# the hand-off matrix: once per machine (host and CPU count), then reused; but a
# virtual machine's vCPUs move between physical CPUs (here 27 ns one minute,
# 120 the next), so there it is measured every run, right after the sweep
cache=results/c2c-cache/$(uname -n)-$(nproc)cpu
mean_handoff() { awk -F, 'NR > 1 { for (i = 2; i <= NF; i++) if ($i != "") { s += $i; n++ } }
	END { if (n) printf "%.2f\n", s / n }' "$1"; }
if [ "$(nproc)" -lt 2 ]; then
	echo "c2c: one CPU: no hand-off to measure, no model"
else
	if [ "$fresh_c2c" -eq 1 ] || [ "$virt" -eq 1 ] || [ ! -s "$cache/c2c.csv" ] ||
		[ ! -s "$cache/c2c-pus.csv" ] || [ ! -s "$cache/c2c-contention.csv" ]; then
		rm -rf "$cache.new"
		# with the line's contention: operations per move of it against the work between
		if "$bin" "${c2c_args[@]}" --contention --out "$cache.new" >"$out/c2c.log" 2>&1; then
			rm -rf "$cache" && mv "$cache.new" "$cache"
			if [ "$virt" -eq 1 ]; then
				echo "c2c: measured now (a virtual machine: its vCPUs move, so no kept matrix is trusted)"
			else
				echo "c2c: measured, kept in $cache"
			fi
		else
			echo "c2c: could not be measured (see $out/c2c.log): no model" >&2
		fi
	else
		echo "c2c: reusing $cache (measured $(date -u -r "$cache/c2c.csv" +%Y-%m-%dT%H:%MZ); --fresh-c2c measures again)"
	fi
	if [ -s "$cache/c2c.csv" ]; then
		cp "$cache/c2c.csv" "$cache/c2c-pus.csv" "$out/"
		[ ! -s "$cache/c2c-contention.csv" ] || cp "$cache/c2c-contention.csv" "$out/"
		stage model
		# DIR's model.txt, and measured beside predicted for global, the strategy
		# the model is about, and persistent's threads, which pay the shared
		# mm's line alone; each with its verdict: a ratio, or why it is outside
		model_lines() {
			"$bin" model --from "$1" >"$1/model.txt" 2>&1 ||
				echo "model: no prediction (see $1/model.txt)" >&2
			awk '$1 == "strategy" || $1 == "global" || ($1 == "persistent" && $3 == "thread") ||
				($1 == "retries:" && $2 == "global")' \
				"$1/model.txt" | sed 's/^/model: /'
		}
		echo "model: the real-fault regime (--fault-ns $fault_ns):"
		model_lines "$out"
		if [ "$stress" -eq 1 ] && [ -s "$out/stress/summary.csv" ]; then
			cp "$out/c2c.csv" "$out/c2c-pus.csv" "$out/stress/"
			[ ! -s "$out/c2c-contention.csv" ] || cp "$out/c2c-contention.csv" "$out/stress/"
			echo "model: the stress (--fault-ns 0, a fault of no work):"
			model_lines "$out/stress"
		fi
		if [ -n "$before" ] && [ -s "$before/m/c2c.csv" ]; then
			cp "$before/m/c2c.csv" "$out/c2c-before.csv"
			read -r h0 h1 < <(echo "$(mean_handoff "$out/c2c-before.csv") $(mean_handoff "$out/c2c.csv")")
			if awk -v a="$h0" -v b="$h1" 'BEGIN { exit !(a > 1.2 * b || b > 1.2 * a) }'; then
				echo "model: the hand-off moved during the sweep, $h0 ns before it and $h1 after (the host" \
					"moved the vCPUs): this run's predictions are not to be trusted" | tee -a "$out/model.txt" >&2
			else
				echo "model: the hand-off held during the sweep: $h0 ns before it, $h1 after" >>"$out/model.txt"
			fi
		fi
	fi
fi
# ended STATUS: how a stage's command ended, in words (a kill leaves no line of its own)
ended() {
	if [ "$1" -gt 128 ]; then echo "killed by signal $(($1 - 128)) ($(kill -l "$(($1 - 128))"))"
	else echo "exit $1"; fi
}
# the folio's life cycle under memory pressure: waves of short lives, the
# shrinker at 100 Hz (process tasks: a life is an mm), in a folder of its own
stage lifecycle
lc=$out/lifecycle
if "$bin" "${lc_args[@]}" --out "$lc" >"$out/lifecycle.log" 2>&1; then
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ printf "lifecycle: %-10s %3d tasks: %7.1f allocations/s, %7.1f frees/s, %6.3f%% of the time zeroing\n",
			$c["strategy"], $c["tasks"], $c["allocs_per_sec_median"], $c["frees_per_sec_median"],
			100 * $c["alloc_share_median"] }' "$lc/summary.csv"
	"$bin" report "$lc" >/dev/null 2>&1 || echo "lifecycle: no report (see $lc)" >&2
else
	echo "lifecycle: the sweep failed, $(ended $?) (see $out/lifecycle.log)" >&2
fi
# users with no mm zeroing a file, from the zero page and from the huge zero folio
stage zeroout
if "$bin" "${zo_args[@]}" --out "$out/zeroout" >"$out/zeroout.log" 2>&1; then
	grep -vE '^results:' "$out/zeroout.log" | sed 's/^/zeroout: /'
else
	echo "zeroout: failed, $(ended $?) (see $out/zeroout.log)" >&2
fi
stage report
if [ "$stress" -eq 1 ] && [ -s "$out/stress/summary.csv" ]; then
	"$bin" report "$out/stress" >/dev/null 2>&1 || echo "stress: no report (see $out/stress)" >&2
fi
"$bin" report "$out"	# the charts (plots/) and report.html
stage end
{ echo stage,seconds; printf '%s\n' "${stages[@]}"; } >"$out/stages.csv"
echo "stages: $(awk -F, 'NR > 1 { printf "%s%s %.1f s", n++ ? ", " : "", $1, $2; t += $2 }
	END { printf "; %.1f s in all", t }' "$out/stages.csv")"
if [ -n "$plan_hi" ]; then	# --with-plan: what the plan said beside what it took
	awk -F, -v lo="$plan_lo" -v hi="$plan_hi" 'NR > 1 { t += $2 }
		END { if (lo != hi) printf "plan: said %.0f-%.0f s, took %.1f s: %.2fx the low bound, %.2fx the high\n", lo, hi, t, t / lo, t / hi
			else printf "plan: said %.0f s, took %.1f s: %.2fx\n", hi, t, t / hi }' "$out/stages.csv" |
		tee "$out/plan.txt"
fi
