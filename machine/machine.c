/*
 * machine.c — machine fields, their defaults, their rules, and the files
 * they are read from (see machine.h).
 *
 * The field table below is the single list of machine fields: reading a
 * config group, `--set` and the error for an unknown key all walk it.  A
 * field may have a second key (an alias): the DMM/UMM chapter's `w` for
 * `warp` and `l` for `latency`.
 */
#include "machine.h"
#include "fail.h"

#include <errno.h>
#include <stddef.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#ifndef MCMSIM_DATADIR
#define MCMSIM_DATADIR "."
#endif

void machine_defaults(machine *m)
{
    memset(m, 0, sizeof *m);
    snprintf(m->name, sizeof m->name, "mcm");
    m->p = 16;
    m->u = 8;
    m->z = 12288;
    m->policy = MEM_PARALLEL;
    m->bandwidth = 0;
    m->launch_latency = 0;
    m->block_dispatch = 0;
    m->clock_hz = 1e9;
    m->order = ORDER_FIFO;
    m->seed = 1;
    m->warp = 32;
    m->kind = KIND_MCM;
    m->latency = 0; /* not set: a dmm/umm machine must give it */
    /* card terms: all off */
    m->cycles_plain = m->cycles_mulmod = m->cycles_addmod = m->cycles_private = m->cycles_barrier = 1;
    m->blocks_per_sm = 1;
    m->l2_partitions = 1;
    m->launch = LAUNCH_STREAM;
}

int machine_card_compute(const machine *m)
{
    return m->lanes > 0 || m->lanes_mulmod > 0 || m->lanes_addmod > 0 || m->lanes_private > 0 || m->private_port ||
           m->cycles_plain != 1 || m->cycles_mulmod != 1 || m->cycles_addmod != 1 ||
           m->cycles_private != 1 || m->cycles_barrier != 1 || m->issue_rate > 0;
}

int machine_card_residency(const machine *m)
{
    return m->blocks_per_sm > 1;
}

int machine_caches(const machine *m)
{
    return m->l1_words > 0;
}

double machine_launch_latency(const machine *m)
{
    return m->launch == LAUNCH_GRAPH ? m->graph_launch_latency : m->launch_latency;
}

double machine_kernel_launch_latency(const machine *m, long blocks)
{
    long spanned = blocks < m->p ? blocks : m->p;
    double per_sm = m->launch == LAUNCH_GRAPH && spanned > 1 ? m->graph_launch_per_sm * (double)(spanned - 1) : 0;
    return machine_launch_latency(m) + per_sm;
}

double machine_constant_lines_latency(const machine *m, int lines)
{
    return lines * m->constant_line_latency;
}

double machine_start_latency(const machine *m)
{
    return m->launch == LAUNCH_GRAPH ? m->graph_start_latency : 0;
}

/* The names of each choice, in the order of its enum. */
static const char *const kinds[] = {"mcm", "dmm", "umm", NULL};
static const char *const policies[] = {"parallel", "exclusive", "shared", NULL};
static const char *const orders[] = {"fifo", "random", NULL};
static const char *const launches[] = {"stream", "graph", NULL};

const char *launch_mode_name(launch_mode l) { return launches[l]; }
const char *machine_kind_name(machine_kind k) { return kinds[k]; }
const char *memory_policy_name(memory_policy p) { return policies[p]; }
const char *block_order_name(block_order o) { return orders[o]; }

double machine_bandwidth(const machine *m)
{
    return m->bandwidth > 0 ? m->bandwidth : m->p / m->u;
}

/* ---- one table of fields ------------------------------------------------ */

typedef enum { F_TEXT, F_INT, F_NUM, F_SEED, F_CHOICE } field_kind;

#define INT_TOP 2147483647.0 /* an int field holds at most 2^31 - 1 */

typedef struct field {
    const char *key;
    field_kind kind;
    size_t offset;
    double lo, hi;      /* F_INT, F_NUM: the range */
    int lo_open;        /* F_NUM: > lo, not >= lo */
    const char *const *choices; /* F_CHOICE: the names, in the order of the enum */
    const char *alias;  /* a second key for the same field, or NULL */
} field;

