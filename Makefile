# hzfbench: make, make test, make install, make clean
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
CC ?= cc
CFLAGS ?= -O2 -g
PKG_CONFIG ?= pkg-config

HWLOC_CFLAGS := $(shell $(PKG_CONFIG) --cflags hwloc 2>/dev/null)
HWLOC_LIBS := $(shell $(PKG_CONFIG) --libs hwloc 2>/dev/null || echo -lhwloc)
JANSSON_CFLAGS := $(shell $(PKG_CONFIG) --cflags jansson 2>/dev/null)
JANSSON_LIBS := $(shell $(PKG_CONFIG) --libs jansson 2>/dev/null || echo -ljansson)
GIT_REV := $(shell git describe --always --dirty 2>/dev/null || echo unknown)
VERSION := 0.1

override CFLAGS += -std=gnu11 -pthread -Wall -Wextra -Werror $(HWLOC_CFLAGS) $(JANSSON_CFLAGS) \
	-DHZF_VERSION='"$(VERSION)"'
LDLIBS += $(HWLOC_LIBS) $(JANSSON_LIBS) -lnuma -lz -lm -pthread

# libpfm4 (Debian: libpfm4-dev), where $(CC) finds its header: --events takes
# the PMU's own event names (harness/run/pmu.c). PFM=no builds without it.
# (-include, not a piped "#include": make 4.3 keeps a \# escape's backslash,
# and cc -E passes the stray line without an error: a machine without the
# header was taken for one with it)
ifndef PFM
PFM := $(shell $(CC) -E -include perfmon/pfmlib_perf_event.h -x c /dev/null >/dev/null 2>&1 && \
	echo yes || echo no)
endif
ifeq ($(PFM),yes)
PFM_CFLAGS := -DHZF_HAVE_PFM
LDLIBS += -lpfm
endif

# every object and binary goes under $(B): build/ for the plain build,
# build/asan, build/ubsan, build/tsan for the sanitizer builds below
B ?= build

