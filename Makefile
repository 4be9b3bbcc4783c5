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
#   make lessons  draw the lessons' pictures (programs/lectures/img/), each
#                 with the source it is drawn from, which make test checks
#   make setup    install the Debian packages mcmsim needs (as root)

BUILD    ?= build
CC       ?= cc
SAN      ?= 0
DATADIR  := $(CURDIR)

CFLAGS   += -std=c11 -O2 -g -pthread -Wall -Wextra -Wshadow -Wstrict-prototypes \
            -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L -DMCMSIM_DATADIR='"$(DATADIR)"'
LDLIBS   += -lsimgrid -lconfig -lmuparser -lcjson -lgsl -lgslcblas -lseccomp -lm -ldl

# The layers, bottom up; a source is compiled with the include folders of
# its layer and of the layers below it, so an #include the wrong way does
# not compile (README, "Source map"):
#   base    sim/base/ (errors, formulas, processes, the wire) and machine/
#           (the machine's fields and presets)
#   model   sim/model/ (kernel DAGs and their costs, the card terms, the DMM/UMM)
#   engine  sim/engine/ (the simulation: the schedulers behind engine.h)
#   exec    sim/exec/ (exec mode, the kernel header, users' programs)
#   cases   programs/ (the built-in programs: a folder per case study)
#   app     sim/app/ (the command line, run files, reports, pictures),
#           validate/ (make validate), sim/bench/, tests/
INC_base   := -Isim/base -Imachine
INC_model  := $(INC_base) -Isim/model
INC_engine := $(INC_model) -Isim/engine
INC_exec   := $(INC_model) -Isim/exec
INC_cases  := $(INC_exec) -Iprograms
INC_app    := $(INC_cases) -Isim/engine -Isim/app -Ivalidate
layer_inc = $(strip $(if $(filter sim/base/% machine/%,$1),$(INC_base),\
                    $(if $(filter sim/model/%,$1),$(INC_model),\
                    $(if $(filter sim/engine/%,$1),$(INC_engine),\
                    $(if $(filter sim/exec/%,$1),$(INC_exec),\
                    $(if $(filter programs/%,$1),$(INC_cases),$(INC_app)))))))
# a user program (sim/exec/user_program.c) is a shared object that calls the
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

PACKAGES := libsimgrid-dev libconfig-dev libcriterion-dev libmuparser-dev libseccomp-dev \
            libcjson-dev libgsl-dev gnuplot-nox pkg-config clang libclang-rt-14-dev pajeng

# A case study's folder (programs/CASE/) holds its model (built into the
# library), its kernels written once (kernels.c: compiled by mcmsim at run
# time for exec mode, and by nvcc for the card) and its tests.
# programs/common/ holds kernels written once that several cases include.
CASE_DIRS := $(filter-out programs/user/ programs/lectures/ programs/common/,$(wildcard programs/*/))
LIB_SRC  := $(wildcard sim/base/*.c machine/*.c sim/model/*.c sim/engine/*.c sim/exec/*.c programs/*.c sim/app/*.c) \
            $(filter-out %/kernels.c %/reference.c $(wildcard programs/*/test_*.c),$(wildcard $(CASE_DIRS:%=%*.c)))