#define TEXT(key, member) {key, F_TEXT, offsetof(machine, member), 0, sizeof ((machine *)0)->member - 1, 0, NULL, NULL}
#define WHOLE(key, member, lo, hi) {key, F_INT, offsetof(machine, member), lo, hi, 0, NULL, NULL}
#define NUMBER(key, member, lo) {key, F_NUM, offsetof(machine, member), lo, EXACT_WHOLE_MAX, 0, NULL, NULL}
#define SHARE(key, member) {key, F_NUM, offsetof(machine, member), 0, 1, 0, NULL, NULL}
#define POSITIVE(key, member) {key, F_NUM, offsetof(machine, member), 0, EXACT_WHOLE_MAX, 1, NULL, NULL}
#define CHOICE(key, member, names) {key, F_CHOICE, offsetof(machine, member), 0, 0, 0, names, NULL}

static const field fields[] = {
    TEXT("name", name),
    TEXT("source", source),
    CHOICE("kind", kind, kinds),
    WHOLE("p", p, 1, INT_TOP),
    POSITIVE("u", u),
    NUMBER("z", z, 1),
    CHOICE("policy", policy, policies),
    NUMBER("bandwidth", bandwidth, 0),
    NUMBER("launch_latency", launch_latency, 0),
    NUMBER("block_dispatch", block_dispatch, 0),
    POSITIVE("clock_hz", clock_hz),
    CHOICE("order", order, orders),
    {"seed", F_SEED, offsetof(machine, seed), 0, 0, 0, NULL, NULL},
    {"warp", F_INT, offsetof(machine, warp), 1, INT_TOP, 0, NULL, "w"},
    {"latency", F_INT, offsetof(machine, latency), 0, INT_TOP, 0, NULL, "l"},
    NUMBER("lanes", lanes, 0),
    NUMBER("lanes_mulmod", lanes_mulmod, 0),
    NUMBER("lanes_addmod", lanes_addmod, 0),
    NUMBER("lanes_private", lanes_private, 0),
    WHOLE("private_port", private_port, 0, 1),
    NUMBER("cycles_plain", cycles_plain, 0),
    NUMBER("cycles_mulmod", cycles_mulmod, 0),
    NUMBER("cycles_addmod", cycles_addmod, 0),
    NUMBER("cycles_private", cycles_private, 0),
    NUMBER("cycles_barrier", cycles_barrier, 0),
    NUMBER("issue_rate", issue_rate, 0),
    NUMBER("cycles_issue", cycles_issue, 0),
    NUMBER("cycles_issue_independent", cycles_issue_independent, 0),
    NUMBER("cycles_mulmod_independent", cycles_mulmod_independent, 0),
    NUMBER("cycles_predicate", cycles_predicate, 0),
    NUMBER("cycles_branch", cycles_branch, 0),
    NUMBER("cycles_divide", cycles_divide, 0),
    NUMBER("cycles_divide32", cycles_divide32, 0),
    NUMBER("constant_line_latency", constant_line_latency, 0),
    WHOLE("schedulers", schedulers, 0, INT_TOP),
    NUMBER("cycles_mulmod_warps2", cycles_mulmod_warps2, 0),
    NUMBER("cycles_mulmod_warps4", cycles_mulmod_warps4, 0),
    NUMBER("cycles_issue_warps2", cycles_issue_warps2, 0),
    NUMBER("cycles_issue_warps4", cycles_issue_warps4, 0),
    NUMBER("cycles_issue_warps8", cycles_issue_warps8, 0),
    WHOLE("blocks_per_sm", blocks_per_sm, 1, INT_TOP),
    NUMBER("block_retire", block_retire, 0),
    WHOLE("issue_by_age", issue_by_age, 0, 1),
    WHOLE("threads_per_sm", threads_per_sm, 0, INT_TOP),
    NUMBER("l2_words", l2_words, 0),
    NUMBER("u_dram", u_dram, 0),
    NUMBER("u_dram_unaligned", u_dram_unaligned, 0),
    NUMBER("u_dram_mixed", u_dram_mixed, 0),
    NUMBER("sector_words", sector_words, 0),
    NUMBER("l1_words", l1_words, 0),
    NUMBER("line_words", line_words, 0),
    NUMBER("u_l1", u_l1, 0),
    NUMBER("read_latency_l1", read_latency_l1, 0),
    NUMBER("read_latency_l2", read_latency_l2, 0),
    NUMBER("u_l2_write", u_l2_write, 0),
    NUMBER("u_l2_write_sm", u_l2_write_sm, 0),
    NUMBER("u_l2_write_warps4", u_l2_write_warps4, 0),
    NUMBER("u_l2_copy", u_l2_copy, 0),
    NUMBER("u_l2_copy_sm", u_l2_copy_sm, 0),
    SHARE("write_issue_overlap", write_issue_overlap),
    NUMBER("u_dram_partial", u_dram_partial, 0),
    NUMBER("u_l2_partial", u_l2_partial, 0),
    NUMBER("dram_atom_words", dram_atom_words, 0),
    WHOLE("l2_partitions", l2_partitions, 1, 64),
    NUMBER("u_l2_request", u_l2_request, 0),
    NUMBER("u_dram_request", u_dram_request, 0),
    NUMBER("read_latency", read_latency, 0),
    NUMBER("read_latency_dram", read_latency_dram, 0),
    CHOICE("launch", launch, launches),
    NUMBER("graph_launch_latency", graph_launch_latency, 0),
    NUMBER("graph_start_latency", graph_start_latency, 0),
    NUMBER("graph_launch_per_sm", graph_launch_per_sm, 0),
};
enum { N_FIELDS = sizeof fields / sizeof fields[0] };

