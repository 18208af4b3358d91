#!/usr/bin/env bash
# hzfbench vm: its refusals, then, where qemu-system-x86_64 is installed,
# real guests under TCG booting Debian's cloud kernel (fetched once with
# apt-get download): the topology one of 2 sockets x 2 cores x 2 threads in
# 2 NUMA nodes sees, in one of 2 sockets x 2 CPUs in 2 nodes a scatter run whose tasks and counter page are verified on
# their nodes, detect --behaviour (and in each kernel make kernels built,
# where built, and with a second process holding the folio: cannot tell,
# naming it), detect --lifecycle (the same) and detect's "cannot tell" where
# faults map no huge zero folio, a command's exit status, --timeout, --boot-timeout and SIGTERM.
# A --mirror-host guest: every vCPU pinned to its host PU, read back into vm.json.
# A qemu that aborts (as under nested KVM here): one line with its own error;
# under --accel auto and run.sh --kernels --kvm, TCG after it (where /dev/kvm opens).
# --profile in the global and persistent kernels: the share of samples in the get.
# --no-guests: the refusals alone (make test; make test-vm runs it all).
# Ends with "vm: N passed, N failed, N skipped".
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
json=$build/jsoncheck

# refused: ARGS, the status, and a piece of the one line said
refused() {
	local want=$1 said=$2
	shift 2
	if HZF_KERNELS=$tmp/no-kernels $bin vm --out "$tmp/never" "$@" >"$tmp/out" 2>"$tmp/err"; then
		rc=0
	else
		rc=$?
	fi
	if [ "$rc" = "$want" ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -qF -- "$said" "$tmp/err" &&
		[ ! -e "$tmp/never" ]; then
		ok "vm $*: refused, exit $want"
	else
		fail "vm $*: refused with exit $want and '$said'" "exit $rc" "$(cat "$tmp/err")"
	fi
}
refused 2 "unexpected argument (the guest's subcommand goes after --)" topo
refused 2 "no subcommand to run" --smp 2 --
refused 2 "--sockets: 2: does not divide --smp 3 evenly" --smp 3 -- topo
refused 2 "--mem: 300M: not a whole number of 2 MiB for each of 4 nodes" --nodes 4 --mem 300M -- topo
refused 2 "--threads: 3: does not divide the 4 CPUs of a socket evenly" --smp 8 --threads 3 -- topo
refused 2 "--nodes: 4: does not divide the 6 cores of 2 threads evenly: a core's threads would be on two nodes" \
	--smp 12 --threads 2 --nodes 4 -- topo
refused 2 "--smp: 289: over 288, the most CPUs qemu's q35 machine takes" --smp 289 -- topo
refused 2 "--nodes: 9: over 8, the most NUMA nodes hzfbench vm makes" --smp 18 --nodes 9 -- topo
refused 2 "--accel: xen: not auto, tcg or kvm" --accel xen -- topo
refused 2 "--tcg: x: not multi or single" --tcg x -- topo
refused 2 "--boot-timeout: 5s: not a number" --boot-timeout 5s -- topo
refused 2 "a guest does not boot guests of its own" -- vm -- topo
refused 2 "--smp: 4: --mirror-host takes the guest's shape from the host's PUs" --mirror-host --smp 4 -- topo
refused 2 "--cpus: 0: only with --mirror-host" --cpus 0 -- topo
refused 2 "--tcg: single: one host thread runs every vCPU" --mirror-host --tcg single -- topo
refused 2 "--placement: none: binds no PU: nothing to mirror" --mirror-host --placement none -- topo
refused 2 "--mirror-host: --cpus 4096: " --mirror-host --cpus 4096 -- topo
if command -v qemu-system-x86_64 >/dev/null 2>&1; then
	refused 2 "--kernel /nonexistent/bzImage: not debian, global, mmflag, persistent or a kernel file" \
		--kernel /nonexistent/bzImage -- topo
	refused 2 "--kernel persistent: $tmp/no-kernels/persistent/bzImage: No such file or directory (make kernels builds it)" \
		--kernel persistent -- topo
	# APIC IDs past 254 need x2APIC, which TCG emulates from qemu 9.0 on
	qemu=$(qemu-system-x86_64 --version | sed -n 's/.*version \([0-9]*\)\.\([0-9]*\).*/\1.\2/p')
	if [ "${qemu%%.*}" -lt 9 ]; then
		refused 2 "--smp: 256: APIC IDs up to 255 (4 sockets, 32 cores, 2 threads) need x2APIC, which qemu $qemu's TCG does not emulate" \
			--accel tcg --smp 256 --sockets 4 --threads 2 --nodes 8 --mem 8G -- topo
	else
		skip "vm --smp 256 under TCG refused" "qemu $qemu's TCG emulates x2APIC"
	fi
else
	skip "vm: a guest" "qemu-system-x86_64 is not installed (apt-get install qemu-system-x86)"
	finish vm
	exit
fi
# a qemu that aborts under KVM as nested KVM does here (-cpu host and max: an
# MSR it cannot set, then an assertion) and runs the real one otherwise; with
# ALWAYS=1 it aborts under any accelerator
fakeq=$tmp/fake-qemu
mkdir -p "$fakeq"
cat >"$fakeq/qemu-system-x86_64" <<FAKE
#!/bin/sh
case " \$* " in *" -accel kvm "*) ;; *) [ -n "\${ALWAYS:-}" ] || exec $(command -v qemu-system-x86_64) "\$@" ;; esac
echo "qemu-system-x86_64: warning: host doesn't support requested feature: CPUID.80000001H:ECX.svm [bit 2]" >&2
echo 'qemu-system-x86_64: error: failed to set MSR 0x10a to 0x0' >&2
echo "qemu-system-x86_64: ../target/i386/kvm/kvm.c:3124: kvm_buf_set_msrs: Assertion \\\`ret == cpu->kvm_msr_buf->nmsrs' failed." >&2
kill -ABRT \$\$
FAKE
chmod +x "$fakeq/qemu-system-x86_64"
msr='qemu said "qemu-system-x86_64: error: failed to set MSR 0x10a to 0x0"'
# dies: NAME WANT ARGS...: qemu ends before /init, one line naming its own error, exit 1
dies() {
	local name=$1 want=$2
	shift 2
	if PATH=$fakeq:$PATH $bin vm --out "$tmp/$name" --kernel /etc/hostname "$@" -- topo \
		>"$tmp/$name.out" 2>"$tmp/$name.err"; then
		rc=0
	else
		rc=$?
	fi
	if [ "$rc" = 1 ] && [ "$(wc -l <"$tmp/$name.err")" = 1 ] && grep -qF -- "$want" "$tmp/$name.err" &&
		grep -qF "$msr; its console: $tmp/$name/console.log)" "$tmp/$name.err" &&
		grep -q '^qemu-system-x86_64: error: failed to set MSR 0x10a' "$tmp/$name/console.log"; then
		ok "vm $*, qemu aborting: exit 1, one line with qemu's own error"
	else
		fail "vm $*, qemu aborting: exit 1, one line with qemu's own error" "exit $rc" \
			"$(cat "$tmp/$name.err")"
	fi
}
if grep -q 'not a dynamic' < <(ldd "$(command -v busybox)" 2>&1); then
	ALWAYS=1 dies abort-tcg "the kernel did not start /init before its command ended (qemu killed by signal 6;" --accel tcg
	ALWAYS=1 dies abort-mirror "hzfbench: vm: --mirror-host: qemu ended before its QMP socket opened (" \
		--accel tcg --mirror-host
	if [ -c /dev/kvm ] && [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
		dies abort-kvm "the kernel did not start /init before its command ended (qemu killed by signal 6;" --accel kvm
		# run.sh --kernels --kvm: the probe says it in one line and the
		# guests go on under TCG (here they end there: no real kernel)
		mkdir -p "$tmp/fake-kernels/mmflag"
		cp /etc/hostname "$tmp/fake-kernels/mmflag/bzImage"
		PATH=$fakeq:$PATH HZF_KERNELS=$tmp/fake-kernels tools/kernels-run.sh "$tmp/kr" 2 5 1 '' \
			>"$tmp/kr.out" 2>"$tmp/kr.err" || true
		if [ "$(grep -c '^run.sh: --kvm: KVM cannot boot a guest to /init here' "$tmp/kr.err")" = 1 ] &&
			grep -qF "$msr; its console: $tmp/kr/kvm-probe/console.log)): the kernels run under TCG" "$tmp/kr.err" &&
			grep -q '^kernels: mmflag: the real-fault sweep in a guest (hzfbench vm --smp 4 ' "$tmp/kr.out"; then
			ok "run.sh --kernels --kvm, qemu aborting under KVM: one line with qemu's error, then the guests under TCG"
		else
			fail "run.sh --kernels --kvm, qemu aborting under KVM: one line, then TCG" \
				"$(cat "$tmp/kr.out" "$tmp/kr.err")"
		fi
	else
		skip "vm --accel kvm and run.sh --kernels --kvm, qemu aborting" "/dev/kvm does not open here"
	fi
else
	skip "vm, qemu aborting" "busybox is not static (apt-get install busybox-static)"
fi
if [ "${1:-}" = --no-guests ]; then	# make test: the guests are make test-vm's
	skip "vm: the guests" "make test-vm boots them (about a minute here)"
	finish vm
	exit
fi

start=$(date +%s)
guest() {	# guest NAME ARGS...: hzfbench vm --out $tmp/NAME ARGS; $rc
	local name=$1
	shift
	# a boot stuck before /init (TCG, seen here: migration/N soft lockups) is
	# booted again after 60 s; these guests come up in 4-16 s
	if $bin vm --accel tcg --timeout 300 --boot-timeout 60 --out "$tmp/$name" "$@" \
		>"$tmp/$name.out" 2>"$tmp/$name.err"; then
		rc=0
	else
		rc=$?
	fi
}

# --- the topology the guest sees: SMT threads, each core's in one node ---
# (compact places every core's first PU, then every core's second: 2 PUs a core)
guest topo --smp 8 --sockets 2 --threads 2 --nodes 2 --mem 2G -- topo --placement compact --tasks 8
if [ "$rc" = 0 ] && grep -q '^machine: 2 packages, 2 NUMA nodes, 4 cores, 8 PUs' "$tmp/topo.out" &&
	grep -q '^placement compact, 8 tasks: PUs 0,2,4,6,1,3,5,7$' "$tmp/topo.out" &&
	grep -q '^  NUMA node 0: PUs 0-3,' "$tmp/topo.out" && grep -q '^  NUMA node 1: PUs 4-7,' "$tmp/topo.out" &&
	[ "$($json "$tmp/topo/vm.json" complete)" = true ] &&
	[ "$($json "$tmp/topo/vm.json" virtualized)" = tcg ] &&
	[ "$($json "$tmp/topo/vm.json" vm.threads)" = 2 ] &&
	[ "$($json "$tmp/topo/vm.json" vm.nodes)" = 2 ]; then
	ok "vm topo: the guest sees 2 packages, 4 cores of 2 PUs, 2 NUMA nodes of 2 whole cores ($(sed -n 's/.*under tcg, //p' "$tmp/topo.err"))"
else
	fail "vm topo: 2 threads a core, 2 nodes" "exit $rc" "$(cat "$tmp/topo.out" "$tmp/topo.err")" "$(tail -5 "$tmp/topo/console.log" 2>/dev/null)"
fi

# --- --mirror-host: the host's shape, each vCPU pinned to its PU and read back ---
host_pus=$(nproc --all)
guest mirror --mirror-host -- topo
if [ "$rc" = 0 ] && [ "$($json "$tmp/mirror/vm.json" complete)" = true ] &&
	[ "$($json "$tmp/mirror/vm.json" vm.cpus)" = "$host_pus" ] &&
	[ "$($json "$tmp/mirror/vm.json" mirror.read_back)" = true ] &&
	grep -q "^machine: .*, $host_pus PUs" "$tmp/mirror.out"; then
	pinned=yes
	for ((i = 0; i < host_pus; i++)); do
		pu=$($json "$tmp/mirror/vm.json" "mirror.vcpus.$i.host_pu")
		[ "$($json "$tmp/mirror/vm.json" "mirror.vcpus.$i.cpus_allowed")" = "$pu" ] || pinned=no
	done
	if [ "$pinned" = yes ] && [ "$($json "$tmp/mirror/vm.json" mirror.nodes.0.bytes_elsewhere)" = 0 ] &&
		[ "$($json "$tmp/mirror/vm.json" mirror.nodes.0.bytes_on_host_node)" -ge $((1 << 30)) ]; then
		ok "vm --mirror-host: $host_pus vCPUs, each pinned to its host PU and read back, node 0's 1 GiB on host node $($json "$tmp/mirror/vm.json" mirror.nodes.0.host_node) ($($json "$tmp/mirror/vm.json" mirror.nodes.0.policy))"
	else
		fail "vm --mirror-host: pinning and binding read back" "$(cat "$tmp/mirror/vm.json")"
	fi
else
	fail "vm --mirror-host -- topo" "exit $rc" "$(cat "$tmp/mirror.out" "$tmp/mirror.err")" "$(tail -5 "$tmp/mirror/console.log" 2>/dev/null)"
fi

# a qemu that ends before it can be pinned: one line, and its own words in console.log
guest mirror-bad --mirror-host --kernel /etc/hostname -- topo
if [ "$rc" = 1 ] && [ "$(wc -l <"$tmp/mirror-bad.err")" = 1 ] &&
	grep -q "^hzfbench: vm: --mirror-host: qemu.* (qemu said \"qemu: [^\"]*\"; its console: $tmp/mirror-bad/console.log)$" "$tmp/mirror-bad.err" &&
	grep -q '^qemu: ' "$tmp/mirror-bad/console.log" &&
	[ "$($json "$tmp/mirror-bad/vm.json" ending)" = "not started" ]; then
	ok "vm --mirror-host, qemu ending at once: one line with qemu's own error, exit 1, its reason in console.log ($(grep -m 1 '^qemu: ' "$tmp/mirror-bad/console.log"))"
else
	fail "vm --mirror-host, qemu ending at once" "exit $rc" "$(cat "$tmp/mirror-bad.err")" "$(cat "$tmp/mirror-bad/console.log" 2>/dev/null)"
fi

# --accel auto where qemu aborts under KVM: one line with its error, then the guest under TCG
if [ -c /dev/kvm ] && [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
	if PATH=$fakeq:$PATH $bin vm --accel auto --timeout 300 --boot-timeout 60 --out "$tmp/auto" -- topo \
		>"$tmp/auto.out" 2>"$tmp/auto.err"; then
		rc=0
	else
		rc=$?
	fi
	if [ "$rc" = 0 ] && grep -qxF "hzfbench: vm: kvm: qemu stopped before /init ($msr; its console: $tmp/auto/console.log): trying tcg" "$tmp/auto.err" &&
		[ "$($json "$tmp/auto/vm.json" virtualized)" = tcg ] && [ "$($json "$tmp/auto/vm.json" boots)" = 2 ]; then
		ok "vm --accel auto, qemu aborting under KVM: one line with its error, then the guest under TCG"
	else
		fail "vm --accel auto, qemu aborting under KVM: its error, then TCG" "exit $rc" "$(cat "$tmp/auto.err")"
	fi
else
	skip "vm --accel auto, qemu aborting under KVM" "/dev/kvm does not open here"
fi

# --- scatter: tasks on CPUs of different nodes, the counter's page on node 1, verified ---
guest numa -- run --strategy global --placement scatter --tasks 2 --reps 2 --warmup 0 --min-ms 50 \
	--events none --counter-node 1 --out r
r=$tmp/numa/r
if [ "$rc" = 0 ] && meta_complete "$r"; then
	ok "vm run --placement scatter --counter-node 1: exit 0, results brought back whole"
	nodes=$(cols "$r/tasks.csv" task start_cpu cpu_node table_node | sort -u | tr '\n' ';')
	if printf '%s' "$nodes" | grep -qE '^0 [01] 0 0;1 [23] 1 1;$'; then
		ok "vm run: task 0 ran on node 0, task 1 on node 1, each task's table on its node ($nodes)"
	else
		fail "vm run: tasks on nodes 0 and 1" "task start_cpu cpu_node table_node: $nodes"
	fi
	checks=$(cols "$r/samples.csv" numa_check | sort -u | tr '\n' ' ')
	counter=$(cols "$r/counters.csv" counter_node)
	if [ "$checks" = "ok " ] && [ "$counter" = 1 ]; then
		ok "vm run: numa_check ok in every repetition, the counter on node $counter"
	else
		fail "vm run: numa_check ok, counter on node 1" "numa_check: $checks" "counter_node: $counter"
	fi
	if [ "$($json "$r/meta.json" virtualized)" = tcg ] && [ "$($json "$r/meta.json" vm.nodes)" = 2 ] &&
		[ "$($json "$r/meta.json" vm.threads)" = 1 ] &&
		[ "$($json "$r/meta.json" topology.numa_nodes)" = 2 ]; then
		ok "vm run: meta.json says virtualized tcg, 1 thread a core and 2 nodes asked, 2 seen"
	else
		fail "vm run: meta.json's vm" "$(grep -E '"(virtualized|vm)"' "$r/meta.json")"
	fi
else
	fail "vm run --placement scatter" "exit $rc" "$(cat "$tmp/numa.out" "$tmp/numa.err")" "$(tail -5 "$tmp/numa/console.log" 2>/dev/null)"
fi

# --- real faults of thread tasks in Debian's kernel (THP always): no false rss ---
# (Rss counted the program's files the other threads paged in: 7-10 MiB at 4
# threads, no huge page among them. What may still flag a repetition is a
# huge page appearing in the shared mm while it runs, whoever's: CI saw one
# in 12. Every rss here must come with AnonHugePages grown by one.)
guest kfault -- sweep --faults kernel --strategies native,mmflag --task-kinds thread --tasks 1,4 \
	--reps 3 --min-ms 20 --events none --size 64M --out r
r=$tmp/kfault/r
rows=$(cols "$r/samples.csv" tasks rss_growth_kb anon_huge_kb kernel_check 2>/dev/null)
if [ "$rc" = 0 ] && meta_complete "$r" && [ "$(wc -l <<<"$rows")" = 12 ] &&
	awk '$4 != "ok" && !($4 == "rss" && $3 >= 2048) { bad++ } END { exit bad > 0 }' <<<"$rows"; then
	ok "vm sweep --faults kernel, threads 1 and 4: 12 repetitions, none flagged rss without a huge page grown ($(awk '$4 == "ok"' <<<"$rows" | wc -l) ok)"
else
	fail "vm sweep --faults kernel: no rss flag without a huge page" "exit $rc" "$(tr '\n' ';' <<<"$rows")" \
		"$(tail -3 "$tmp/kfault.err")"
fi

# --- detect in the stock guest: Debian's kernel counts by mm (mmflag) ---
# (THP in madvise mode, as on the host: under Debian's default, always, an
# ASan build's own shadow reads map the huge zero folio in detect's mm,
# which then holds it, and detect cannot tell)
guest detect --append transparent_hugepage=madvise -- detect --behaviour --allow-drop-caches
if [ "$rc" = 0 ] && [ "$(head -1 "$tmp/detect.out")" = mmflag ]; then
	ok "vm detect --behaviour in Debian's kernel: mmflag ($(sed -n 2p "$tmp/detect.out" | sed 's/^ *//'))"
else
	fail "vm detect --behaviour: mmflag" "exit $rc" "$(cat "$tmp/detect.out" "$tmp/detect.err")"
fi

# --- detect in each kernel make kernels built: the verdict is the variant's name ---
for k in mmflag persistent global; do
	if [ ! -r "build/kernels/$k/bzImage" ]; then
		skip "vm detect --behaviour in the $k kernel" "build/kernels/$k/bzImage not built (make kernels)"
		continue
	fi
	guest "detect-$k" --kernel "$k" -- detect --behaviour --allow-drop-caches
	if [ "$rc" = 0 ] && [ "$(head -1 "$tmp/detect-$k.out")" = "$k" ]; then
		ok "vm detect --behaviour in the $k kernel: $k ($(sed -n 2p "$tmp/detect-$k.out" | sed 's/^ *//'))"
	else
		fail "vm detect --behaviour in the $k kernel" "exit $rc" "$(cat "$tmp/detect-$k.out" "$tmp/detect-$k.err")"
	fi
done

# --- a second process holding the folio: cannot tell, naming it, in each kernel ---
for k in mmflag persistent global; do
	if [ ! -r "build/kernels/$k/bzImage" ]; then
		skip "vm detect --behaviour --holder in the $k kernel" "build/kernels/$k/bzImage not built (make kernels)"
		continue
	fi
	guest "holder-$k" --kernel "$k" -- detect --behaviour --holder --allow-drop-caches
	out=$tmp/holder-$k.out
	holder=$(sed -n 's/^hzfbench: detect: --holder: \([0-9]*\) maps the huge zero folio.*/\1/p' "$out")
	if [ "$rc" = 1 ] && [ -n "$holder" ] &&
		grep -q "^hzfbench: detect: cannot tell: $holder (hzfbench) maps the huge zero folio (PFN " "$out" &&
		! grep -qE '^(global|mmflag|persistent)$' "$out"; then
		ok "vm detect --behaviour --holder in the $k kernel: $(grep -o 'cannot tell: .*' "$out")"
	else
		fail "vm detect --behaviour --holder in the $k kernel: cannot tell, naming the holder" "exit $rc" "$(cat "$out" "$tmp/holder-$k.err")"
	fi
done

# --- seed 007's profile on the kernel's own function: in the global kernel
# (a reference a fault) --profile finds samples in get_huge_zero_folio at 4
# thread tasks on 4 vCPUs; in the persistent one (a pointer read) under 0.5% ---
for k in global persistent; do
	if [ ! -r "build/kernels/$k/bzImage" ]; then
		skip "vm run --profile in the $k kernel" "build/kernels/$k/bzImage not built (make kernels)"
		continue
	fi
	guest "prof-$k" --kernel "$PWD/build/kernels/$k/bzImage" --smp 4 -- run --fault kernel \
		--strategy native --tasks 4 --reps 3 --min-ms 200 --events none --profile --out r
	r=$tmp/prof-$k/r
	share=$(cols "$r/summary.csv" kernel_get_share 2>/dev/null)
	top=$(awk -F, '$8 == "[k]" { printf "%s %.2f%%", $9, 100 * $11; exit }' "$r/profile.csv" 2>/dev/null)
	if [ "$rc" = 0 ] && meta_complete "$r" && [ -n "$share" ] &&
		if [ "$k" = global ]; then
			awk -v s="$share" 'BEGIN { exit !(s > 0) }'
		else
			awk -v s="$share" 'BEGIN { exit !(s < 0.005) }'
		fi; then
		ok "vm run --profile in the $k kernel, 4 tasks: $(awk -v s="$share" 'BEGIN { printf "%.2f%%", 100 * s }') of samples in its get ($([ "$k" = global ] && echo 'above 0' || echo 'under 0.5%'); top kernel symbol: $top)"
	else
		fail "vm run --profile in the $k kernel: the get's share" "exit $rc" "kernel_get_share: $share" "$(cat "$tmp/prof-$k.err")" "$(head -12 "$r/profile.csv" 2>/dev/null)"
	fi
done

# --- detect --lifecycle in Debian's kernel: the folio's life is mmflag's ---
# (THP madvise, as above: the folio held by an ASan build's own shadow reads
# would look like a leak)
guest lifecycle --append transparent_hugepage=madvise -- detect --lifecycle --allow-drop-caches
if [ "$rc" = 0 ] && grep -q '^lifecycle: expecting mmflag, from detect --behaviour' "$tmp/lifecycle.out" &&
	grep -q '^lifecycle: mmflag: the folio.s life matched, 10 steps$' "$tmp/lifecycle.out" &&
	[ "$(grep -c ': ok$' "$tmp/lifecycle.out")" = 11 ]; then
	ok "vm detect --lifecycle in Debian's kernel: mmflag's, 11 checks ok ($(grep '^  exit' "$tmp/lifecycle.out" | sed 's/.*a fresh fault: //'))"
else
	fail "vm detect --lifecycle: mmflag" "exit $rc" "$(cat "$tmp/lifecycle.out" "$tmp/lifecycle.err")"
fi

# --- THP never: no verdict, "cannot tell" and why, exit 1 ---
guest thp-never --append transparent_hugepage=never -- detect --behaviour --allow-drop-caches
if [ "$rc" = 1 ] && grep -q '^hzfbench: detect: cannot tell: THP is never' "$tmp/thp-never.out" &&
	! grep -qE '^(global|mmflag|persistent)' "$tmp/thp-never.out"; then
	ok "vm detect --behaviour, THP never: $(grep -o 'cannot tell: [^:]*' "$tmp/thp-never.out")"
else
	fail "vm detect --behaviour, THP never: cannot tell" "exit $rc" "$(cat "$tmp/thp-never.out" "$tmp/thp-never.err")"
fi

# --- the kernels make kernels built: --lifecycle passes in each; a 2 MiB THP
# size of never (6.8+) leaves enabled madvise, and only the faults' pagemap
# says they were not huge; the leaky global (a write after a read kept its
# reference; kept where built) fails at the write ---
for k in mmflag persistent global global-leaky; do
	if [ ! -r "build/kernels/$k/bzImage" ]; then
		skip "vm detect --lifecycle in the $k kernel" "build/kernels/$k/bzImage not built (make kernels)"
		continue
	fi
	guest "lifecycle-$k" --kernel "$PWD/build/kernels/$k/bzImage" -- detect --lifecycle --allow-drop-caches
	out=$tmp/lifecycle-$k.out
	if [ "$k" = global-leaky ]; then
		if [ "$rc" = 1 ] && grep -q '^lifecycle: expecting global' "$out" &&
			grep -q '^hzfbench: detect: lifecycle: cow: a leak' "$out" &&
			grep -q '^  cow .*: LEAK$' "$out"; then
			ok "vm detect --lifecycle in the leaky global kernel: a leak at the write (COW)"
		else
			fail "vm detect --lifecycle in the leaky global kernel: a leak at cow" "exit $rc" "$(cat "$out" "$tmp/lifecycle-$k.err")"
		fi
	elif [ "$rc" = 0 ] && grep -q "^lifecycle: $k: the folio.s life matched, 10 steps$" "$out"; then
		ok "vm detect --lifecycle in the $k kernel: $k's, $(grep -c ': ok$' "$out") checks ok"
	else
		fail "vm detect --lifecycle in the $k kernel" "exit $rc" "$(cat "$out" "$tmp/lifecycle-$k.err")"
	fi
done
if [ -r build/kernels/mmflag/bzImage ]; then
	guest thp-2m-never --kernel "$PWD/build/kernels/mmflag/bzImage" --append thp_anon=2M:never -- detect --behaviour --allow-drop-caches
	if [ "$rc" = 1 ] &&
		grep -q '^hzfbench: detect: cannot tell: the first fault: pagemap shows no huge zero folio .*the 4 KiB zero page.*hugepages-2048kB/enabled is never' \
			"$tmp/thp-2m-never.out" && ! grep -qE '^(global|mmflag|persistent)' "$tmp/thp-2m-never.out"; then
		ok "vm detect --behaviour, thp_anon=2M:never: cannot tell, the fault mapped the 4 KiB zero page"
	else
		fail "vm detect --behaviour, thp_anon=2M:never: cannot tell" "exit $rc" "$(cat "$tmp/thp-2m-never.out" "$tmp/thp-2m-never.err")"
	fi
else
	skip "vm detect --behaviour, thp_anon=2M:never" "build/kernels/mmflag/bzImage not built (make kernels)"
fi

# --- the guest command's exit status is vm's ---
guest status -- run --tasks 0
if [ "$rc" = 2 ] && grep -q '^hzfbench: --tasks: 0' "$tmp/status.out" &&
	[ "$($json "$tmp/status/vm.json" exit_status)" = 2 ]; then
	ok "vm -- run --tasks 0: the guest's exit 2 and its error come back"
else
	fail "vm: the guest's exit status" "exit $rc" "$(cat "$tmp/status.out" "$tmp/status.err")"
fi

# --- a guest past --timeout is stopped, said in one line, left incomplete ---
mkdir -p "$tmp/scratch"
if TMPDIR=$tmp/scratch $bin vm --accel tcg --timeout 1 --out "$tmp/late" -- topo >"$tmp/late.out" 2>"$tmp/late.err"; then
	rc=0
else
	rc=$?
fi
if [ "$rc" = 124 ] && [ "$(wc -l <"$tmp/late.err")" = 1 ] &&
	grep -q 'the guest was still running after --timeout 1 s: stopped' "$tmp/late.err" &&
	[ "$($json "$tmp/late/vm.json" complete)" = false ] &&
	[ "$($json "$tmp/late/vm.json" ending)" = timeout ] && ! pgrep -f "$tmp/scratch" >/dev/null &&
	[ -z "$(ls -A "$tmp/scratch")" ]; then
	ok "vm --timeout 1: exit 124, one line, vm.json incomplete, qemu gone, no scratch left"
else
	fail "vm --timeout 1" "exit $rc" "$(cat "$tmp/late.err")" "$(cat "$tmp/late/vm.json" 2>/dev/null)"
fi

# --- a kernel that has not started /init in --boot-timeout: stopped, booted once more ---
# (a 64-CPU tcg guest once sat 90 minutes silent; no guest here reaches /init in 1 s)
if TMPDIR=$tmp/scratch $bin vm --accel tcg --boot-timeout 1 --timeout 300 --out "$tmp/noboot" -- topo \
	>"$tmp/noboot.out" 2>"$tmp/noboot.err"; then
	rc=0
else
	rc=$?
fi
if [ "$rc" = 1 ] && [ "$(wc -l <"$tmp/noboot.err")" = 2 ] &&
	grep -q "^hzfbench: vm: tcg: no sign of /init after --boot-timeout 1 s (its console: $tmp/noboot/console.log): stopped, booting once more$" "$tmp/noboot.err" &&
	grep -q "^hzfbench: vm: the kernel did not start /init within --boot-timeout 1 s, 2 boots: stopped" "$tmp/noboot.err" &&
	grep -q '^hzfbench vm: tcg, 4 CPUs' "$tmp/noboot/console.log" &&
	grep -q '^hzfbench vm: boot 2, tcg, 4 CPUs' "$tmp/noboot/console.log" &&
	[ "$($json "$tmp/noboot/vm.json" ending)" = "no boot" ] && [ "$($json "$tmp/noboot/vm.json" boots)" = 2 ] &&
	[ "$($json "$tmp/noboot/vm.json" complete)" = false ] && ! pgrep -f "$tmp/scratch" >/dev/null &&
	[ -z "$(ls -A "$tmp/scratch")" ]; then
	ok "vm --boot-timeout 1: stopped, booted once more, then exit 1, two boots in console.log and vm.json"
else
	fail "vm --boot-timeout 1" "exit $rc" "$(cat "$tmp/noboot.err")" "$(cat "$tmp/noboot/vm.json" 2>/dev/null)"
fi

# --- SIGTERM while the guest runs: the same, and death by the signal ---
TMPDIR=$tmp/scratch $bin vm --accel tcg --timeout 300 --out "$tmp/term" -- topo >/dev/null 2>"$tmp/term.err" &
pid=$!
for _ in $(seq 100); do
	[ -n "$(ls -A "$tmp/scratch")" ] && [ -e "$tmp/term/vm.json" ] && break
	sleep 0.1
done
sleep 0.5
kill -TERM "$pid"
wait "$pid"
rc=$?
sleep 0.2
if [ "$rc" = 143 ] && grep -q "hzfbench: SIGTERM: stopped; $tmp/term left incomplete (vm.json \"complete\": false)" \
	"$tmp/term.err" && [ "$($json "$tmp/term/vm.json" complete)" = false ] &&
	! pgrep -f "$tmp/scratch" >/dev/null && [ -z "$(ls -A "$tmp/scratch")" ]; then
	ok "vm, SIGTERM: exit 143, one line, vm.json incomplete, qemu gone, no scratch left"
else
	fail "vm, SIGTERM" "exit $rc" "$(cat "$tmp/term.err")" "$(ls -A "$tmp/scratch")" "$(pgrep -af "$tmp/scratch")"
fi
echo "vm: the guest tests took $(($(date +%s) - start)) s"
finish vm
