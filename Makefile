# mcmsim — build, run, test, bench.
#
#   make run      set up, build, run the default demo (programs/demo.cfg)
#   make test     set up, build, run the whole Criterion suite (SAN=1: under
#                 AddressSanitizer and UndefinedBehaviorSanitizer)
#   make bench    simulated blocks per second and peak memory, beside a
#                 minimal SimGrid program (the engine's floor); the run
#                 files, exec mode and `make validate`, timed
#                 (make bench-exec: exec mode's figures alone)
#   make fuzz     the libFuzzer targets (run files, formulas), FUZZ_SECONDS
#                 each (default 60), under ASan + UBSan, with clang
#   make setup    install the Debian packages mcmsim needs (as root)

BUILD    ?= build
CC       ?= cc
SAN      ?= 0
DATADIR  := $(CURDIR)

CFLAGS   += -std=c11 -O2 -g -pthread -Wall -Wextra -Wshadow -Wstrict-prototypes \
            -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L \
            -Isim -Imachine -Iprograms -Ivalidate -DMCMSIM_DATADIR='"$(DATADIR)"'
LDLIBS   += -lsimgrid -lconfig -lmuparser -lcjson -lgsl -lgslcblas -lm -ldl
# a user program (programs/user_program.c) is a shared object that calls the
# exec layer in the binary that loads it: the binary exports its symbols
LDFLAGS  += -rdynamic -pthread
TEST_JOBS := 2
TEST_ENV  :=
ifeq ($(SAN),1)
  # one test at a time: Criterion forks its workers from a threaded runner,
  # and under ASan a fork can inherit a held allocator lock (seen: a hang).
  # Still seen with one job: a worker spinning forever on ASan's stack-trace
  # depot lock, taken by a runner thread recording a malloc's stack at the
  # moment of the fork.  Without malloc stacks (malloc_context_size=0) ASan
  # records none: every error is still caught and reported where it
  # happens, without the allocation's stack.
  TEST_JOBS := 1
  TEST_ENV  := ASAN_OPTIONS=malloc_context_size=0
  BUILD  := build-san
  CFLAGS += -fsanitize=address,undefined,float-cast-overflow -fno-omit-frame-pointer -fno-sanitize-recover=undefined,float-cast-overflow -DMCM_SANITIZE
  LDFLAGS += -fsanitize=address,undefined,float-cast-overflow
endif

PACKAGES := libsimgrid-dev libconfig-dev libcriterion-dev libmuparser-dev \
            libcjson-dev libgsl-dev gnuplot-nox pkg-config clang libclang-rt-14-dev pajeng