static const field *find_field(const char *key)
{
    for (int i = 0; i < N_FIELDS; i++)
        if (strcasecmp(fields[i].key, key) == 0 || (fields[i].alias && strcasecmp(fields[i].alias, key) == 0))
            return &fields[i];
    return NULL;
}

const char *machine_field_names(void)
{
    static char names[1024];
    if (names[0])
        return names;
    size_t used = 0;
    for (int i = 0; i < N_FIELDS && used < sizeof names; i++)
        used += (size_t)snprintf(names + used, sizeof names - used, "%s%s%s%s%s", i ? ", " : "",
                                 fields[i].key, fields[i].alias ? " (or " : "",
                                 fields[i].alias ? fields[i].alias : "", fields[i].alias ? ")" : "");
    return names;
}

int machine_field_is_number(const char *key)
{
    const field *f = find_field(key);
    return !f ? -1 : f->kind == F_INT || f->kind == F_NUM || f->kind == F_SEED;
}

const char *machine_field_key(const char *key)
{
    const field *f = find_field(key);
    return f ? f->key : NULL;
}

const char *machine_key(int i)
{
    return i >= 0 && i < N_FIELDS ? fields[i].key : NULL;
}

/* What field f takes, for messages: "a whole number from 1 to 2147483647". */
static const char *takes(const field *f, char *out, size_t size)
{
    switch (f->kind) {
    case F_TEXT:
        snprintf(out, size, "a string of at most %.0f characters", f->hi);
        break;
    case F_INT:
        snprintf(out, size, f->hi == f->lo + 1 ? "%.0f or %.0f" : "a whole number from %.0f to %.0f", f->lo, f->hi);
        break;
    case F_NUM:
        if (f->hi < EXACT_WHOLE_MAX)
            snprintf(out, size, "a number from %g to %g", f->lo, f->hi);
        else
            snprintf(out, size, "a number %s %g, at most 2^53", f->lo_open ? ">" : ">=", f->lo);
        break;
    case F_SEED:
        snprintf(out, size, "a whole number from 0 to 18446744073709551615");
        break;
    case F_CHOICE: {
        size_t used = (size_t)snprintf(out, size, "one of ");
        for (int i = 0; f->choices[i] && used < size; i++)
            used += (size_t)snprintf(out + used, size - used, "%s%s", i ? ", " : "", f->choices[i]);
        break;
    }
    }
    return out;
}

/* A name, a choice or a seed, as text, into field f of m; `where` and
 * `key` (as written) name it in messages. */
