/*
 * validate.h — one validation set: the points of a measurement session,
 * simulated on a card's machine, and the files written about it.
 *
 * `make validate` (main.c) builds three sets (validate/notes/history.md), each
 * on a machine made of measured constants only (card.h), nothing fitted:
 *   a  the held-out half of each case study's newest H100 session (the
 *      other half is the training half a calibration would use; none does);
 *   b  every point of each case study's H100 session before it, on the
 *      same machine;
 *   c  every point of each case study's newest H200 session, on the H200's
 *      own constants.
 * A card's machine comes from its reference session (sessions.h).
 * The measured time of a point is its graph device time (the new
 * protocol's; the old protocol's sessions have only the wall time).
 */
#ifndef MCM_VALIDATE_H
#define MCM_VALIDATE_H

#include "exec_process.h"
#include "kernel_dag.h"
#include "machine.h"
#include "measured.h"
#include "sessions.h"

#include <stdio.h>

typedef struct vpoint {
    const measured_row *row;
    int train;                  /* 1: training half (unused: nothing is fitted); 0: held out */
    kernel_dag *dag;
    int dag_shared;             /* 1: dag is an earlier set's point's (the same machine and params) */
    double sim_ms;              /* simulated on the set's machine */
    int cached;                 /* 1: its blocks ran through the caches of exec mode (sim/exec/cache.h) */
    double sim_ms_off;          /* simulated on that machine without the caches (sim_ms if not cached) */
    double launches, rounds;    /* L, and Σ over kernels ⌈blocks/P⌉ */
    int recorded;               /* 1: its figures from the record (code_record.c; no DAG), not run here */
} vpoint;

typedef struct validation {
    char name[8];               /* "a", "b", "c" */
    char title[256];            /* what the set is, one line */
    char report_dir[1024];      /* validate/report/<name> */
    const session *s;           /* its points, each case from its own session (sessions_compose) */
    /* The card's sessions (sessions_load; NULL, 0: s alone): a best verdict
     * of the card is every value one of them that stands for the case
     * (session_stands_for) gives (conclusions.c). */
    const session *sessions;
    int n_sessions;
    machine card;               /* the machine the points are simulated on */
    /* The same without the caches of exec mode (l1_words = 0), for
     * sim_ms_off: a code set's with its own kernel boundary
     * (card_code_machine_without_caches). */
    machine card_off;
    int held_out_only;          /* statistics over the test half only */
    /* A set of the code's costs: the same points' set of the paper's costs
     * (NULL: v is one). */
    const struct validation *paper;
    char *mode;                 /* per row of s: how its DAG is built (main.c, row_mode) */
    vpoint *pts;
    int n;                      /* the points simulated */
    int n_refused;              /* measured points the model cannot run */
    const measured_row *refused[64];
    char refused_why[64][512];
    /* A set of the code's costs: the built-in case studies' measured points
     * not run in exec mode, over the budget (code_costs_budget), each with
     * its estimated cost (code_costs_estimate; owned, n_not_run of them). */
    int n_not_run;
    const measured_row **not_run;
    double *not_run_estimate;
    /* The record the points with `recorded` came from: its "made" line
     * (which commit, which command); "" if none of them did. */
    char record_made[256];
} validation;

/* The time a point measured, in ms: graph device time, else wall. */
double measured_ms(const measured_row *r);
/* The noun after a count of n: one ("point") if n is 1, else many. */
const char *plural(long n, const char *one, const char *many);

/* The points of case `program` in series `series` along its size param
 * `along` (measured_series_along, measured_size_key), at most cap indices
 * into v->pts, by increasing size (file order among equal sizes): the
 * order in which a plot's line joins them.  Returns how many. */
int validation_series_points(const validation *v, const char *program, const char *along, const char *series,
                             int *idx, int cap);

/* Error figures of a set of points. */
typedef struct error_stats {
    int n;
    double median, p90;         /* of |relative error| */
    double spearman;            /* rank correlation measured vs simulated */
} error_stats;

/* Statistics over the points of case `program` (NULL: all) in `split`
 * (0 test, 1 train, -1 both). */
error_stats validation_errors(const validation *v, const char *program, int split);
/* The split a set's statistics are taken over (0 or -1). */
int validation_split(const validation *v);

/* The distinct case studies of a set, in order of first appearance. */
int validation_cases(const validation *v, const char **names, int max);

int write_points(const validation *v);
int write_plots(const validation *v);
/* How many of a conclusion's verdicts the card and the simulator share,
 * on the paper's costs and, where a set of the code's costs was compared
 * (code = 1), on those of its verdicts whose points it ran whole. */
typedef struct verdict_tally {
    char path[128];             /* its run file, "programs/plain-mult.cfg" */
    int agree, total;
    int code;                   /* 1: compared on the code's costs too */
    int code_agree, code_total; /* of the verdicts decided there */
    int code_undecided;         /* verdicts not decided: a point behind them not run */
} verdict_tally;

