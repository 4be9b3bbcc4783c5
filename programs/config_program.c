/*
 * config_program.c — an MCM program described in a run file:
 *
 *   kernels = (
 *     { name = "k0"; blocks = "n/l"; threads = "l"; span = "3*s";
 *       reads = 2; writes = 1; coalesced = true; after = [ ];
 *       aligned = true;          (false: warps' words start off the line)
 *       repeat = "log2(n)"; },
 *     ... );
 *
 * Every number may be a formula over the params, P, U, Z and, inside a
 * repeated kernel, i (the repeat index, from 0).  A repeated kernel is a
 * chain of kernels named k0[0], k0[1], ...  A block count that is not whole
 * is rounded up, as a grid would be.  `after` names the kernels that must
 * finish first; without it, a kernel comes after the previous one in the
 * list.  A kernel repeated 0 times is absent: whatever comes after it comes
 * after what it came after.
 *
 * Operation classes (sim/model/kernel_dag.h; optional, the card model only):
 * span_plain, span_mulmod, span_addmod, span_private, span_barriers count a
 * thread's operations of each class along the span, work_plain ... work_barriers
 * those of the whole block.  A kernel that gives none is S(B) and W(B) plain
 * operations; one that gives some gets 0 for the classes it leaves out,
 * ℓ·span_X for a missing work_X, and the rest of S(B) (W(B)) as plain.
 * bank_conflicts (optional, default 0): a block's extra rounds of the
 * private banks, Σ over its warps' accesses of (the most words in one bank
 * − 1), the DMM's rule (sim/model/kernel_dag.h).
 */
#include "config_file.h"
#include "fail.h"
#include "program.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { K_NAME, K_NUMBER, K_BOOL, K_AFTER } kernel_key_type;

/* The keys of a kernel, each with its type and, for a number (or the
 * formula that gives it), its range. */
typedef struct kernel_key {
    const char *key;
    kernel_key_type type;
    double lo, hi;      /* K_NUMBER: lo <= value <= hi (lo < value when lo_open) */
    int lo_open, whole;
    const char *takes;  /* what it takes, for messages (NULL: from the range) */
} kernel_key;

#define TEXT_OF(x) QUOTE(x)
#define QUOTE(x) #x
#define COUNT(key) {key, K_NUMBER, 0, EXACT_WHOLE_MAX, 0, 0, NULL}

static const kernel_key kernel_keys[] = {
    {"name", K_NAME, 0, 0, 0, 0, "a string of at most 127 characters"},
    {"blocks", K_NUMBER, 0, BLOCKS_MAX, 1, 0,
     "a number > 0 (a grid has at least 1 block; a fraction is rounded up) and at most 1e+15 blocks per kernel "
     "(mcmsim sums blocks' counts and costs in doubles, exact up to 2^53 ≈ 9e15)"},
    {"threads", K_NUMBER, 1, 1e9, 0, 1, "a whole number from 1 to 1000000000 (a block's ℓ is an int)"},
    COUNT("span"), COUNT("work"), COUNT("reads"), COUNT("writes"),
    COUNT("uncoalesced_reads"), COUNT("uncoalesced_writes"),
    {"coalesced", K_BOOL, 0, 0, 0, 0, "false: every word it reads and writes is uncoalesced"},
    {"aligned", K_BOOL, 0, 0, 0, 0, "whether its warps' words start on 128-byte lines"},
    {"after", K_AFTER, 0, 0, 0, 0, "a list of kernel names [\"k0\", ...]"},
    {"repeat", K_NUMBER, 0, KERNELS_MAX, 0, 1,
     "a whole number from 0 to " TEXT_OF(KERNELS_MAX) " (a program has at most " TEXT_OF(KERNELS_MAX)
     " kernels, each a record in memory of about " TEXT_OF(KERNEL_BYTES) " bytes)"},
    COUNT("private_words"),
    COUNT("span_plain"), COUNT("span_mulmod"), COUNT("span_addmod"), COUNT("span_private"), COUNT("span_barriers"),
    COUNT("work_plain"), COUNT("work_mulmod"), COUNT("work_addmod"), COUNT("work_private"), COUNT("work_barriers"),
    COUNT("bank_conflicts"),
};
enum { N_KERNEL_KEYS = sizeof kernel_keys / sizeof kernel_keys[0] };