static int store_text(machine *m, const field *f, const char *text, const char *where, const char *key)
{
    char *slot = (char *)m + f->offset, range[256];
    if (f->kind == F_TEXT) {
        if (strlen(text) > f->hi)
            return fail("%s: machine key '%s' is %zu characters long, out of range: it takes %s", where, key,
                        strlen(text), takes(f, range, sizeof range));
        snprintf(slot, (size_t)f->hi + 1, "%s", text);
        return 0;
    }
    if (f->kind == F_CHOICE) {
        for (int i = 0; f->choices[i]; i++)
            if (strcmp(text, f->choices[i]) == 0) {
                *(int *)slot = i;
                return 0;
            }
        return fail("%s: %s \"%s\" is not %s", where, key, text, takes(f, range, sizeof range));
    }
    /* F_SEED: every 64-bit seed, which a double would not hold */
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (end == text || *end || text[strspn(text, " ")] == '-' || errno)
        return fail("%s: machine key %s = %s is out of range: it takes %s", where, key, text,
                    takes(f, range, sizeof range));
    *(uint64_t *)slot = v;
    return 0;
}

/* A number into field f of m, checked against its range; `written` is
 * the number as the user wrote it. */
static int store_number(machine *m, const field *f, double v, const char *written, const char *where,
                        const char *key)
{
    char range[256];
    int whole = v == floor(v);
    if (f->kind == F_INT && !whole)
        return fail("%s: machine key %s = %s is not a whole number: it takes %s", where, key, written,
                    takes(f, range, sizeof range));
    if (v < f->lo || (f->lo_open && v == f->lo) || v > f->hi)
        return fail("%s: machine key %s = %s is out of range: it takes %s", where, key, written,
                    takes(f, range, sizeof range));
    char *slot = (char *)m + f->offset;
    if (f->kind == F_INT)
        *(int *)slot = (int)v;
    else
        *(double *)slot = v;
    return 0;
}

int machine_set_field(machine *m, const char *key, const char *value)
{
    char where[256];
    snprintf(where, sizeof where, "--set %s=%s", key, value);
    return machine_set_field_at(m, key, value, where);
}

int machine_set_field_at(machine *m, const char *key, const char *value, const char *where)
{
    const field *f = find_field(key);
    if (!f)
        return 0;
    char range[256], what[96];
    snprintf(what, sizeof what, "machine key %s", key);
    double v;
    int rc = f->kind == F_INT || f->kind == F_NUM ? text_number(value, where, what, &v)
                                                   : store_text(m, f, value, where, key);
    if (rc > 0)
        rc = fail("%s: machine key '%s' takes %s, not \"%s\"", where, key, takes(f, range, sizeof range), value);
    else if (rc == 0 && (f->kind == F_INT || f->kind == F_NUM))
        rc = store_number(m, f, v, value, where, key);
    return rc < 0 ? -1 : 1;
}

/* One member of a machine group into m, with its type. */
static int read_field(machine *m, const field *f, const config_setting_t *s)
{
    char where[512], what[128], range[256], written[64];
    const char *key = config_setting_name(s);
    setting_where(s, where, sizeof where);
    snprintf(what, sizeof what, "machine key '%s'", key);
    int type = config_setting_type(s);
    if (f->kind == F_TEXT || f->kind == F_CHOICE)
        return type == CONFIG_TYPE_STRING ? store_text(m, f, config_setting_get_string(s), where, key)
                                          : setting_wrong_type(s, what, takes(f, range, sizeof range));
    if (f->kind == F_SEED) {
        if (type == CONFIG_TYPE_INT || type == CONFIG_TYPE_INT64)
            snprintf(written, sizeof written, "%lld", config_setting_get_int64(s));
        else if (type == CONFIG_TYPE_FLOAT)
            snprintf(written, sizeof written, "%.17g", config_setting_get_float(s));
        else
            return setting_wrong_type(s, what, takes(f, range, sizeof range));
        return store_text(m, f, written, where, key);
    }
    double v;
    int rc = setting_number(s, what, &v);
    if (rc > 0)
        return setting_wrong_type(s, what, takes(f, range, sizeof range));
    if (rc < 0)
        return -1;
    if (type == CONFIG_TYPE_FLOAT)
        snprintf(written, sizeof written, "%.17g", v);
    else
        snprintf(written, sizeof written, "%lld", config_setting_get_int64(s));
    return store_number(m, f, v, written, where, key);
}

