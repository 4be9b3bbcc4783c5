# cuda_ref/cuda.mk -- build rules for the CUDA reference implementations.
#
# Included by the top-level Makefile (which defines CC, CFLAGS, LDFLAGS and
# BUILD first); also usable alone from the repository root:
#     make -f cuda_ref/cuda.mk cuda          # what cuda_ref/run-all.sh does
#
# Targets
#   cuda        every program into $(BUILD)/cuda/ (sm_90 machine code + PTX):
#               the microbenchmarks (cuda_ref/*.cu), every case study from
#               its kernels written once, programs/CASE/kernels.c, into
#               $(BUILD)/cuda/CASE, and every user example programs/user/NAME.c into
#               $(BUILD)/cuda/user-NAME (the kernel written once against
#               sim/exec/mcm_kernel.h, compiled as CUDA: nvcc -x cu)
#   cuda-user   any user file: make -f cuda_ref/cuda.mk cuda-user USER_SRC=path/to/NAME.c
#               builds $(BUILD)/cuda/user-NAME, NAME the file's name without
#               .c (the same: make -f cuda_ref/cuda.mk build/cuda/user-NAME
#               USER_SRC=path/to/NAME.c)
#   cuda-check  compiles every .cu when nvcc exists (no GPU needed), else
#               prints one line and goes on; then builds and runs the
#               Criterion test $(BUILD)/tests/test_cuda_ref (CPU references
#               and CSV writer; needs libcriterion, not a GPU)
#
# The CPU references, the CSV writer and the option parser (cuda_ref/common/
# *.c) are plain C: nvcc compiles them into the programs, $(CC) $(CFLAGS) into
# the test.

BUILD ?= build
CC ?= gcc
CFLAGS ?= -std=c11 -Wall -Wextra -O2

# nvcc on PATH, else the usual install location, else empty
ifeq ($(origin NVCC),undefined)
NVCC := $(shell command -v nvcc 2>/dev/null || \
          { test -x /usr/local/cuda/bin/nvcc && echo /usr/local/cuda/bin/nvcc; })
endif