/* A set's conclusions, in the order of the report. */
typedef struct set_verdicts {
    verdict_tally file[64];
    int n;
} set_verdicts;

/* The set's section of the report: errors per case, conclusions, plots;
 * fills *verdicts. */
int write_set_report(FILE *f, const validation *v, set_verdicts *verdicts);

/* The caches of exec mode (sim/exec/cache.h), case by case: the errors of the
 * points whose blocks ran through them, with the caches and without
 * (caches.c); or why the set's machine has none. */
int write_caches_table(FILE *f, const validation *v);
/* Its points one by one, into the set's caches-points.csv: each point
 * that ran through the caches, its time with them and without, and its
 * relative error each way (no file where none ran through them, or the
 * machine has no caches). */
int write_caches_points(const validation *v);

/* The case studies' kernels written once against the hand-written
 * programs they replaced, per session of the n_cards cards that timed
 * both (its handwritten/ folder; handwritten.c). */
int write_handwritten(FILE *f, const session *const *cards, const int *n_sessions, int n_cards);

/* The papers' conclusions (the compare groups of the run files of programs/) on the
 * card and in the simulator (conclusions.c); fills *verdicts. */
int write_conclusions(FILE *f, const validation *v, set_verdicts *verdicts);
/* The same conclusions on the code's costs: the card's times of set
 * `paper`, the simulated ones of `code` (its set of the code's costs), a
 * verdict decided where `code` ran every point behind it; the others
 * named.  Fills the code fields of *verdicts (write_conclusions' tallies). */
int write_code_conclusions(FILE *f, const validation *paper, const validation *code, set_verdicts *verdicts);
/* The measured points of set `paper` that the code's costs run beyond the
 * budget of a point, for the verdicts they decide: every point of a
 * conclusion's cell (the points one verdict takes: every s at one n of a
 * best s) whose points' estimates (code_costs_estimate) sum to at most
 * CODE_COSTS_CELL_BUDGET, and those of the verdicts conclusions.c
 * chooses (plain multiplication's best s at n <= 4 096); at most max into
 * rows, each once; their count, or -1 with fail(). */
int conclusions_code_rows(const validation *paper, const measured_row **rows, int max);

#define USER_CASE "user-" /* cases that are user programs (programs/user/) */

/* The file of kernels written once that measured case `program` ran
 * (mcmsim's source folder joined): "user-NAME", programs/user/NAME.c, or
 * where the case study NAME took that file over as its kernels (the sum),
 * the case study's; a built-in case study's kernels.  1 with the path in
 * out; 0 when the case has none. */
int case_kernels_source(const char *program, char *out, size_t size);

/* The code's costs (code_costs.c): the instructions counted from each
 * kernel written once against Nsight Compute's (validate/stream/profiles.csv,
 * and each session of the n_cards cards' sessions that has an
 * instructions.csv: each case's kernels written once, case_kernels_source),
 * counted on `counter` (a machine with issue_rate > 0);
 * then per case written once, each set's errors of the paper's costs
 * (sets[i]) and of the code's costs (codes[i]: the same points on the card's
 * code machine), and both plots. */
int write_code_costs(FILE *f, const validation *sets, const validation *codes, int n_sets, const machine *counter,
                     const session *const *cards, const int *n_sessions, int n_cards);

/* The terms of what a built-in case study's point costs exec mode, from
 * its worksheet DAG: W, Σ over kernels of blocks · (W(B) + ℓ·(1 + words
 * each thread moves)), the paper's thread-operations and accesses; of
 * them the accesses, ℓ·words (global words, each one run one by one);
 * N·ℓ, the threads of all blocks; N, the blocks; L, the launches (the
 * DAG's kernels); and ops, the operations of all threads per class (the
 * card model's counts of the case's CUDA code: block_cost.work_ops; a
 * kernel without classes has its W(B) as plain operations). */
typedef struct exec_terms {
    double work, accesses, threads, blocks, launches;
    double ops[OP_CLASSES];
} exec_terms;
exec_terms code_costs_terms(const kernel_dag *worksheet);
/* What a point costs exec mode (code_costs.c), estimated in seconds of
 * processor: EXEC_SECONDS_OPERATION·(the operations of every class) +
 * EXEC_SECONDS_PRIVATE·(the private accesses, on top) +
 * EXEC_SECONDS_ACCESS·(the global accesses) + EXEC_SECONDS_BLOCK·N +
 * EXEC_SECONDS_LAUNCH·L.  The operations are counted as the card model
 * counts the case's code, not the paper's operations (W), which some
 * worksheets count in other units (the FFTs' DFTs: 32m² + 9m a thread
 * against 4m² + 3 instructions).  A scheduling bound for `make validate`,
 * not a forecast: it runs a point's kernels written once for the code's
 * costs when this is at most code_costs_budget(), and names the others in
 * the report with their estimate. */