/* Member i of the group sets field f, which no member before it sets
 * (libconfig refuses a key written twice, not P beside p). */
static int given_before(const config_setting_t *group, int i, const field *f)
{
    const config_setting_t *s = config_setting_get_elem(group, (unsigned)i);
    for (int j = 0; j < i; j++) {
        const config_setting_t *e = config_setting_get_elem(group, (unsigned)j);
        if (find_field(config_setting_name(e)) != f)
            continue;
        char where[512];
        setting_where(s, where, sizeof where);
        return fail("%s: machine key '%s' sets %s, which '%s' on line %u sets already (rule: one value per "
                    "machine key)", where, config_setting_name(s), f->key, config_setting_name(e),
                    config_setting_source_line(e));
    }
    return 0;
}

int machine_read_group(machine *m, const config_setting_t *group)
{
    char where[512];
    setting_where(group, where, sizeof where);
    if (!config_setting_is_group(group))
        return setting_wrong_type(group, "machine", "a preset name, a machine file or a group { p = ...; ... }");
    for (int i = 0; i < config_setting_length(group); i++) {
        const config_setting_t *s = config_setting_get_elem(group, (unsigned)i);
        const char *key = config_setting_name(s);
        setting_where(s, where, sizeof where);
        if (strcmp(key, "preset") == 0)
            continue; /* a run file's inline machine may start from a preset (runfile.c) */
        const field *f = find_field(key);
        if (!f)
            return fail("%s: unknown machine key '%s' (known: %s)", where, key, machine_field_names());
        if (given_before(group, i, f) < 0)
            return -1;
        if (read_field(m, f, s) < 0)
            return -1;
    }
    return 0;
}

const char *machine_preset_dir(void)
{
    const char *env = getenv("MCMSIM_DATADIR");
    static char dir[1024];
    snprintf(dir, sizeof dir, "%s/machine", env && *env ? env : MCMSIM_DATADIR);
    return dir;
}

void machine_preset_path(const char *name, char *out, size_t size)
{
    snprintf(out, size, "%s/%s.cfg", machine_preset_dir(), name);
}

int machine_load_file(machine *m, const char *path)
{
    machine_defaults(m); /* a file gives a whole machine: unset fields keep the defaults */
    config_t cfg;
    config_init(&cfg);
    int rc = config_file_read(&cfg, path);
    if (rc == 0) {
        config_setting_t *root = config_root_setting(&cfg);
        config_setting_t *group = config_setting_get_member(root, "machine");
        if (!group || config_setting_length(root) != 1)
            rc = fail("%s: a machine file holds exactly one group: machine = { ... };", path);
        else if (config_setting_is_group(group) && config_setting_get_member(group, "preset"))
            rc = fail("%s: preset is for a run file's inline machine; a machine file gives its keys", path);
        else
            rc = machine_read_group(m, group);
        if (rc == 0 && !config_setting_get_member(group, "name")) { /* its path, never the default "mcm" */
            memset(m->name, 0, sizeof m->name);
            snprintf(m->name, sizeof m->name, "%s", path);
        }
    }
    config_destroy(&cfg);
    return rc;
}

/* A dmm/umm machine: p threads, width w, latency l, all >= 1, and none of
 * the MCM's own settings away from its default (it would be ignored). */