# hand-written programs (the microbenchmarks, constants.cu), and the case
# studies, each built from its kernels written once (programs/CASE/kernels.c)
CUDA_PROGRAMS := $(patsubst cuda_ref/%.cu,%,$(wildcard cuda_ref/*.cu))
CUDA_CASES := $(patsubst programs/%/kernels.c,%,$(wildcard programs/*/kernels.c))
CUDA_BINS := $(addprefix $(BUILD)/cuda/,$(CUDA_PROGRAMS))
CUDA_CASE_BINS := $(addprefix $(BUILD)/cuda/,$(CUDA_CASES))
CUDA_C_SRC := $(wildcard cuda_ref/common/*.c)
CUDA_C_OBJ := $(patsubst cuda_ref/common/%.c,$(BUILD)/cuda/obj/%.o,$(CUDA_C_SRC))
CUDA_HEADERS := $(wildcard cuda_ref/common/*.h cuda_ref/common/*.cuh)
CUDA_GENCODE := -gencode arch=compute_90,code=sm_90 \
                -gencode arch=compute_90,code=compute_90
CUDA_NVCCFLAGS := -O3 $(CUDA_GENCODE) -Xcompiler -Wall,-Wextra

# user programs: C files against sim/exec/mcm_kernel.h, compiled by nvcc as CUDA
# through cuda_ref/common/mcm_kernel_cuda.cuh
CUDA_USER_SRC := $(wildcard programs/user/*.c)
CUDA_USER_BINS := $(patsubst programs/user/%.c,$(BUILD)/cuda/user-%,$(CUDA_USER_SRC))
CUDA_USER_FLAGS := -x cu -Isim/exec -Icuda_ref/common -include mcm_kernel_cuda.cuh
CUDA_USER_DEPS := sim/exec/mcm_kernel.h $(CUDA_C_OBJ) $(CUDA_HEADERS)
USER_BIN := $(if $(USER_SRC),$(BUILD)/cuda/user-$(basename $(notdir $(USER_SRC))))

.PHONY: cuda cuda-check cuda-compile cuda-test cuda-user
.SECONDARY: $(CUDA_C_OBJ)

cuda: $(CUDA_BINS) $(CUDA_CASE_BINS) $(CUDA_USER_BINS)

cuda-user: $(USER_BIN)
	@test -n "$(USER_SRC)" || { echo "usage: make -f cuda_ref/cuda.mk cuda-user USER_SRC=path/to/NAME.c" >&2; exit 2; }

ifeq ($(strip $(NVCC)),)
$(CUDA_BINS) $(CUDA_CASE_BINS) $(CUDA_C_OBJ) $(CUDA_USER_BINS) $(USER_BIN):
	@echo "cuda_ref: nvcc not found, cannot build $@" >&2; exit 1
cuda-compile:
	@echo "cuda_ref: nvcc not found, skipping CUDA compilation"
else
$(BUILD)/cuda/obj/%.o: cuda_ref/common/%.c $(CUDA_HEADERS)
	@mkdir -p $(dir $@)
	$(NVCC) $(CUDA_NVCCFLAGS) -c $< -o $@

$(BUILD)/cuda/%: cuda_ref/%.cu $(CUDA_C_OBJ) $(CUDA_HEADERS)
	@mkdir -p $(dir $@)
	$(NVCC) $(CUDA_NVCCFLAGS) $< $(CUDA_C_OBJ) -o $@

# USER_SRC=path/to/NAME.c: build/cuda/user-NAME is that file
ifneq ($(USER_SRC),)
$(USER_BIN): $(USER_SRC) $(CUDA_USER_DEPS)
	@mkdir -p $(BUILD)/cuda/obj
	$(NVCC) $(CUDA_NVCCFLAGS) $(CUDA_USER_FLAGS) -c $< -o $(BUILD)/cuda/obj/$(notdir $@).o
	$(NVCC) $(CUDA_NVCCFLAGS) $(BUILD)/cuda/obj/$(notdir $@).o $(CUDA_C_OBJ) -o $@
endif

# nvcc -x cu applies to every input file, so compile, then link
$(BUILD)/cuda/user-%: programs/user/%.c $(CUDA_USER_DEPS)
	@mkdir -p $(BUILD)/cuda/obj
	$(NVCC) $(CUDA_NVCCFLAGS) $(CUDA_USER_FLAGS) -c $< -o $(BUILD)/cuda/obj/user-$*.o
	$(NVCC) $(CUDA_NVCCFLAGS) $(BUILD)/cuda/obj/user-$*.o $(CUDA_C_OBJ) -o $@

# a case study: its CSV rows name the case itself ("sum", not "user-sum");
# it may include headers of its own folder and of programs/common/
CUDA_CASE_HEADERS := $(wildcard programs/*/*.h)
$(BUILD)/cuda/%: programs/%/kernels.c $(CUDA_USER_DEPS) $(CUDA_CASE_HEADERS)
	@mkdir -p $(BUILD)/cuda/obj
	$(NVCC) $(CUDA_NVCCFLAGS) $(CUDA_USER_FLAGS) -DMCM_CASE_PREFIX='""' -c $< -o $(BUILD)/cuda/obj/case-$*.o
	$(NVCC) $(CUDA_NVCCFLAGS) $(BUILD)/cuda/obj/case-$*.o $(CUDA_C_OBJ) -o $@

cuda-compile: $(CUDA_BINS) $(CUDA_CASE_BINS) $(CUDA_USER_BINS)
endif

# ---- CPU-side test (Criterion) ---------------------------------------------

CUDA_TEST_BIN := $(BUILD)/tests/test_cuda_ref

$(CUDA_TEST_BIN): tests/test_cuda_ref.c $(CUDA_C_SRC) $(CUDA_HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) tests/test_cuda_ref.c $(CUDA_C_SRC) -o $@ $(LDFLAGS) -lcriterion

cuda-test: $(CUDA_TEST_BIN)
	$(CUDA_TEST_BIN)

cuda-check: cuda-compile cuda-test