LIB_SRC  := $(filter-out sim/app/main.c sim/exec/counted_accesses.c,$(LIB_SRC))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
# make validate's own code: its binary and the tests of it link it, the
# library does not hold it
VALIDATE_SRC := $(filter-out validate/main.c,$(wildcard validate/*.c))
VALIDATE_LIB := $(BUILD)/libvalidate.a
# the tests' reference where blocks share, linked into the tests and the bench
SIMGRID_REFERENCE := tests/simgrid_reference.c tests/global_memory.c
TEST_SRC := $(filter-out tests/test_cuda_ref.c,$(wildcard tests/test_*.c)) $(wildcard $(CASE_DIRS:%=%test_*.c))
TEST_BIN := $(foreach t,$(TEST_SRC),$(BUILD)/tests/$(basename $(notdir $(t))))
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
	$(CC) $(CFLAGS) $(call layer_inc,$<) -MMD -MP -c $< -o $@

$(BUILD)/libmcmsim.a: $(LIB_OBJ)
	rm -f $@ && ar rcs $@ $^

$(VALIDATE_LIB): $(VALIDATE_SRC:%.c=$(BUILD)/%.o)
	rm -f $@ && ar rcs $@ $^

$(MCMSIM): $(BUILD)/sim/app/main.o $(BUILD)/libmcmsim.a
	$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

# A test binary depends on the headers of every source of its link: one -MM
# over them all (-MMD on a link of several sources keeps only the last's).
define test_rule
$(BUILD)/tests/$(basename $(notdir $(1))): $(1) $(VALIDATE_LIB) $(BUILD)/libmcmsim.a | $(BUILD)/.setup
	@mkdir -p $$(@D)
	$$(CC) $$(CFLAGS) $(INC_app) -Itests -MM -MP -MT $$@ $$< $(SIMGRID_REFERENCE) > $$@.d
	$$(CC) $$(CFLAGS) $(INC_app) -Itests $$< $(SIMGRID_REFERENCE) $(VALIDATE_LIB) $(BUILD)/libmcmsim.a \
	  $$(LDFLAGS) $$(LDLIBS) -lcriterion -o $$@
endef
$(foreach t,$(TEST_SRC),$(eval $(call test_rule,$(t))))

run: $(MCMSIM)
	$(MCMSIM) run programs/demo.cfg

# The lessons' pictures, as programs/lectures/img/pictures.list names them.
LESSON_IMG := programs/lectures/img
.PHONY: lessons
lessons: $(MCMSIM)
	@grep -v '^#' $(LESSON_IMG)/pictures.list | while read lesson kind name; do \
	  [ -n "$$lesson" ] || continue; \
	  echo "== $(LESSON_IMG)/$$name.png: $$lesson, --kind $$kind"; \
	  MCMSIM_PLOT_SOURCE=$(LESSON_IMG)/$$name.source $(MCMSIM) plot programs/lectures/$$lesson --kind $$kind \
	    -o $(LESSON_IMG)/$$name.png || exit 1; \
	done

-include cuda_ref/cuda.mk

# Every test binary runs marked (MCMSIM_TEST_RUN), and no process of
# that mark may outlive the run (tests/no_process_outlives.sh).
test: layers-check $(MCMSIM) $(TEST_BIN) $(if $(wildcard cuda_ref/cuda.mk),cuda-check)
	@mark=$$$$-$$(date +%s); rc=0; for t in $(TEST_BIN); do echo "== $$t"; \
	  $(TEST_ENV) MCMSIM_TEST_RUN=$$mark MCMSIM=$(MCMSIM) $$t --jobs $(TEST_JOBS) || { rc=$$?; break; }; done; \
	  sh tests/no_process_outlives.sh $$mark || rc=1; exit $$rc

# The layers hold: with a layer's include folders, a header of its own
# layer is found (LAYER_OWN) and one of a layer above or beside it is not
# (LAYER_ABOVE).
LAYER_OWN   := base:fail.h base:machine.h model:kernel_dag.h exec:exec.h engine:engine.h \
               cases:program.h app:runfile.h
LAYER_ABOVE := base:kernel_dag.h base:engine.h model:engine.h model:exec.h exec:engine.h \
               exec:program.h engine:exec.h engine:program.h cases:engine.h cases:runfile.h
layer_probe = printf '\043include "%s"\n' $(word 2,$(subst :, ,$1)) | $(CC) -E $(INC_$(word 1,$(subst :, ,$1))) -x c - >/dev/null 2>&1
.PHONY: layers-check
layers-check: | $(BUILD)/.setup
	@$(foreach p,$(LAYER_OWN),$(call layer_probe,$p) || { echo "layers: $(subst :, cannot find its own ,$p)"; exit 1; };) \
	 $(foreach p,$(LAYER_ABOVE),! $(call layer_probe,$p) || { echo "layers: $(subst :, sees ,$p) (a layer it must not include)"; exit 1; };) \
	 echo "layers: $(words $(LAYER_ABOVE)) includes the wrong way refused, $(words $(LAYER_OWN)) within a layer found"

# Validation against the cards' committed measurements (no GPU needed).
$(BUILD)/validate/validate: $(BUILD)/validate/main.o $(VALIDATE_LIB) $(BUILD)/libmcmsim.a
	$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

.PHONY: validate
validate: $(BUILD)/validate/validate
	$(BUILD)/validate/validate

# Every point of the sets of the code's costs run in exec mode, no budget,
# their figures written to validate/code-record.csv, each keyed by what
# determines it (validate/code_record.c); then `make validate`, which takes
# from it the points over its budgets where the key is this tree's.  One
# exec process beside another only where the memory allows (main.c,
# memory_room).  Re-run it after any change to sim/, machine/, programs/.
.PHONY: validate-full
validate-full: $(BUILD)/validate/validate
	MCMSIM_CODE_BUDGET=inf MCMSIM_CODE_CELL_BUDGET=inf MCMSIM_CODE_RECORD=write $(BUILD)/validate/validate
	$(BUILD)/validate/validate

# A report made with a matching record is the report of the run that
# simulated its points (tests/record_same.sh: two runs of validate, some
# 10 minutes; not part of `make test`).
.PHONY: record-same
record-same: $(BUILD)/validate/validate
	VALIDATE=$(BUILD)/validate/validate sh tests/record_same.sh

# A bench binary, as a test binary, depends on the headers of every
# source of its link.
BENCH_BIN := $(BUILD)/bench/bench $(BUILD)/bench/floor
$(BUILD)/bench/%: sim/bench/%.c $(BUILD)/libmcmsim.a | $(BUILD)/.setup
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(INC_app) -Itests -MM -MP -MT $@ $< $(SIMGRID_REFERENCE) > $@.d
	$(CC) $(CFLAGS) $(INC_app) -Itests $< $(SIMGRID_REFERENCE) $(BUILD)/libmcmsim.a $(LDFLAGS) $(LDLIBS) -o $@

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
	clang $(CFLAGS) $(call layer_inc,$<) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

.SECONDARY: $(FUZZ_OBJ)
$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_OBJ)
	clang $(CFLAGS) $(INC_app) $(FUZZ_FLAGS) -fsanitize=fuzzer $< $(FUZZ_OBJ) $(LDLIBS) -o $@

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

-include $(LIB_OBJ:.o=.d) $(VALIDATE_SRC:%.c=$(BUILD)/%.d) $(BUILD)/sim/app/main.d $(BUILD)/validate/main.d \
         $(TEST_BIN:=.d) $(BENCH_BIN:=.d)
