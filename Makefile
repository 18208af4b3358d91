# hzfbench: make, make test, make install, make clean
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
CC ?= cc
CFLAGS ?= -O2 -g
PKG_CONFIG ?= pkg-config

HWLOC_CFLAGS := $(shell $(PKG_CONFIG) --cflags hwloc 2>/dev/null)
HWLOC_LIBS := $(shell $(PKG_CONFIG) --libs hwloc 2>/dev/null || echo -lhwloc)
GIT_REV := $(shell git describe --always --dirty 2>/dev/null || echo unknown)
VERSION := 0.1

override CFLAGS += -std=gnu11 -pthread -Wall -Wextra -Werror $(HWLOC_CFLAGS) \
	-DHZF_VERSION='"$(VERSION)"'
LDLIBS += $(HWLOC_LIBS) -lnuma -lz -lm -pthread

BENCH := $(wildcard bench/*.c)
HARNESS := $(filter-out harness/main.c,$(wildcard harness/*.c))
LIB_OBJS := $(patsubst %.c,build/%.o,$(BENCH) $(HARNESS))
TEST_OBJS := $(patsubst %.c,build/%.o,$(wildcard tests/unit/*.c))

all: build/hzfbench

build/%.o: %.c $(wildcard bench/*.h harness/*.h tests/unit/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

# the revision is baked into meta.json; rebuild results.o when it changes
build/git-rev: FORCE
	@mkdir -p build
	@echo '$(GIT_REV)' | cmp -s - $@ || echo '$(GIT_REV)' > $@
build/harness/results.o: build/git-rev
build/harness/results.o: override CFLAGS += -DHZF_GIT_REV='"$(GIT_REV)"'

build/hzfbench: build/harness/main.o $(LIB_OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# the plain C yardstick for the real-fault loop (tools/vs-plain.sh)
build/plainfault: tools/plainfault.c
	@mkdir -p build
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $<

build/hzftest: $(TEST_OBJS) $(LIB_OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# installs missing build packages first when run as root on Debian
test:
	@tools/deps.sh build
	@$(MAKE) --no-print-directory build/hzfbench build/hzftest build/plainfault
	@tests/run.sh

# the benchmark itself: the default sweep of run.sh
bench:
	./run.sh

# every chart and report.html of a results folder: make plots RESULTS=results/...
plots: build/hzfbench
	@[ -n "$(RESULTS)" ] || { echo "make plots: RESULTS=DIR is needed (a results folder)" >&2; exit 2; }
	build/hzfbench report "$(RESULTS)"

# hzfbench's real-fault loop against a plain C loop, alternating rounds
bench-plain:
	tools/vs-plain.sh

# the contention model against measurement, round after round (docs/model.md)
model-check:
	tools/model-check.sh

DATADIR ?= $(PREFIX)/share/hzfbench

install: build/hzfbench
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/plots
	install -m 755 build/hzfbench $(DESTDIR)$(BINDIR)/hzfbench
	install -m 644 plots/*.gp $(DESTDIR)$(DATADIR)/plots/

clean:
	rm -rf build

.PHONY: all test bench bench-plain model-check plots install clean FORCE
