#!/usr/bin/env bash
# tools/fabricate-results.sh DIR [SYNTHETIC]: a FABRICATED results folder of a
# machine we do not have, for drawing the charts at scale. NOT A MEASUREMENT:
# meta.json's and summary.csv's tag, meta.json's host and cpu_model all say
# "fabricated"; never compare, quote or commit it as results.
#
# The machine is HWLOC_SYNTHETIC's SYNTHETIC (default "pack:4 numa:2 core:16
# pu:2": 4 packages, 8 NUMA nodes, 256 PUs); `hzfbench topo` plans every
# placement on it, so tasks.csv's pu and node columns and c2c-pus.csv are
# what a real run there would plan. The sweep is that of
#   hzfbench sweep --faults emulated,kernel --placements compact,scatter
#       --tasks pow2 --size 1G --reps 5 --profile --tag "fabricated for chart tests"
# (every strategy, both task kinds), with figures from a rough model: a
# fault's fixed cost, and for global one cache-line hand-off per fault and
# task, the hand-off by level (SMT sibling 12 ns, NUMA node 38, package 75,
# across packages 135-150). Also c2c.csv and c2c-pus.csv (every PU, compact
# order, a few pairs left empty as if sampled out). Every file has the
# columns of results/README.md, in its order (tests/e2e.sh holds the headers
# against a real run's).
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	echo "usage: $0 DIR [SYNTHETIC]" >&2
	exit 2
fi
dir=$1
synthetic=${2:-pack:4 numa:2 core:16 pu:2}
bin=${HZFBENCH:-$(dirname "$0")/../build/hzfbench}
if [ -e "$dir" ] && [ -n "$(ls -A "$dir")" ]; then
	echo "fabricate-results: $dir: not empty" >&2
	exit 1
fi
mkdir -p "$dir"