LIB_SRC  := $(wildcard sim/*.c machine/*.c programs/*.c validate/*.c)
LIB_SRC  := $(filter-out sim/main.c validate/main.c,$(LIB_SRC))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
TEST_SRC := $(filter-out tests/test_cuda_ref.c,$(wildcard tests/test_*.c))
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
MCMSIM   := $(BUILD)/mcmsim

.PHONY: all run test bench setup clean
all: $(MCMSIM)

# Set-up: install what is missing, once per machine (the stamp lives in
# the build directory, which a fresh clone does not have).
$(BUILD)/.setup:
	@missing=""; for p in $(PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "setup: installing$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing >/dev/null \
	    || { echo "setup: could not install$$missing"; exit 1; }; \
	fi
	@mkdir -p $(@D) && touch $@
setup: $(BUILD)/.setup

$(BUILD)/%.o: %.c | $(BUILD)/.setup
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/libmcmsim.a: $(LIB_OBJ)
	ar rcs $@ $^

$(MCMSIM): $(BUILD)/sim/main.o $(BUILD)/libmcmsim.a
	$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(BUILD)/tests/%: tests/%.c $(BUILD)/libmcmsim.a | $(BUILD)/.setup
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -MMD -MP -Itests $< $(BUILD)/libmcmsim.a $(LDFLAGS) $(LDLIBS) -lcriterion -o $@

run: $(MCMSIM)
	$(MCMSIM) run programs/demo.cfg

-include cuda_ref/cuda.mk

test: $(MCMSIM) $(TEST_BIN) $(if $(wildcard cuda_ref/cuda.mk),cuda-check)
	@set -e; for t in $(TEST_BIN); do echo "== $$t"; $(TEST_ENV) MCMSIM=$(MCMSIM) $$t --jobs $(TEST_JOBS); done

# Validation against the cards' committed measurements (no GPU needed).
$(BUILD)/validate/validate: $(BUILD)/validate/main.o $(BUILD)/libmcmsim.a
	$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

.PHONY: validate
validate: $(BUILD)/validate/validate
	$(BUILD)/validate/validate

BENCH_BIN := $(BUILD)/bench/bench $(BUILD)/bench/floor
$(BUILD)/bench/%: sim/bench/%.c $(BUILD)/libmcmsim.a | $(BUILD)/.setup
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $< $(BUILD)/libmcmsim.a $(LDFLAGS) $(LDLIBS) -o $@

bench: $(BENCH_BIN) $(MCMSIM) $(BUILD)/validate/validate
	$(BUILD)/bench/bench $(BUILD)/bench/floor $(MCMSIM) $(BUILD)/validate/validate

# Exec mode's figures alone: every run file with --exec, and Stockham 2^20.
.PHONY: bench-exec
bench-exec: $(BENCH_BIN) $(MCMSIM)
	$(BUILD)/bench/bench $(BUILD)/bench/floor $(MCMSIM) - --exec-only

# Fuzzing: the library again, built by clang for libFuzzer, in build-fuzz/;
# the corpus is a temporary copy of every run file and machine preset.
FUZZ_BUILD   := build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_RUNS    ?= -1
FUZZ_FLAGS   := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -DMCM_SANITIZE \
                -DKERNELS_MAX=4096
FUZZ_OBJ     := $(LIB_SRC:%.c=$(FUZZ_BUILD)/%.o)
FUZZ_TARGETS := $(FUZZ_BUILD)/fuzz_runfile $(FUZZ_BUILD)/fuzz_formula $(FUZZ_BUILD)/libconfig_leak
FUZZ_LSAN    := LSAN_OPTIONS=suppressions=$(CURDIR)/tests/fuzz/lsan.supp
FUZZ_SEEDS   := 'n/(2^(i+1)*l)' 'ceil(log2(n)/s)' 'max(1, n - i*s) % 7' '2^62 * 2^62' '-(l+1)/0'

$(FUZZ_BUILD)/%.o: %.c | $(BUILD)/.setup
	@mkdir -p $(@D)
	clang $(CFLAGS) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

.SECONDARY: $(FUZZ_OBJ)
$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_OBJ)
	clang $(CFLAGS) $(FUZZ_FLAGS) -fsanitize=fuzzer $< $(FUZZ_OBJ) $(LDLIBS) -o $@

$(FUZZ_BUILD)/libconfig_leak: tests/fuzz/libconfig_leak.c | $(BUILD)/.setup
	@mkdir -p $(@D)
	clang $(CFLAGS) $(FUZZ_FLAGS) $< -lconfig -o $@

# The suppressed leak is libconfig's: a program of libconfig alone reports
# it (allocated in strbuf_append), and our loader on the same input is
# clean once the suppression is on.
.PHONY: fuzz-leak-check
fuzz-leak-check: $(FUZZ_TARGETS)
	@! $(FUZZ_BUILD)/libconfig_leak tests/fuzz/libconfig-leak.cfg >/dev/null 2>$(FUZZ_BUILD)/leak.log \
	  || { echo "libconfig_leak: expected libconfig's leak, LeakSanitizer saw none"; exit 1; }
	@grep -q "in strbuf_append .*libconfig" $(FUZZ_BUILD)/leak.log \
	  || { cat $(FUZZ_BUILD)/leak.log; echo "libconfig_leak: the leak is not in libconfig's strbuf_append"; exit 1; }
	@$(FUZZ_LSAN) $(FUZZ_BUILD)/libconfig_leak tests/fuzz/libconfig-leak.cfg >/dev/null 2>&1
	@$(FUZZ_LSAN) $(FUZZ_BUILD)/fuzz_runfile tests/fuzz/libconfig-leak.cfg 2>$(FUZZ_BUILD)/leak.log \
	  || { tail -20 $(FUZZ_BUILD)/leak.log; echo "fuzz_runfile: a leak beyond libconfig's"; exit 1; }
	@echo "== libconfig's leak on tests/fuzz/libconfig-leak.cfg: in libconfig (strbuf_append), suppressed, none of ours"

.PHONY: fuzz
fuzz: $(FUZZ_TARGETS) fuzz-leak-check
	@set -e; corpus=$$(mktemp -d); trap 'rm -rf "$$corpus"' EXIT; \
	mkdir -p $$corpus/runfile $$corpus/formula; \
	for f in $$(find programs machine -name '*.cfg'); do cp $$f $$corpus/runfile/$$(echo $$f | tr / _); done; \
	i=0; for s in $(FUZZ_SEEDS); do printf '%s' "$$s" > $$corpus/formula/seed$$i; i=$$((i+1)); done; \
	for t in runfile formula; do \
	  echo "== fuzz_$$t, $(FUZZ_SECONDS) s (0: no limit), $(FUZZ_RUNS) runs (-1: no limit)"; \
	  start=$$(date +%s); \
	  $(FUZZ_LSAN) $(FUZZ_BUILD)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -runs=$(FUZZ_RUNS) -timeout=30 -rss_limit_mb=4096 \
	    -artifact_prefix=$(FUZZ_BUILD)/ -print_final_stats=1 $$corpus/$$t 2>$(FUZZ_BUILD)/fuzz_$$t.log \
	    || { tail -40 $(FUZZ_BUILD)/fuzz_$$t.log; exit 1; }; \
	  grep -E "stat::number_of_executed_units|stat::average_exec_per_sec" $(FUZZ_BUILD)/fuzz_$$t.log; \
	  echo "wall: $$(( $$(date +%s) - start )) s"; \
	done

clean:
	rm -rf build build-san build-fuzz

-include $(LIB_OBJ:.o=.d) $(BUILD)/sim/main.d $(BUILD)/validate/main.d $(TEST_BIN:=.d)