static int validate_dmm_umm(const machine *m)
{
    const char *n = m->name, *k = machine_kind_name(m->kind);
    if (m->p <= 0)
        return fail("machine '%s': p = %d, but a %s machine needs p >= 1 threads", n, m->p, k);
    if (m->warp <= 0)
        return fail("machine '%s': w = %d, but a %s machine needs a width w >= 1 (banks)", n, m->warp, k);
    if (m->latency <= 0)
        return fail("machine '%s': l = %d%s, but a %s machine needs a latency l >= 1 time unit", n,
                    m->latency, m->latency == 0 ? " (not set)" : "", k);
    const char *mcm_only = m->policy != MEM_PARALLEL ? "policy"
                           : m->bandwidth != 0       ? "bandwidth"
                           : m->launch_latency != 0  ? "launch_latency"
                           : m->block_dispatch != 0  ? "block_dispatch"
                           : m->order != ORDER_FIFO  ? "order"
                           : machine_card_compute(m) || m->schedulers != 0 ? "lanes/cycles_*"
                           : m->blocks_per_sm != 1 || m->threads_per_sm != 0 || m->block_retire != 0 ||
                                   m->issue_by_age != 0
                               ? "blocks_per_sm"
                           : m->l2_words != 0 || m->u_dram != 0 || m->u_dram_unaligned != 0 ||
                                   m->u_dram_mixed != 0
                               ? "l2_words/u_dram"
                           : m->sector_words != 0 ? "sector_words"
                           : m->l1_words != 0 || m->line_words != 0 || m->u_l1 != 0 || m->read_latency_l1 != 0 ||
                                   m->read_latency_l2 != 0 || m->u_l2_write != 0 || m->u_l2_copy != 0 ||
                                   m->u_l2_write_sm != 0 || m->u_l2_write_warps4 != 0 || m->u_l2_copy_sm != 0 ||
                                   m->write_issue_overlap != 0 ||
                                   m->u_dram_partial != 0 || m->u_l2_partial != 0 || m->dram_atom_words != 0 ||
                                   m->u_l2_request != 0 || m->u_dram_request != 0 || m->l2_partitions != 1
                               ? "l1_words"
                           : m->read_latency != 0 || m->read_latency_dram != 0 ? "read_latency"
                           : m->graph_launch_latency != 0 || m->graph_start_latency != 0 || m->graph_launch_per_sm != 0 ||
                                   m->launch != LAUNCH_STREAM
                               ? "launch"
                                                     : NULL;
    if (mcm_only)
        return fail("machine '%s': '%s' is an MCM setting, but this is a %s machine (kind = \"%s\": "
                    "only p, w and l apply; leave %s at its default)", n, mcm_only, k, k, mcm_only);
    return 0;
}

/* The caches of exec mode (l1_words > 0): whole sectors within whole
 * lines of at most 32 words, an L2 behind the L1, a rate for L1 hits. */
static int validate_caches(const machine *m)
{
    const char *n = m->name;
    double s = m->sector_words, line = m->line_words;
    if (!(s >= 1) || s != floor(s) || !(line >= s) || line != floor(line) || line > 32 || fmod(line, s) != 0)
        return fail("machine '%s': l1_words = %g needs whole sectors in whole lines (sector_words = %g, "
                    "line_words = %g; rule: 1 <= sector_words <= line_words <= 32, line_words a multiple "
                    "of sector_words)", n, m->l1_words, s, line);
    if (!(m->l2_words >= line * m->l2_partitions))
        return fail("machine '%s': l1_words = %g needs an L2 behind it: l2_words = %g must hold at least "
                    "one line of %g words in each of its l2_partitions = %d", n, m->l1_words, m->l2_words, line,
                    m->l2_partitions);
    if (!(m->u_l1 > 0))
        return fail("machine '%s': l1_words = %g needs u_l1 > 0 (cycles per word the L1 serves)", n,
                    m->l1_words);
    double atom = m->dram_atom_words;
    if (atom != 0 && (atom != floor(atom) || fmod(atom, s) != 0 || atom > line || fmod(line, atom) != 0))
        return fail("machine '%s': dram_atom_words = %g must be 0 (a sector) or whole sectors that divide a "
                    "line (sector_words = %g, line_words = %g)", n, atom, s, line);
    return 0;
}

/* The rows of a dependent link's latency with 1, 2, 4 (8) warps on a
 * scheduler (`lat`, 0: a row not given): warps take turns at worst, so
 * twice the warps at most double the latency between two rows given.
 * The engine's bound on a block's span beside other blocks rests on it
 * (run.c, check_theorem1). */
static int warps_rows_within_turns(const machine *m, const char *const keys[], const double lat[], int rows)
{
    int last = 0; /* the row of one warp: keys[0], lat[0] */
    for (int i = 1; i < rows; i++) {
        if (!(lat[i] > 0))
            continue;
        double times = (double)(1 << i) / (1 << last);
        if (lat[last] > 0 && lat[i] > times * lat[last])
            return fail("machine '%s': %s = %g is more than %g times %s = %g: with %g times the warps on a "
                        "scheduler a dependent link waits at most %g times as long (the warps take turns)",
                        m->name, keys[i], lat[i], times, keys[last], lat[last], times, times);
        last = i;
    }
    return 0;
}