const char *config_kernel_key(int i) { return i >= 0 && i < N_KERNEL_KEYS ? kernel_keys[i].key : NULL; }

static const kernel_key *find_key(const char *key)
{
    for (int i = 0; i < N_KERNEL_KEYS; i++)
        if (strcmp(kernel_keys[i].key, key) == 0)
            return &kernel_keys[i];
    return NULL;
}

typedef struct entry {
    const config_setting_t *s;
    const char *name;
    int repeat;
    int first, last;   /* DAG indices of its instances (when repeat > 0) */
    int visiting;      /* cycle guard while resolving an absent kernel */
} entry;

/* What key k takes, for messages. */
static const char *takes(const kernel_key *k, char *out, size_t size)
{
    if (k->takes)
        snprintf(out, size, "%s", k->takes);
    else if (k->whole)
        snprintf(out, size, "a whole number from %.0f to %.0f", k->lo, k->hi);
    else
        snprintf(out, size, "a number >= %g, at most 2^53", k->lo);
    return out;
}

/* A number-or-formula member, checked against its range; `fallback` when
 * absent (NAN: required).  `repeated`: the kernel has several instances
 * (i varies). */
static int number(const config_setting_t *k, const char *key, const vars *v, double fallback,
                  const char *kname, int repeated, double *out)
{
    const kernel_key *kk = find_key(key);
    const config_setting_t *s = config_setting_get_member(k, key);
    char where[700], at[512], what[180], range[512];
    setting_where(s ? s : k, at, sizeof at);
    snprintf(what, sizeof what, "kernel '%s' %s", kname, key);
    snprintf(where, sizeof where, "%s: %s", at, what);
    if (!s) {
        if (isnan(fallback))
            return fail("%s: missing (every kernel needs blocks, threads and span)", where);
        *out = fallback;
        return 0;
    }
    int rc;
    if (config_setting_type(s) == CONFIG_TYPE_STRING)
        rc = formula_eval(config_setting_get_string(s), v, where, out);
    else if ((rc = setting_number(s, what, out)) > 0)
        return setting_wrong_type(s, what, "a number or a formula string");
    if (rc < 0)
        return -1;
    if (kk->whole && fabs(*out - round(*out)) <= 1e-9 * fmax(1, fabs(*out)))
        *out = round(*out); /* log2(2^31) evaluates to 31.000000000000004 */
    if ((kk->whole && *out != floor(*out)) || *out < kk->lo || (kk->lo_open && *out == kk->lo) || *out > kk->hi)
        return fail("%s%s = %g is out of range: it takes %s", where, repeated ? " (some repeat i)" : "", *out,
                    takes(kk, range, sizeof range));
    return 0;
}

static int check_keys(const config_setting_t *k, const char *kname)
{
    char where[512], what[256], range[512];
    for (int i = 0; i < config_setting_length(k); i++) {
        const config_setting_t *s = config_setting_get_elem(k, (unsigned)i);
        const kernel_key *kk = find_key(config_setting_name(s));
        setting_where(s, where, sizeof where);
        if (!kk)
            return fail("%s: kernel '%s': unknown key '%s' (known: name, blocks, threads, span, "
                        "work, reads, writes, uncoalesced_reads, uncoalesced_writes, coalesced, "
                        "aligned, after, repeat, private_words, span_/work_ plain, mulmod, addmod, private, "
                        "barriers, bank_conflicts)", where, kname, config_setting_name(s));
        snprintf(what, sizeof what, "kernel '%s' %s", kname, kk->key);
        int bad = kk->type == K_BOOL   ? config_setting_type(s) != CONFIG_TYPE_BOOL
                  : kk->type == K_AFTER ? !config_setting_is_array(s) && !config_setting_is_list(s)
                                        : 0;
        if (kk->type == K_BOOL)
            snprintf(range, sizeof range, "true or false (%s)", kk->takes);
        else
            takes(kk, range, sizeof range);
        if (bad)
            return setting_wrong_type(s, what, range);
    }
    return 0;
}

