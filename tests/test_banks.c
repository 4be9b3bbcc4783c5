/*
 * test_banks.c — the private memory's banks in the card model
 * (sim/model/kernel_dag.h): a conflict costs whole rounds of the banks (the
 * DMM's rule), the banks work beside the arithmetic where the machine says
 * so (private_port), and where the counts come from: exec mode, a run
 * file's key, plain multiplication's MulKer, the block scan of the CUDA
 * kernels.
 */
#include "cuda_counts.h"
#include "exec.h"
#include "card_terms.h"
#include "helpers.h"

/* One block of 256 threads: 256 Z/pZ multiplications and `private_ops`
 * private accesses in all, `conflicts` extra rounds of the banks. */
static block_cost banked_block(double private_ops, double conflicts)
{
    block_cost c = {.span = 1, .work = 256};
    cost_set_classes(&c, 256, 0, 1, 0, 0, 0);
    c.work_ops[OP_PRIVATE] = private_ops;
    c.bank_conflicts = conflicts;
    return c;
}

/* lanes = 128, lanes_mulmod = 4, lanes_private = 32, w = 32 */
static machine banked_machine(int private_port)
{
    machine m = test_machine(1, 1);
    m.lanes = 128;
    m.lanes_mulmod = 4;
    m.lanes_private = 32;
    m.private_port = private_port;
    return m;
}

Test(banks, beside_the_arithmetic_or_in_its_pipe)
{
    /* 256 mulmods: 256/4 = 64 cycles; 512 private words: 512/32 = 16
     * cycles of the banks, and 512/128 = 4 of issue beside the banks.
     * One pipe: 64 + 16 = 80.  Beside: max(64 + 4, 16) = 68. */
    block_cost c = banked_block(512, 0);
    machine one = banked_machine(0), beside = banked_machine(1);
    cr_expect_float_eq(block_work_cycles(&c, &one), 80, 1e-12);
    cr_expect_float_eq(block_work_cycles(&c, &beside), 68, 1e-12);
    /* the banks full: 4096 words, 128 cycles > 64 + 32 */
    c = banked_block(4096, 0);
    cr_expect_float_eq(block_work_cycles(&c, &beside), 128, 1e-12);
}

Test(banks, a_conflict_costs_a_whole_round_of_the_banks)
{
    /* 8 warps each make one access whose words fall 8 to a bank: 7 extra
     * rounds a warp, 56 in all; each is a warp's 32 words at 32 a cycle:
     * (256 + 32·56)/32 = 64 cycles of the banks, against 8 without. */
    machine m = banked_machine(1);
    m.lanes_mulmod = 1e9; /* the arithmetic out of the way */
    block_cost free_of_conflicts = banked_block(256, 0), conflicted = banked_block(256, 56);
    cr_expect_float_eq(block_work_cycles(&free_of_conflicts, &m), 8, 1e-6);
    cr_expect_float_eq(block_work_cycles(&conflicted, &m), 64, 1e-6);
}

Test(banks, the_pure_mcm_ignores_them)
{
    /* with no card term a block computes for S(B), conflicts or not */
    kernel k = test_kernel("k", 1, 256, 10, 0, 0);
    k.cost.bank_conflicts = 1000;
    kernel_dag *dag = kernel_dag_new("mcm");
    cr_assert(kernel_dag_add(dag, &k) >= 0, "%s", fail_message());
    machine m = test_machine(1, 1);
    sim_result r = simulate(dag, &m);
    cr_expect_eq(r.T, 10);
    sim_result_free(&r);
    kernel_dag_free(dag);
}

Test(banks, a_negative_count_is_refused)
{
    kernel k = test_kernel("k", 1, 32, 1, 0, 0);
    k.cost.bank_conflicts = -1;
    kernel_dag *dag = kernel_dag_new("bad");
    cr_expect_eq(kernel_dag_add(dag, &k), -1);
    cr_expect(strstr(fail_message(), "bank_conflicts = -1 must be >= 0") != NULL, "%s", fail_message());
    kernel_dag_free(dag);
}

Test(banks, the_machine_key)
{
    machine m;
    machine_defaults(&m);
    cr_expect_eq(m.private_port, 0, "off by default");
    cr_expect_eq(machine_set_field(&m, "private_port", "1"), 1);
    cr_expect_eq(m.private_port, 1);
    cr_expect_eq(machine_validate(&m), 0, "%s", fail_message());
    cr_expect_eq(machine_set_field(&m, "private_port", "2"), -1);
    cr_expect(strstr(fail_message(), "private_port = 2 is out of range: it takes 0 or 1") != NULL, "%s",
              fail_message());
    m.private_port = 2;
    cr_expect_eq(machine_validate(&m), -1);
    cr_expect(strstr(fail_message(), "private_port = 2 must be 0") != NULL, "%s", fail_message());
}