/* The card terms: rates and latencies >= 0, at least one resident block,
 * a DRAM cost wherever there is a cache. */
static int validate_card(const machine *m)
{
    const char *n = m->name;
    const struct { const char *key; double v; } rates[] = {
        {"lanes", m->lanes}, {"lanes_mulmod", m->lanes_mulmod}, {"lanes_addmod", m->lanes_addmod},
        {"lanes_private", m->lanes_private}, {"cycles_plain", m->cycles_plain},
        {"cycles_mulmod", m->cycles_mulmod}, {"cycles_addmod", m->cycles_addmod},
        {"cycles_private", m->cycles_private}, {"cycles_barrier", m->cycles_barrier},
        {"issue_rate", m->issue_rate}, {"cycles_issue", m->cycles_issue},
        {"cycles_issue_independent", m->cycles_issue_independent},
        {"cycles_mulmod_independent", m->cycles_mulmod_independent},
        {"cycles_predicate", m->cycles_predicate}, {"cycles_branch", m->cycles_branch},
        {"cycles_divide", m->cycles_divide}, {"cycles_divide32", m->cycles_divide32},
        {"constant_line_latency", m->constant_line_latency},
        {"cycles_mulmod_warps2", m->cycles_mulmod_warps2}, {"cycles_mulmod_warps4", m->cycles_mulmod_warps4},
        {"cycles_issue_warps2", m->cycles_issue_warps2}, {"cycles_issue_warps4", m->cycles_issue_warps4},
        {"cycles_issue_warps8", m->cycles_issue_warps8},
        {"l2_words", m->l2_words}, {"u_dram", m->u_dram}, {"u_dram_unaligned", m->u_dram_unaligned},
        {"u_dram_mixed", m->u_dram_mixed},
        {"sector_words", m->sector_words},
        {"l1_words", m->l1_words}, {"line_words", m->line_words}, {"u_l1", m->u_l1},
        {"read_latency_l1", m->read_latency_l1}, {"read_latency_l2", m->read_latency_l2},
        {"u_l2_write", m->u_l2_write}, {"u_l2_copy", m->u_l2_copy}, {"u_l2_write_sm", m->u_l2_write_sm},
        {"u_l2_write_warps4", m->u_l2_write_warps4}, {"u_l2_copy_sm", m->u_l2_copy_sm},
        {"write_issue_overlap", m->write_issue_overlap}, {"u_dram_partial", m->u_dram_partial},
        {"u_l2_partial", m->u_l2_partial},
        {"dram_atom_words", m->dram_atom_words}, {"u_l2_request", m->u_l2_request},
        {"u_dram_request", m->u_dram_request},
        {"read_latency", m->read_latency}, {"read_latency_dram", m->read_latency_dram},
        {"graph_launch_latency", m->graph_launch_latency}, {"graph_start_latency", m->graph_start_latency},
        {"graph_launch_per_sm", m->graph_launch_per_sm},
    };
    for (size_t i = 0; i < sizeof rates / sizeof rates[0]; i++)
        if (!(rates[i].v >= 0))
            return fail("machine '%s': %s = %g must be >= 0", n, rates[i].key, rates[i].v);
    const char *const mulmod_keys[] = {"cycles_mulmod", "cycles_mulmod_warps2", "cycles_mulmod_warps4"};
    const double mulmod_rows[] = {m->cycles_mulmod, m->cycles_mulmod_warps2, m->cycles_mulmod_warps4};
    const char *const issue_keys[] = {"cycles_issue", "cycles_issue_warps2", "cycles_issue_warps4",
                                      "cycles_issue_warps8"};
    const double issue_rows[] = {m->cycles_issue, m->cycles_issue_warps2, m->cycles_issue_warps4,
                                 m->cycles_issue_warps8};
    if (warps_rows_within_turns(m, mulmod_keys, mulmod_rows, 3) < 0 ||
        warps_rows_within_turns(m, issue_keys, issue_rows, 4) < 0)
        return -1;
    if (m->private_port != 0 && m->private_port != 1)
        return fail("machine '%s': private_port = %d must be 0 (one pipe for every class) or 1 "
                    "(the private memory's banks beside the arithmetic)", n, m->private_port);
    if (m->blocks_per_sm < 1)
        return fail("machine '%s': blocks_per_sm = %d, but an SM holds at least 1 block", n, m->blocks_per_sm);
    if (m->threads_per_sm < 0)
        return fail("machine '%s': threads_per_sm = %d must be >= 0 (0: no limit)", n, m->threads_per_sm);
    if (!(m->block_retire >= 0))
        return fail("machine '%s': block_retire = %g must be >= 0", n, m->block_retire);
    if (m->issue_by_age && m->blocks_per_sm < 2)
        return fail("machine '%s': issue_by_age = 1 needs blocks_per_sm > 1 (it is the order in which an SM "
                    "serves its resident blocks)", n);
    if (m->block_retire > 0 && m->blocks_per_sm < 2)
        return fail("machine '%s': block_retire = %g needs blocks_per_sm > 1 (it is the retiring of an SM's "
                    "resident blocks; with one block per SM put it in block_dispatch)", n, m->block_retire);
    if (m->l2_words > 0 && !(m->u_dram > 0))
        return fail("machine '%s': l2_words = %g needs u_dram > 0 (cycles per word beyond the L2)",
                    n, m->l2_words);
    /* the writers' keys refine the caches' write rate, u_l2_write; like it
     * they are read as nothing where the caches are off (l1_words 0, as
     * validate's machine without the caches) */
    if (m->u_l2_write_sm > 0 && !(m->u_l2_write > 0))
        return fail("machine '%s': u_l2_write_sm = %g needs the caches' write rate, u_l2_write > 0 "
                    "(an SM's own write rate beside the card's, shared by the SMs writing)", n, m->u_l2_write_sm);
    if (m->u_l2_write_warps4 > 0 && !(m->u_l2_write_sm > 0))
        return fail("machine '%s': u_l2_write_warps4 = %g needs u_l2_write_sm > 0 (an SM's own write rate: its "
                    "port's, or its warps' where slower)", n, m->u_l2_write_warps4);
    if (m->u_l2_copy_sm > 0 && !(m->u_l2_write_sm > 0 && m->u_l2_copy > 0))
        return fail("machine '%s': u_l2_copy_sm = %g needs u_l2_write_sm > 0 and u_l2_copy > 0 (an SM's own copy "
                    "rate beside the card's, shared by the SMs copying, as the writes')", n, m->u_l2_copy_sm);
    return machine_caches(m) ? validate_caches(m) : 0;
}