/* The optional class counts span_X and work_X of kernel s into c. */
static int read_classes(const config_setting_t *s, const vars *v, const char *kname, int repeated, block_cost *c)
{
    for (int i = 0; i < OP_CLASSES; i++)
        for (int side = 0; side < 2; side++) {
            char key[32];
            snprintf(key, sizeof key, "%s_%s", side ? "work" : "span", op_class_names[i]);
            double *slot = side ? &c->work_ops[i] : &c->span_ops[i];
            if (!config_setting_get_member(s, key)) {
                *slot = -1; /* not given: the rule of sim/model/kernel_dag.h */
                continue;
            }
            if (number(s, key, v, -1, kname, repeated, slot) < 0)
                return -1;
            c->classes = 1;
        }
    return 0;
}

/* Evaluate one instance (repeat index i) of entry e into a kernel. */
static int make_kernel(const entry *e, const vars *base, int i, kernel *k, char *name, size_t size)
{
    vars v = *base;
    if (vars_set(&v, "i", i) < 0)
        return -1;
    double blocks, threads, span, work, reads, writes, ureads, uwrites, priv, conflicts;
    const config_setting_t *s = e->s;
    int many = e->repeat > 1;
    if (number(s, "blocks", &v, NAN, e->name, many, &blocks) < 0 ||
        number(s, "threads", &v, NAN, e->name, many, &threads) < 0 ||
        number(s, "span", &v, NAN, e->name, many, &span) < 0 ||
        number(s, "work", &v, -1, e->name, many, &work) < 0 ||
        number(s, "reads", &v, 0, e->name, many, &reads) < 0 ||
        number(s, "writes", &v, 0, e->name, many, &writes) < 0 ||
        number(s, "uncoalesced_reads", &v, 0, e->name, many, &ureads) < 0 ||
        number(s, "uncoalesced_writes", &v, 0, e->name, many, &uwrites) < 0 ||
        number(s, "private_words", &v, -1, e->name, many, &priv) < 0 ||
        number(s, "bank_conflicts", &v, 0, e->name, many, &conflicts) < 0)
        return -1;
    int coalesced = 1, aligned = 1; /* typed by check_keys */
    config_setting_lookup_bool(s, "coalesced", &coalesced);
    config_setting_lookup_bool(s, "aligned", &aligned);
    if (e->repeat == 1)
        snprintf(name, size, "%s", e->name);
    else
        snprintf(name, size, "%s[%d]", e->name, i);
    memset(k, 0, sizeof *k);
    k->name = name;
    k->blocks = (long)ceil(blocks);
    k->threads = (int)threads;
    k->cost.span = span;
    k->cost.work = work;
    k->cost.reads = coalesced ? reads : 0;
    k->cost.writes = coalesced ? writes : 0;
    k->cost.uncoalesced_reads = ureads + (coalesced ? 0 : reads);
    k->cost.uncoalesced_writes = uwrites + (coalesced ? 0 : writes);
    k->private_words = priv;
    k->unaligned = !aligned;
    k->cost.bank_conflicts = conflicts;
    return read_classes(s, &v, e->name, many, &k->cost);
}

static int read_entries(const config_setting_t *list, entry *entries, const vars *v)
{
    char where[512];
    int n = config_setting_length(list);
    for (int e = 0; e < n; e++) {
        const config_setting_t *s = config_setting_get_elem(list, (unsigned)e);
        setting_where(s, where, sizeof where);
        if (!config_setting_is_group(s))
            return fail("%s: each kernel is a group { name = ...; blocks = ...; ... }", where);
        entries[e].s = s;
        entries[e].first = entries[e].last = -1;
        char what[64];
        snprintf(what, sizeof what, "kernel #%d's name", e + 1);
        if (member_string(s, "name", what, 127, &entries[e].name) < 0)
            return -1;
        if (!entries[e].name)
            return fail("%s: kernel #%d has no name", where, e + 1);
        if (entries[e].name[strcspn(entries[e].name, ",\"\r\n\t")])
            return fail("%s: kernel name \"%s\" holds a comma, a double quote, a tab or a line break, which a "
                        "kernel's name may not (it is a field of the trace's CSV)", where, entries[e].name);
        for (int d = 0; d < e; d++)
            if (strcmp(entries[d].name, entries[e].name) == 0)
                return fail("%s: kernel name '%s' is used twice", where, entries[e].name);
        if (check_keys(s, entries[e].name) < 0)
            return -1;
        double r;
        if (number(s, "repeat", v, 1, entries[e].name, 0, &r) < 0)
            return -1;
        entries[e].repeat = (int)r;
    }
    return 0;
}