/* ---- where the counts come from ----------------------------------------- */

typedef struct strided_args { int stride; } strided_args;

/* each thread writes private word tid·stride */
static void strided_write(exec_thread *t, void *args)
{
    const strided_args *a = args;
    exec_pwrite(t, t->tid * a->stride, 1);
}

static const exec_step strided_steps[] = {strided_write};
static const exec_kernel strided_kernel = {"strided", 1, strided_steps, 32 * 16};

Test(banks, exec_mode_charges_the_conflicts_it_counts)
{
    /* one warp of 32 threads, words 8 apart: banks 0, 8, 16, 24 take 8
     * words each, 7 extra rounds; words 1 apart: none */
    const int strides[] = {8, 1, 16}, extra[] = {7, 0, 15};
    for (int i = 0; i < 3; i++) {
        machine m = test_machine(1, 1);
        exec_run *r = exec_begin("banks", &m);
        strided_args a = {strides[i]};
        cr_assert_eq(exec_launch(r, &strided_kernel, 1, 32, &a), 0, "%s", fail_message());
        cr_expect_eq(kernel_block_cost(&exec_dag(r)->kernels[0], 0)->bank_conflicts, extra[i], "stride %d",
                     strides[i]);
        exec_end(r);
    }
}

Test(banks, the_run_file_key)
{
    kernel_dag *dag = test_run_file_kernels("kernels = ( { name = \"k\"; blocks = 1; threads = 64; span = 2;"
                                            " bank_conflicts = \"2*s\"; } );", 7);
    cr_assert(dag, "%s", fail_message());
    cr_expect_eq(dag->kernels[0].cost.bank_conflicts, 14);
    kernel_dag_free(dag);

    cr_expect_null(test_run_file_kernels("kernels = ( { name = \"k\"; blocks = 1; threads = 64; span = 2;"
                                         " bank_conflicts = -3; } );", 7));
    cr_expect(strstr(fail_message(), "bank_conflicts = -3 is out of range: it takes a number >= 0") != NULL, "%s", fail_message());
}

Test(banks, plain_multiplication_mulker_by_the_dmm_rule)
{
    /* n = m = 2048, ℓ = 256: the rows' threads fill whole blocks (s = 8:
     * 256 rows of 257 threads, 257 blocks).  A warp's s² reads of A and s
     * writes of the products fall gcd(s, 32) to a bank: 8 warps·(64 + 8)·7
     * = 4032 extra rounds a block at s = 8, none at s = 1. */
    machine m = test_preset("h100");
    const double s_values[] = {8, 1}, expected[] = {4032, 0};
    for (int i = 0; i < 2; i++) {
        kernel_dag *dag = build_builtin("plain-mult", test_params("n m s l", 2048.0, 2048.0, s_values[i], 256.0),
                                        &m);
        cr_expect_float_eq(dag->kernels[0].cost.bank_conflicts, expected[i], 1e-9, "s = %g: %g",
                           s_values[i], dag->kernels[0].cost.bank_conflicts);
        kernel_dag_free(dag);
    }
}

Test(banks, the_block_scan_counts_its_working_threads)
{
    /* ℓ = 256: private accesses 24 a thread, less the identity that only
     * thread 0 writes, and 8 for each of the 255 thread-levels of the
     * sweeps: 6144 − 255 + 2040 = 7929 (thread 0's path times ℓ: 22528).
     * Conflicts: the items 4 apart, 12 accesses of 8 warps at 3 extra
     * rounds = 288; the sweeps at d = 1, 2, ..., 128: 28 + 42 + 49 + 49 +
     * 49 + 21 + 7 + 0 = 245 (kernels' comment: ⌈k·gcd(2d, 32)/32⌉-way). */
    cuda_scan_block b;
    cuda_tile_scan_block(256, &b);
    cr_expect_float_eq(b.private_ops, 7929, 1e-9);
    cr_expect_float_eq(b.conflicts, 288 + 245, 1e-9);
    cr_expect_float_eq(b.barriers, (2 * 8 + 5) * 256, 1e-9);
}