double code_costs_estimate(const kernel_dag *worksheet);
/* Exec mode's processor time, seconds per unit of each term, measured
 * from exec mode itself on the 2-core development machine: make validate
 * with MCMSIM_VALIDATE_PROFILE=1 prints each exec process's processor
 * time and each point's terms, and the constants are the least squares of
 * the relative error, every one >= 0, over the 57 points of at least
 * 0.2 s (validate/notes/instruction-stream.md, session 47: the command,
 * the figures, a repeat).  The threads' own term, N·ℓ, measured 0 (a
 * thread costs through its operations and accesses) and is not charged. */
#define EXEC_SECONDS_OPERATION 7.19e-10
#define EXEC_SECONDS_PRIVATE 7.85e-9
#define EXEC_SECONDS_ACCESS 1.24e-8
#define EXEC_SECONDS_BLOCK 1.03e-6
#define EXEC_SECONDS_LAUNCH 1.23e-4
/* The budget, seconds of exec mode a point (code_costs_estimate):
 * $MCMSIM_CODE_BUDGET if set (a number; "inf": every point), else
 * CODE_COSTS_BUDGET, which keeps `make validate` near its two minutes
 * on two cores (validate/notes/instruction-stream.md); -1 with fail() if
 * the variable is not a number >= 0. */
double code_costs_budget(void);
#define CODE_COSTS_BUDGET 0.3
/* A verdict's cell run whole in exec mode (conclusions_code_rows): its
 * points' estimates summed (code_costs_estimate, seconds of exec mode a
 * card), at most this.  The criterion is make validate's time: the cells
 * within it, each run on both code machines, keep it within its two
 * minutes on two idle cores.  The estimate is 0.63 to 1.5 times the time
 * of the points it was measured from, and ranks the cells as they cost
 * (instruction-stream.md, session 47: the cells it admits, their
 * estimates and times; the next ones, mult n = 2^14 at 13 s, Euclid
 * n = 6 000 at 15 s, are over: about 25 s of processor more each). */
#define CODE_COSTS_CELL_BUDGET 11.0
/* The cells' budget: $MCMSIM_CODE_CELL_BUDGET if set (a number; "inf":
 * every cell), else CODE_COSTS_CELL_BUDGET; -1 with fail() if the
 * variable is not a number >= 0.  For a run that decides more verdicts
 * than make validate's two minutes allow (validate/notes/bench.md,
 * session 48). */
double code_costs_cell_budget(void);

/* Point `row`'s kernels written once (case_kernels_source) started in
 * exec mode on m, at the row's params, on one thread (the points run side
 * by side): how `make validate` builds the DAG of a user case, and of a
 * built-in case study for its code's costs; the DAG from
 * exec_process_finish.  -1 with fail() naming the row. */
int code_costs_start(exec_process *x, const measured_row *row, const machine *m);

/* Whether a session of `sessions` counted case `program` at `params`
 * with Nsight Compute (its instructions.csv): write_code_costs counts
 * that point from its kernels written once whatever the budget, so a set
 * of the code's costs on the counting machine runs it too (and the check
 * takes its DAG, no point run twice). */
int code_costs_counted_anyway(const session *sessions, int n, const char *program, const char *params);

/* Per kernel of an Nsight Compute raw CSV (cuda_ref/ncu-instructions.sh):
 * its name as mcm_kernel.h calls it (less MCM_KERNEL's suffix
 * _mcm_global_), and over its launches the warp instructions executed
 * (smsp__inst_executed.sum) and the warps (grid × ⌈block/32⌉). */
typedef struct ncu_kernel {
    char name[64];
    double inst, warps;
} ncu_kernel;

/* The kernels of the file at `path`, at most max, into out; their count,
 * or -1 with fail() (no such file, no header, a column missing). */
int ncu_kernels(const char *path, ncu_kernel *out, int max);

/* One row of the counts' check (code_costs.c): a kernel at a point, the
 * card's count and ours, warp instructions per warp; `source` is the file
 * counted (relative to the data directory) and `params` the point's. */
typedef struct count_row {
    char where[160], what[128], kernel[64], source[256], params[128];
    double card, ours;
} count_row;

/* Whether a row's count is within COUNT_WITHIN of the card's (the issue's
 * bound). */
#define COUNT_WITHIN 0.15
int count_within(const count_row *r);

/* The causes of misses written down with their evidence
 * (validate/stream/count-misses.csv, count_misses.c): per counted file
 * and kernel. */
typedef struct count_cause {
    char source[256], kernel[64], cause[1024], evidence[1024];
} count_cause;
typedef struct count_causes {
    count_cause *c;
    int n;
} count_causes;

