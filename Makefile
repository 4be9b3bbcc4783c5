# mcmsim — build, run, test, bench.
#
#   make run      set up, build, run the default demo (programs/demo.cfg)
#   make test     set up, build, run the whole Criterion suite (SAN=1: under
#                 AddressSanitizer and UndefinedBehaviorSanitizer)
#   make bench    simulated blocks per second and peak memory, beside a
#                 minimal SimGrid program (the engine's floor)
#   make setup    install the Debian packages mcmsim needs (as root)

BUILD    ?= build
CC       ?= cc
SAN      ?= 0
DATADIR  := $(CURDIR)

CFLAGS   += -std=c11 -O2 -g -Wall -Wextra -Wshadow -Wstrict-prototypes \
            -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L \
            -Isim -Imachine -Iprograms -Ivalidate -DMCMSIM_DATADIR='"$(DATADIR)"'
LDLIBS   += -lsimgrid -lconfig -lmuparser -lcjson -lgsl -lgslcblas -lm
TEST_JOBS := 2
ifeq ($(SAN),1)
  # one test at a time: Criterion forks its workers from a threaded runner,
  # and under ASan a fork can inherit a held allocator lock (seen: a hang)
  TEST_JOBS := 1
  BUILD  := build-san
  CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined -DMCM_SANITIZE
  LDFLAGS += -fsanitize=address,undefined
endif

PACKAGES := libsimgrid-dev libconfig-dev libcriterion-dev libmuparser-dev \
            libcjson-dev libgsl-dev gnuplot-nox pkg-config

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
	@set -e; for t in $(TEST_BIN); do echo "== $$t"; MCMSIM=$(MCMSIM) $$t --jobs $(TEST_JOBS); done

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

bench: $(BENCH_BIN) $(MCMSIM)
	$(BUILD)/bench/bench $(BUILD)/bench/floor $(MCMSIM)

clean:
	rm -rf build build-san

-include $(LIB_OBJ:.o=.d) $(BUILD)/sim/main.d $(BUILD)/validate/main.d $(TEST_BIN:=.d)