int machine_validate(const machine *m)
{
    const char *n = m->name;
    if (m->kind != KIND_MCM)
        return validate_dmm_umm(m);
    if (m->latency != 0)
        return fail("machine '%s': latency l = %d is a DMM/UMM setting, but the machine's kind is mcm "
                    "(set kind = \"dmm\" or \"umm\", or leave l out)", n, m->latency);
    if (m->p <= 0)
        return fail("machine '%s': P = %d, but the MCM needs P > 0 streaming multiprocessors", n, m->p);
    if (!(m->u > 0))
        return fail("machine '%s': U = %g, but moving a word must cost U > 0 cycles", n, m->u);
    if (!(m->z >= 1))
        return fail("machine '%s': Z = %g, but private memory needs Z >= 1 word", n, m->z);
    if (m->bandwidth < 0)
        return fail("machine '%s': bandwidth = %g must be >= 0 (0 means P/U)", n, m->bandwidth);
    if (m->launch_latency < 0)
        return fail("machine '%s': launch_latency = %g must be >= 0", n, m->launch_latency);
    if (m->block_dispatch < 0)
        return fail("machine '%s': block_dispatch = %g must be >= 0", n, m->block_dispatch);
    if (!(m->clock_hz > 0))
        return fail("machine '%s': clock_hz = %g must be > 0", n, m->clock_hz);
    if (m->warp <= 0)
        return fail("machine '%s': warp = %d must be > 0", n, m->warp);
    return validate_card(m);
}