static int find_entry(const entry *entries, int n, const char *name)
{
    for (int e = 0; e < n; e++)
        if (strcmp(entries[e].name, name) == 0)
            return e;
    return -1;
}

/* Make DAG kernel `k` come after everything entry `d` stands for. */
static int after_entry(kernel_dag *dag, entry *entries, int n, int k, int d);

/* The entries entry e comes after: its `after` list, or the previous one. */
static int after_list(kernel_dag *dag, entry *entries, int n, int k, int e)
{
    const config_setting_t *list = config_setting_get_member(entries[e].s, "after");
    if (!list)
        return e > 0 ? after_entry(dag, entries, n, k, e - 1) : 0;
    char where[512];
    setting_where(list, where, sizeof where);
    for (int j = 0; j < config_setting_length(list); j++) {
        const char *name = config_setting_get_string_elem(list, j);
        int d = name ? find_entry(entries, n, name) : -1;
        if (d < 0)
            return fail("%s: kernel '%s': after names '%s', which is not a kernel of this program",
                        where, entries[e].name, name ? name : "(not a string)");
        if (after_entry(dag, entries, n, k, d) < 0)
            return -1;
    }
    return 0;
}

static int after_entry(kernel_dag *dag, entry *entries, int n, int k, int d)
{
    if (entries[d].repeat > 0)
        return kernel_dag_after(dag, k, entries[d].last);
    if (entries[d].visiting) {
        char where[512];
        setting_where(entries[d].s, where, sizeof where);
        return fail("%s: the kernels' `after` lists form a cycle through kernel '%s' "
                    "(rule: a program is a DAG of kernels)", where, entries[d].name);
    }
    entries[d].visiting = 1;
    int rc = after_list(dag, entries, n, k, d);
    entries[d].visiting = 0;
    return rc;
}

kernel_dag *config_program_build(const char *name, const config_setting_t *list,
                                 const vars *params, const machine *m)
{
    char where[512];
    setting_where(list, where, sizeof where);
    int n = config_setting_length(list);
    if (!config_setting_is_list(list) || n == 0) {
        fail("%s: kernels must be a non-empty list ( { ... }, { ... } )", where);
        return NULL;
    }
    vars v;
    program_formula_vars(params, m, &v);
    entry *entries = calloc((size_t)n, sizeof *entries);
    kernel_dag *dag = kernel_dag_new(name);
    if (read_entries(list, entries, &v) < 0)
        goto failed;
    for (int e = 0; e < n; e++)
        for (int i = 0; i < entries[e].repeat; i++) {
            kernel k;
            char kname[160];
            if (make_kernel(&entries[e], &v, i, &k, kname, sizeof kname) < 0)
                goto failed;
            int index = i == 0 ? kernel_dag_add(dag, &k) : kernel_dag_chain(dag, &k);
            if (index < 0) {
                setting_where(entries[e].s, where, sizeof where);
                fail("%s: %s", where, fail_message());
                goto failed;
            }
            if (i == 0)
                entries[e].first = index;
            entries[e].last = index;
        }
    for (int e = 0; e < n; e++)
        if (entries[e].repeat > 0 && after_list(dag, entries, n, entries[e].first, e) < 0)
            goto failed;
    if (dag->n == 0) {
        fail("%s: program '%s' has no kernel to run (every kernel is repeated 0 times)", where, name);
        goto failed;
    }
    free(entries);
    return dag;
failed:
    free(entries);
    kernel_dag_free(dag);
    return NULL;
}