/* The causes of the file at `path` into *out (none when there is no such
 * file); -1 with fail() on a malformed line. */
int count_causes_load(const char *path, count_causes *out);
void count_causes_free(count_causes *c);

/* Why rows[i], a miss, misses (count_misses.c): from the rows, another
 * build on the card (a row of the same kernel, file and params within the
 * bound, whose card's count differs from this one's by more than it);
 * else the cause written down for its file and kernel.  1 with the cause
 * in out, 0 if none is known. */
int count_miss_cause(const count_row *rows, int n, int i, const count_causes *written, char *out, size_t size);

/* The targets case by case over the n_sets sets (a table), `between`
 * (markdown, may be NULL), the conclusions' verdicts (a table), and for
 * each case or conclusion that misses one, the term it lacks as the
 * hand-written file missing_path names it (targets.c says its format; a
 * file that does not exist names none); *unnamed counts the misses it
 * names no term for. */
int write_targets(FILE *f, const validation *sets, const set_verdicts *verdicts, int n_sets,
                  const char *missing_path, const char *between, int *unnamed);

/* `dir`/STEM.png and .svg: every point the sets score, simulated against
 * measured, on log axes, with the ±10 % and ±25 % bands; `what` heads the
 * title (the paper's costs, or the code's costs of the points run in exec
 * mode). */
int write_scatter(const validation *sets, int n_sets, const char *dir, const char *stem, const char *what);

/* REPORT.md, its headline first: the targets table, the scatter plot
 * (scatter.png beside it), the conclusions table and what the misses
 * lack (write_targets); then `machines` (markdown: where the cards'
 * machines come from), the sets' sections (`sets_md`, write_set_report's)
 * and the noise floor (`noise_md`, one table). */
int write_report(FILE *f, const validation *sets, const set_verdicts *verdicts, int n_sets, const char *missing_path,
                 const char *machines, const char *sets_md, const char *noise_md, int *unnamed);

/* The record of the code's costs (code_record.c): the figures of points
 * run in exec mode by `make validate-full`, each keyed by what determines
 * it (code_record_key); `make validate` takes a point from it only where
 * the key it computes is the record's. */
#define CODE_RECORD "validate/code-record.csv"
#define CODE_RECORD_KEY 33 /* 32 hex digits and the end */
typedef struct code_record_entry {
    char key[CODE_RECORD_KEY];
    char program[64], params[256], machine[64];
    double sim_ms, sim_ms_off, launches, rounds;
    int cached;
} code_record_entry;
typedef struct code_record {
    code_record_entry *e;
    int n, cap;
    char made[256];             /* which commit and command made it */
    char sources[CODE_RECORD_KEY]; /* the sources key of the tree that made it (code_record_sources) */
} code_record;

/* The tree's part of every key: the sources, build flags and compilers a
 * point's figures depend on (code_record.c says which); -1 with fail(). */
int code_record_sources(char out[CODE_RECORD_KEY]);
/* A point's key: the tree's, the case, its params, the bytes of the
 * machine m it runs on and of off, the one its figure without the caches
 * is simulated on. */
void code_record_key(const char *sources, const char *program, const char *params, const machine *m,
                     const machine *off, char out[CODE_RECORD_KEY]);
/* What a run writing the record with these budgets (s; inf: none) is, in
 * its "made" line: `make validate-full` or the step it is. */
void code_record_made_by(double point_budget, double cell_budget, char *out, size_t size);
/* The "made" line of a record this run writes: the commit, whether its
 * sources were changed, what made it (code_record_made_by), the date. */
void code_record_made(double point_budget, double cell_budget, char *out, size_t size);
/* r's "made" line as this run, writing with these budgets, leaves it:
 * a record of this tree with points (r->n > 0) keeps the line of the run
 * that made it and adds "; then <code_record_made_by>" (not again where
 * it ends so; "; then more runs" once the line is full); else this run's
 * own (code_record_made). */
void code_record_remade(code_record *r, double point_budget, double cell_budget);
/* A row's check: the hash of its n bytes of text before it (the row's
 * last field), 16 hex digits. */
void code_record_row_check(const char *text, size_t n, char out[17]);
/* The record at path (none there: an empty one); -1 with fail() if a row
 * is malformed or fails its check.  sources: the tree's key, a record of
 * another tree's read as empty (its made and sources lines kept); NULL:
 * every row read. */
int code_record_load(code_record *r, const char *path, const char *sources);
/* The entry with this key; NULL if none (a stale record has none). */
const code_record_entry *code_record_find(const code_record *r, const char *key);
/* e added (once per key); -1 with fail(). */
int code_record_add(code_record *r, const code_record_entry *e);
/* Written to path, r->made and the tree's sources key in its header. */
int code_record_save(const code_record *r, const char *path, const char *sources);
void code_record_free(code_record *r);

#endif