BENCH := $(wildcard bench/*.c)
# harness/ in rooms (docs/architecture.md): each room's headers are found by
# name from any other
ROOMS := $(wildcard harness/*/)
ROOM_INC := $(patsubst %/,-iquote %,$(ROOMS))
HARNESS := $(filter-out harness/cli/main.c,$(wildcard harness/*/*.c))
LIB_OBJS := $(patsubst %.c,$(B)/%.o,$(BENCH) $(HARNESS))
TEST_OBJS := $(patsubst %.c,$(B)/%.o,$(wildcard tests/unit/*.c))

all: $(B)/hzfbench

$(B)/%.o: %.c $(wildcard bench/*.h harness/*/*.h tests/unit/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(ROOM_INC) -c -o $@ $<

# the revision is baked into meta.json; rebuild results.o when it changes
$(B)/git-rev: FORCE
	@mkdir -p $(B)
	@echo '$(GIT_REV)' | cmp -s - $@ || echo '$(GIT_REV)' > $@
$(B)/harness/out/results.o: $(B)/git-rev
$(B)/harness/out/results.o: override CFLAGS += -DHZF_GIT_REV='"$(GIT_REV)"'
# and pmu.o when libpfm4 comes or goes (PFM=no)
$(B)/pfm: FORCE
	@mkdir -p $(B)
	@echo '$(PFM)' | cmp -s - $@ || echo '$(PFM)' > $@
$(B)/harness/run/pmu.o: $(B)/pfm
$(B)/harness/run/pmu.o: override CFLAGS += $(PFM_CFLAGS)

$(B)/hzfbench $(B)/dist/hzfbench: $(B)/harness/cli/main.o $(LIB_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# make dist: hzfbench-VERSION-ARCH.tar.gz, the binary with the libraries it
# loads beyond glibc, for a machine with no compiler and no packages
# (tools/dist.sh). Its own link finds them in the bundle's lib/: DT_RPATH, not
# RUNPATH, since RUNPATH serves only the binary's own DT_NEEDED and not
# libhwloc's libudev
DIST := hzfbench-$(VERSION)-$(shell uname -m)
$(B)/dist/hzfbench: override LDFLAGS += -Wl,--disable-new-dtags -Wl,-rpath,'$$ORIGIN/../lib'
dist: $(B)/dist/hzfbench
	@tools/dist.sh $< $(DIST)
# the bundle's run.sh on a minimal Debian with none of the packages, as root
# (tests/dist-chroot.sh): debootstrap makes build/dist-root once (30 s here)
test-dist: dist
	@tools/deps.sh dist
	@tests/dist-chroot.sh

# the qemu guests of tests/vm.sh (make test runs its refusals only)
test-vm: $(B)/hzfbench $(B)/jsoncheck
	@tools/deps.sh vm
	@HZF_BUILD=$(B) tests/vm.sh

# ./run.sh whole in a TCG guest of 64 CPUs (4 sockets x 8 cores x 2 threads,
# 8 NUMA nodes), three times in a row, then its report here
# (tools/test-scale.sh; HZF_SCALE_RUNS sets how many): not part of make test
test-scale: $(B)/hzfbench
	@HZF_BUILD=$(B) HZF_SCALE_RUNS=$${HZF_SCALE_RUNS:-3} tools/test-scale.sh

# a big machine's counts here, oversubscribed: 1,024 thread and 1,024
# process tasks of eight events under ulimit -Sn 1024, the refusals, EMFILE
# (tools/test-big.sh, about a minute): not part of make test
test-big: $(B)/hzfbench $(B)/refuse
	@HZF_BUILD=$(B) tools/test-big.sh

# the plain C yardstick for the real-fault loop (tools/vs-plain.sh)
$(B)/plainfault: tools/plainfault.c
	@mkdir -p $(B)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $<

# the fault injector of tests/faults.sh: the kernel refuses one system call
$(B)/refuse: tools/refuse.c
	@mkdir -p $(B)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $<

# hzfbench's JSON reader for the tests: jsoncheck FILE [PATH]
$(B)/jsoncheck: tools/jsoncheck.c $(LIB_OBJS)
	$(CC) $(CFLAGS) $(ROOM_INC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(B)/hzftest: $(TEST_OBJS) $(LIB_OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# hzfbench and tally, a strategy only the tests know (tests/strategy/): that
# a sweep, the model and the charts take it in from its ops table alone
# (tests/e2e.sh)
$(B)/hzfbench-tally: $(B)/harness/cli/main.o $(B)/tests/strategy/strategy_tally.o $(LIB_OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# the fuzz targets (tests/fuzz/fuzz_NAME.c): replay-NAME feeds files to one
# with any compiler (make test replays the kept corpora and crashers; AFL++
# can drive it, @@ for the file), fuzz-NAME is libFuzzer's (make fuzz)
FUZZ_NAMES := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_INC := $(ROOM_INC) -iquote bench
$(B)/replay-%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c $(LIB_OBJS)
	$(CC) $(CFLAGS) $(FUZZ_INC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
$(B)/fuzz-%: tests/fuzz/fuzz_%.c $(LIB_OBJS)
	$(CC) $(CFLAGS) $(FUZZ_INC) -fsanitize=fuzzer $(LDFLAGS) -o $@ $^ $(LDLIBS)

# installs missing build packages first when run as root on Debian
test:
	@tools/deps.sh build
	@$(MAKE) --no-print-directory $(B)/hzfbench $(B)/hzftest $(B)/plainfault $(B)/refuse \
		$(B)/jsoncheck $(B)/hzfbench-tally dist \
		$(FUZZ_NAMES:%=$(B)/replay-%)
	@HZF_BUILD=$(B) tests/run.sh

# three guest kernels for hzfbench vm (tools/kernels.sh): not part of make test
kernels:
	@tools/kernels.sh

# sanitizer builds, with clang, each in a folder of its own; the binaries run
# as the plain ones do (make asan && HZF_BUILD=build/asan tests/run.sh), and
# make test-asan and the others build and run the tests under them. ASan and
# UBSan are one build: every test runs under both. TSan runs the tests that
# race threads on purpose (the strategies' races are on atomics only).
SAN_CC ?= clang
SAN_CFLAGS := -O1 -g -fno-omit-frame-pointer
asan ubsan tsan: FORCE
	@tools/deps.sh sanitize
	@$(MAKE) --no-print-directory B=build/$@ CC=$(SAN_CC) \
		CFLAGS='$(SAN_CFLAGS) $(SAN_$@)' \
		LDFLAGS='$(SAN_$@)' build/$@/hzfbench build/$@/hzftest build/$@/plainfault build/$@/refuse \
		build/$@/jsoncheck build/$@/hzfbench-tally \
		$(FUZZ_NAMES:%=build/$@/replay-%)
SAN_asan := -fsanitize=address,undefined -fno-sanitize-recover=all
SAN_ubsan := -fsanitize=undefined,integer-divide-by-zero,float-cast-overflow -fno-sanitize-recover=all
SAN_tsan := -fsanitize=thread

# every report a sanitizer writes goes to build/NAME/reports/, one file a
# process (forked tasks too, and reports from commands whose failure a test
# expects); any file there fails the target after the tests ran
SAN_REPORTS = rm -rf build/$(1)/reports && mkdir -p build/$(1)/reports
SAN_VERDICT = rc=$$?; if [ -n "$$(ls build/$(1)/reports)" ]; then head -n 40 build/$(1)/reports/*; \
	echo "$(1): sanitizer reports in build/$(1)/reports: failed"; exit 1; fi; exit $$rc
test-asan test-ubsan: test-%: %
	@$(call SAN_REPORTS,$*)
	@ASAN_OPTIONS=detect_leaks=1:log_path=$(CURDIR)/build/$*/reports/asan \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:log_path=$(CURDIR)/build/$*/reports/ubsan \
		HZF_BUILD=build/$* tests/run.sh; $(call SAN_VERDICT,$*)
test-tsan: tsan
	@$(call SAN_REPORTS,tsan)
	@TSAN_OPTIONS=halt_on_error=1:log_path=$(CURDIR)/build/tsan/reports/tsan \
		HZF_BUILD=build/tsan tests/run.sh --races; $(call SAN_VERDICT,tsan)

# libFuzzer, with ASan and UBSan: FUZZ_SECONDS (60) on each target, from
# its kept corpus (tests/fuzz/corpus/NAME, read only) into a scratch one
# (build/fuzz/corpus-NAME); a crash or leak is written to
# tests/fuzz/crashers/NAME/ and fails the target. make fuzz-merge adds what
# the scratch corpora found that is new to the kept ones.
FUZZ_SECONDS ?= 60
FUZZ_CFLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined
fuzz: FORCE
	@tools/deps.sh sanitize
	@$(MAKE) --no-print-directory B=build/fuzz CC=$(SAN_CC) CFLAGS='$(FUZZ_CFLAGS)' \
		LDFLAGS='-fsanitize=address,undefined' $(FUZZ_NAMES:%=build/fuzz/fuzz-%)
fuzz-smoke: fuzz
	@for t in $(FUZZ_NAMES); do \
		mkdir -p build/fuzz/corpus-$$t tests/fuzz/crashers/$$t; \
		echo "fuzz: $$t for $(FUZZ_SECONDS) s"; \
		build/fuzz/fuzz-$$t -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=10 \
			-print_final_stats=1 -artifact_prefix=tests/fuzz/crashers/$$t/ \
			build/fuzz/corpus-$$t tests/fuzz/corpus/$$t 2>build/fuzz/$$t.log || \
			{ tail -n 40 build/fuzz/$$t.log; echo "fuzz: $$t: crashed, input kept in tests/fuzz/crashers/$$t/"; exit 1; }; \
		grep -E '^stat::number_of_executed_units|^stat::new_units_added' build/fuzz/$$t.log | \
			sed "s/^/fuzz: $$t: /"; \
	done
fuzz-merge: fuzz
	@for t in $(FUZZ_NAMES); do build/fuzz/fuzz-$$t -merge=1 tests/fuzz/corpus/$$t \
		build/fuzz/corpus-$$t 2>&1 | grep -E 'MERGE-OUTER: [0-9]+ new files' | sed "s/^/$$t: /"; done

# cppcheck, clang-tidy (.clang-tidy says which checks and why the few left
# out), shellcheck; every finding fails. variableScope is off: kernel style
# declares at the top of a block. clang-tidy gets one file a process: with
# several, clang 14's va_list checker keeps names looked up in the first and
# may match them to another function in the next (LLVM bug 41311), which made
# test_vm.c fail CI once on a call that has no va_list.
LINT_C := $(BENCH) $(HARNESS) harness/cli/main.c $(wildcard tests/unit/*.c tests/fuzz/*.c tests/strategy/*.c) \
	tools/plainfault.c tools/refuse.c tools/jsoncheck.c
LINT_SH := run.sh .ci/run tests/*.sh tests/cli/*.sh tools/*.sh
lint:
	@tools/deps.sh lint
	cppcheck --enable=warning,style,performance,portability --suppress=variableScope \
		--std=c11 --inline-suppr --quiet --error-exitcode=1 -I bench $(patsubst %/,-I %,$(ROOMS)) $(LINT_C)
	@echo clang-tidy: $(words $(LINT_C)) files
	@printf '%s\n' $(LINT_C) | xargs -P "$$(nproc)" -n 1 sh -c 'clang-tidy --quiet "$$@" -- \
		-std=gnu11 -pthread -iquote bench $(ROOM_INC) -iquote tests/unit \
		-DHZF_VERSION=\"0\" -DHZF_GIT_REV=\"0\" $(PFM_CFLAGS) 2>/dev/null' clang-tidy | \
		{ ! grep -A3 -E 'warning:|error:'; }
	shellcheck -x $(LINT_SH)

DATADIR ?= $(PREFIX)/share/hzfbench
MANDIR ?= $(PREFIX)/share/man
COMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions

# the man page and bash completion, made from the option tables, as the
# docs' option tables are (make docs rewrites those; make test checks them)
$(B)/man/hzfbench.1: $(B)/hzfbench
	@mkdir -p $(dir $@)
	$< help --man-dir $(dir $@)
$(B)/hzfbench.bash: $(B)/hzfbench
	$< help --completion >$@
docs: $(B)/hzfbench
	tools/docs-options.sh $<

install: build/hzfbench build/man/hzfbench.1 build/hzfbench.bash
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/plots $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(COMPLETIONDIR)
	install -m 755 build/hzfbench $(DESTDIR)$(BINDIR)/hzfbench
	install -m 644 plots/*.gp $(DESTDIR)$(DATADIR)/plots/
	install -m 644 build/man/*.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 644 build/hzfbench.bash $(DESTDIR)$(COMPLETIONDIR)/hzfbench

# the benchmarks, by hand (README): the main job, the harness against a
# plain loop, the model round after round, and the charts of any folder;
# ARGS passes options on (make bench ARGS='--tasks 1,2')
bench:
	./run.sh $(ARGS)

bench-plain:
	tools/vs-plain.sh $(ARGS)

model-check:
	tools/model-check.sh $(ARGS)

plots:
	@[ -n "$(RESULTS)" ] || { echo "make plots: RESULTS=DIR: no results folder named" >&2; exit 2; }
	@$(MAKE) --no-print-directory $(B)/hzfbench
	$(B)/hzfbench report $(RESULTS)

clean:
	rm -rf build $(DIST).tar.gz

.PHONY: all docs dist test-dist test-vm test-scale test-big kernels test test-asan test-ubsan test-tsan lint fuzz fuzz-smoke fuzz-merge bench bench-plain model-check plots install clean FORCE