topo() { HWLOC_SYNTHETIC=$synthetic "$bin" topo "$@"; }
summary=$(topo --summary)	# packages=N numa_nodes=N cores=N pus=N
pus=${summary##*pus=}
tasks=""
for ((n = 1; n < pus; n *= 2)); do tasks="$tasks $n"; done
tasks="$tasks $pus"
plans=$(mktemp)
trap 'rm -f "$plans"' EXIT
# one line per planned task: placement tasks task pu core package node
for p in compact scatter; do
	for n in $tasks; do
		topo --placement "$p" --tasks "$n" |
			awk -v p="$p" -v n="$n" 'NF == 5 && $1 ~ /^[0-9]+$/ { print p, n, $0 }'
	done
done >"$plans"

awk -v dir="$dir" -v synthetic="$synthetic" -v summary="$summary" -v tasklist="$tasks" '
function lcg() { seed = (seed * 16807) % 2147483647; return seed / 2147483647 }
# one-way hand-off between two PUs, by level, with a few percent of noise
function handoff(a, b,    ns) {
	ns = core[a] == core[b] ? 12 : node[a] == node[b] ? 38 : package[a] == package[b] ? 75 : \
		135 + 15 * ((package[a] + package[b]) % 2)
	return ns * (0.96 + 0.08 * lcg())
}
function log2(x) { return log(x) / log(2) }
function csv(file, line) { print line > (dir "/" file) }
BEGIN {
	seed = 20261204
	tag = "fabricated for chart tests"
	split(summary, f, /[= ]/)
	npk = f[2]; nnodes = f[4]; ncores = f[6]; npus = f[8]
	ntl = split(tasklist, T, " ")
	fpp = 512	# --size 1G / --step 2M
	reps = 5
	key = "strategy,fault,task_kind,tasks,placement,step,faults_per_pass"
	perf = "cycles_per_fault,instructions_per_fault,ipc,cache_references_per_fault,cache_misses_per_fault,l1d_load_misses_per_fault,llc_load_misses_per_fault,branch_misses_per_fault,task_clock_ns_per_fault,page_faults_per_fault,context_switches,cpu_migrations,perf_multiplexed"
	csv("summary.csv", key ",reps,ns_per_fault_median,ns_per_fault_min,ns_per_fault_max,ns_per_fault_stddev,faults_per_sec_median,teardown_ns_per_fault_median,fairness_min_max,get_ns_in_fault_median,get_share_of_fault," perf ",get_share,put_share,kernel_share,kernel_get_share,kernel_put_share,workload,allocs_per_sec_median,frees_per_sec_median,alloc_share_median,overlap_median,cpu_wall_median,flagged_reps,ci95_lo,ci95_hi,ci95_pct,tag")
	csv("samples.csv", key ",rep,passes,faults,ns_per_fault,faults_per_sec,teardown_ns_per_fault,fairness_min_max,thp_zero_page_alloc,thp_fault_fallback,minflt_per_fault,rss_growth_kb,anon_huge_kb,kernel_check,get_ns_in_fault," perf ",profile_samples,get_share,put_share,kernel_share,kernel_get_share,kernel_put_share,wall_ns,allocs,frees,alloc_ns,workload,overlap,cpu_wall_min,steal_pct,idle_pct,nivcsw,migrations,concurrency_check,numa_check")
	csv("tasks.csv", key ",rep,task,pu,node,mm_node,cpu_seen,faults,fault_ns,teardown_ns,minflt,rss_growth_kb,anon_huge_kb,get_ns_in_fault,span_start_ns,span_wall_ns,span_cpu_ns,cpu_wall,steal_pct,idle_pct,nivcsw,migrations,sched,start_cpu,cpu_node,table_node,mm_node_seen")
	csv("counters.csv", key ",passes,counter_node,gets,puts,zaps,mm_exits,ref_gets,ref_puts,counter_touches,cas_retries,allocs,frees,alloc_races_lost,alloc_failures,shrinks,broken,counter_touches_per_fault,alloc_ns")
	csv("timing.csv", key ",round,passes,calibrate_reps,start_ms,calibrate_ms,warmup_ms,measure_ms,stop_ms,wall_ms")
	csv("c2c-pus.csv", "pu,core,package,node")
}
{
	plan_pu[$1, $2, $3] = $4; plan_node[$1, $2, $3] = $7
	core[$4] = $5; package[$4] = $6; node[$4] = $7
}
END {
	# c2c: every PU in compact order
	hdr = "pu"
	for (i = 0; i < npus; i++) {
		pu = plan_pu["compact", npus, i]
		hdr = hdr "," pu
		csv("c2c-pus.csv", pu "," core[pu] "," package[pu] "," node[pu])
	}
	csv("c2c.csv", hdr)
	for (i = 0; i < npus; i++)
		for (j = i + 1; j < npus; j++) {
			a = plan_pu["compact", npus, i]; b = plan_pu["compact", npus, j]
			# every 97th pair sampled out, as --max-pairs leaves some
			cell[i, j] = cell[j, i] = ((i * npus + j) % 97 == 5) ? "" : sprintf("%.2f", handoff(a, b))
		}
	for (i = 0; i < npus; i++) {
		line = plan_pu["compact", npus, i]
		for (j = 0; j < npus; j++)
			line = line "," (i == j ? "" : cell[i, j])
		csv("c2c.csv", line)
	}
	# the mean hand-off between the planned PUs of each placement and task count
	for (p = 1; p <= 2; p++) {
		pl = p == 1 ? "compact" : "scatter"
		for (t = 1; t <= ntl; t++) {
			n = T[t]; sum = 0; pairs = 0
			for (i = 0; i < n; i++)
				for (j = i + 1; j < n; j++) {
					sum += handoff(plan_pu[pl, n, i], plan_pu[pl, n, j]); pairs++
				}
			mean_handoff[pl, n] = pairs ? sum / pairs : 0
		}
	}
	csv("history.csv", "time,git_revision,host,kernel_release,strategy,fault,task_kind,tasks,placement,step,faults_per_pass,reps,ns_per_fault_median,ns_per_fault_stddev,faults_per_sec_median,teardown_ns_per_fault_median,fairness_min_max")
	configs = 0; runs = 0
	for (p = 1; p <= 2; p++) {
		pl = p == 1 ? "compact" : "scatter"
		for (fi = 1; fi <= 2; fi++) {
			fault = fi == 1 ? "emulated" : "kernel"
			for (ki = 1; ki <= 2; ki++) {
				kind = ki == 1 ? "thread" : "process"
				for (t = 1; t <= ntl; t++)
					for (si = 1; si <= (fault == "kernel" ? 5 : 4); si++)
						config(word("global mmflag persistent percpu native", si), fault, kind, T[t], pl)
			}
		}
	}
	meta()
	history()
}
# history.csv: 40 nightly CI runs of the emulated compact rows, global 15%
# slower from the 25th on
function history(    r, i, f, ns, rev) {
	for (r = 1; r <= 40; r++) {
		rev = sprintf("%07x", (r * 2654435761) % 268435456)
		for (i = 1; i <= nhist; i++) {
			split(hist[i], f, ",")
			ns = f[9] * (0.97 + 0.06 * lcg()) * (f[1] == "global" && r >= 25 ? 1.15 : 1)
			csv("history.csv", sprintf("2026-%s,%s,fabricated,6.18.0-hzf-persistent+,%s,%s,%s,%s,%s,%s,%s,%s,%.3f,%s,%.0f,%s,%s", \
				r <= 30 ? sprintf("11-%02dT03:00:00Z", r) : sprintf("12-%02dT03:00:00Z", r - 30), rev, \
				f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], ns, f[12], f[4] * 1e9 / ns, f[14], f[15]))
		}
	}
}
function word(s, i,    w) { split(s, w, " "); return w[i] }
# one configuration: its summary row, counters row, and each repetition
function config(s, fault, kind, n, pl,    l, h, ns, td, get, fair, lo, hi, k, pf, v, r, base, gets, mms, refs, touches, gs, ps) {
	l = log2(n); h = mean_handoff[pl, n]; configs++
	if (fault == "emulated") {
		ns = s == "persistent" ? 1.9 * (1 + 0.01 * l) : s == "percpu" ? 2.3 * (1 + 0.015 * l) : \
			s == "mmflag" ? (kind == "thread" ? 2.6 * (1 + 0.02 * l) : 2.5 * (1 + 0.01 * l)) : \
			3.9 + 0.95 * n * h
		td = s == "persistent" ? 1.0 : s == "mmflag" ? 1.2 : s == "percpu" ? 1.4 : 3.3 + 0.8 * n * h
		get = ""
	} else {
		base = kind == "thread" ? 1450 * (1 + 0.06 * l) + 0.8 * n : 1400 * (1 + 0.02 * l)
		get = s == "native" ? 0.1 : s == "persistent" ? 1.0 : s == "percpu" ? 2.2 : s == "mmflag" ? 3.5 : \
			16 + 0.3 * n * h
		ns = base + (s == "native" ? 0 : s == "persistent" ? 4 : s == "percpu" ? 9 : s == "mmflag" ? 12 : 18 + 0.3 * n * h)
		td = 480 * (1 + 0.05 * l) + (s == "global" ? 0.3 * n * h : 0)
	}
	if (n == 1)
		fair = 1
	else if (s == "global")
		fair = 0.95 / (1 + (pl == "scatter" ? 0.18 : 0.12) * l)
	else
		fair = (fault == "emulated" || kind == "process" ? 0.985 - 0.006 * l : 0.97 - 0.015 * l)
	k = s == "global" ? 2 : 1
	lo = ns * (1 - 0.02 - 0.004 * k * l); hi = ns * (1 + 0.03 + 0.01 * k * l)
	# the repetitions: the median, the fastest, the slowest and two between
	v[0] = ns; v[1] = lo; v[2] = (ns + hi) / 2; v[3] = (lo + ns) / 2; v[4] = hi
	gs = s == "global" ? (ns - (fault == "emulated" ? 1.9 : base)) / (ns + td) : s == "mmflag" ? 0.03 : 0.01
	gs = gs < 0.005 ? 0.005 : gs
	ps = s == "global" ? (td - (fault == "emulated" ? 1.0 : 480)) / (ns + td) : 0.01
	ps = ps < 0.005 ? 0.005 : ps
	pf = perf_cols(s, fault, n, h, ns, 1)
	passes = int(2e8 / (n * fpp * ns) + 1)	# --min-ms 200
	cfg = s "," fault "," kind "," n "," pl ",2097152," fpp
	if (fault == "emulated" && pl == "compact")
		hist[++nhist] = sprintf("%s,%d,%.3f,%.3f,%.3f,%.3f,%.0f,%.3f,%.4f", cfg, reps, ns, lo, hi, (hi - lo) / 3, n * 1e9 / ns, td, fair)
	csv("summary.csv", sprintf("%s,%d,%.3f,%.3f,%.3f,%.3f,%.0f,%.3f,%.4f,%s,%s,%s,%.5f,%.5f,,,,usemem,0.0,0.0,0.000000,%.4f,%.4f,0,,,,%s", \
		cfg, reps, ns, lo, hi, (hi - lo) / 3, n * 1e9 / ns, td, fair, \
		get == "" ? "" : sprintf("%.3f", get), get == "" ? "" : sprintf("%.5f", get / ns), pf, gs, ps, \
		0.995 - 0.001 * l, 0.99 - 0.002 * l, tag))
	# counters.csv: every repetition and the warm-up; a reference per mm
	# (mmflag) or per CPU (percpu), a counter touch per get and put (global)
	gets = (reps + 1) * n * passes * fpp
	mms = (reps + 1) * (kind == "process" ? n : 1)
	refs = s == "global" ? gets : s == "mmflag" ? mms : s == "percpu" ? (reps + 1) * n : 0
	touches = s == "global" ? 2 * gets : 2 * refs
	csv("counters.csv", sprintf("%s,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,0,0,0,0,%.4f,%d", cfg, passes, plan_node[pl, n, 0], \
		gets, s == "global" ? gets : 0, gets, mms, refs, refs, touches, \
		s == "global" && n > 1 ? int(gets * 0.02 * l) : 0, reps + 1, s == "persistent" ? 0 : reps + 1, \
		touches / gets, (reps + 1) * 180000))
	for (r = 0; r < reps; r++)
		rep(s, fault, kind, n, pl, r, v[r], td * (0.97 + 0.06 * lcg()), fair * (0.98 + 0.04 * lcg()), get, gs, ps, l, h)
}
# the perf columns of one configuration or repetition
function perf_cols(s, fault, n, h, ns, x,    ins, cm) {
	ins = fault == "emulated" ? (s == "persistent" ? 9 : s == "percpu" ? 14 : s == "mmflag" ? 13 : 16 + 2 * log2(n)) : \
		5200 + (s == "global" ? 16 : 10)
	cm = s == "global" && n > 1 ? 0.95 : 0.002
	return sprintf("%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%d,0,0", ns * 2.9 * x, ins, ins / (ns * 2.9 * x), \
		(fault == "kernel" ? 40 : 1) * (cm + 0.05), cm + (fault == "kernel" ? 3 : 0), cm * 1.1 + 0.01, \
		s == "global" && h > 75 ? 0.6 : 0.001, fault == "kernel" ? 4.2 : 0.002, ns * 0.99 * x, \
		fault == "kernel" ? 1 : 0, 2 * n)
}
# one repetition: its samples row and its tasks rows, and its run in timing.csv
function rep(s, fault, kind, n, pl, r, ns, td, fair, get, gs, ps, l, h,    faults, wall, i, u, tf, tt, pu, nd, mm, gi, kc, line) {
	faults = passes * fpp
	wall = faults * (ns + td)
	kc = fault == "kernel" ? "0,0,1.0000,0,0,ok," sprintf("%.3f", get * (0.97 + 0.06 * lcg())) : ",,,,,,"
	csv("samples.csv", sprintf("%s,%d,%d,%d,%.3f,%.0f,%.3f,%.4f,%s,%s,%d,%.5f,%.5f,,,,%.0f,0,0,0,usemem,%.4f,%.4f,0.000,%.3f,%d,0,ok,ok", \
		cfg, r, passes, n * faults, ns, n * 1e9 / ns, td, fair, kc, perf_cols(s, fault, n, h, ns, 0.98 + 0.04 * lcg()), \
		int(n * wall / 1e6), gs, ps, wall * 1.01, 0.995 - 0.001 * l * lcg(), 0.99 - 0.002 * l * lcg(), \
		n >= npus ? 0 : 100 * (1 - n / npus) * 0.98, int(n * lcg() * 3)))
	for (i = 0; i < n; i++) {
		# the slowest task takes ns a fault, the fastest fair of that
		u = n == 1 ? 1 : i == n - 1 ? 1 : i == 0 ? 0 : lcg()
		tf = faults * ns * (fair + (1 - fair) * u)
		tt = faults * td * (0.95 + 0.05 * lcg())
		pu = plan_pu[pl, n, i]; nd = plan_node[pl, n, i]
		mm = plan_node[pl, n, kind == "thread" ? 0 : i]
		gi = fault == "kernel" ? sprintf("%d,0,0,%.3f", faults, get * (0.95 + 0.1 * lcg())) : ",,,"
		csv("tasks.csv", sprintf("%s,%d,%d,%d,%d,%d,%d,%d,%.0f,%.0f,%s,%d,%.0f,%.0f,%.4f,0.000,0.000,%d,0,other,%d,%d,%d,%d", \
			cfg, r, i, pu, nd, mm, pu, faults, tf, tt, gi, int(i * 1500 * lcg()), tf + tt, (tf + tt) * 0.995, 0.995, \
			int(lcg() * 2), pu, nd, nd, mm))
	}
	runs++
	csv("timing.csv", sprintf("%s,%d,%d,%d,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f", cfg, r, passes, r == 0 ? 4 : 0, \
		0.3 + 0.05 * n, r == 0 ? 4 * wall / 1e6 : 0, wall / 1e6, wall / 1e6, 0.2 + 0.03 * n, \
		0.3 + 0.05 * n + (r == 0 ? 4 * wall / 1e6 : 0) + 2 * wall / 1e6 + 0.2 + 0.03 * n))
}
function meta(    m, t) {
	t = ""
	for (i = 1; i <= ntl; i++) t = t (i > 1 ? ", " : "") T[i]
	m = "{\n"
	m = m "  \"hzfbench_version\": \"0.1\",\n  \"git_revision\": \"fabricated\",\n  \"compiler\": \"12.2.0\",\n"
	m = m "  \"host\": \"fabricated\",\n"
	m = m sprintf("  \"cpu_model\": \"FABRICATED (chart tests) Intel(R) Xeon(R) Platinum 8490H\",\n")
	m = m "  \"machine\": \"x86_64\",\n"
	m = m sprintf("  \"online_cpus\": %d,\n", npus)
	m = m "  \"kernel_release\": \"6.18.0-hzf-persistent+\",\n  \"kernel_version\": \"#1 SMP PREEMPT_DYNAMIC\",\n"
	m = m "  \"thp\": {\"enabled\": \"madvise\", \"defrag\": \"madvise\", \"use_zero_page\": \"1\"},\n  \"set_thp\": null,\n"
	m = m "  \"perf_events\": [\"cycles\", \"instructions\", \"cache-references\", \"cache-misses\", \"L1-dcache-load-misses\", \"LLC-load-misses\", \"branch-misses\", \"task-clock\", \"page-faults\", \"context-switches\", \"cpu-migrations\"],\n"
	m = m "  \"unsupported_events\": [],\n  \"profile\": {\"period_ns\": 1000000, \"error\": null},\n"
	m = m "  \"config_persistent_huge_zero_folio\": \"n\",\n  \"kernel_config_source\": \"/proc/config.gz\",\n  \"kernel_strategy\": \"mmflag\",\n  \"virtualized\": null,\n"
	m = m sprintf("  \"topology\": {\"source\": \"synthetic: %s\", \"packages\": %d, \"numa_nodes\": %d, \"cores\": %d, \"pus\": %d},\n", synthetic, npk, nnodes, ncores, npus)
	m = m sprintf("  \"libnuma\": {\"available\": true, \"max_node\": %d},\n", nnodes - 1)
	m = m "  \"probes\": {\"inc_not_zero_ns\": 5.100, \"pointer_read_ns\": 0.400, \"busy_iters_per_ns\": 1.8000},\n"
	m = m "  \"command_line\": [\"sweep\", \"--faults\", \"emulated,kernel\", \"--placements\", \"compact,scatter\", \"--size\", \"1G\", \"--profile\", \"--tag\", \"" tag "\"],\n"
	m = m sprintf("  \"options\": {\"size\": 1073741824, \"step\": 2097152, \"fault_ns\": 0, \"reps\": %d, \"warmup\": 1, \"min_ms\": 200, \"counter_node\": -1, \"sched\": \"inherited\", \"strategies\": [\"global\", \"mmflag\", \"persistent\", \"percpu\", \"native\"], \"faults\": [\"emulated\", \"kernel\"], \"task_kinds\": [\"thread\", \"process\"], \"placements\": [\"compact\", \"scatter\"], \"tasks\": [%s], \"events\": [], \"profile\": true, \"shrink_hz\": 0, \"workload\": \"usemem\", \"inject\": null},\n", reps, t)
	m = m "  \"tag\": \"" tag "\",\n  \"doctor\": null,\n"
	m = m sprintf("  \"configurations\": %d,\n  \"timing\": {\"runs\": %d, \"runs_s\": 0, \"setup_s\": 0, \"write_s\": 0},\n", configs, runs)
	m = m "  \"start_time\": \"2026-12-04T00:00:00Z\",\n  \"end_time\": \"2026-12-04T06:00:00Z\",\n  \"complete\": true\n}"
	csv("meta.json", m)
}' "$plans"
