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

double machine_start_latency(const machine *m)
{
    return m->launch == LAUNCH_GRAPH ? m->graph_start_latency : 0;
}

const char *launch_mode_name(launch_mode l)
{
    return l == LAUNCH_GRAPH ? "graph" : "stream";
}

const char *machine_kind_name(machine_kind k)
{
    switch (k) {
    case KIND_DMM: return "dmm";
    case KIND_UMM: return "umm";
    default: return "mcm";
    }
}

const char *memory_policy_name(memory_policy p)
{
    switch (p) {
    case MEM_EXCLUSIVE: return "exclusive";
    case MEM_SHARED: return "shared";
    default: return "parallel";
    }
}

const char *block_order_name(block_order o)
{
    return o == ORDER_RANDOM ? "random" : "fifo";
}

double machine_bandwidth(const machine *m)
{
    return m->bandwidth > 0 ? m->bandwidth : m->p / m->u;
}

/* ---- one table of fields ------------------------------------------------ */

typedef enum { F_NAME, F_INT, F_NUM, F_POLICY, F_ORDER, F_SEED, F_KIND, F_LAUNCH } field_kind;

typedef struct field {
    const char *key;
    field_kind kind;
    size_t offset;
    const char *alias; /* a second key for the same field, or NULL */
} field;

static const field fields[] = {
    {"name", F_NAME, offsetof(machine, name), NULL},
    {"kind", F_KIND, offsetof(machine, kind), NULL},
    {"p", F_INT, offsetof(machine, p), NULL},
    {"u", F_NUM, offsetof(machine, u), NULL},
    {"z", F_NUM, offsetof(machine, z), NULL},
    {"policy", F_POLICY, offsetof(machine, policy), NULL},
    {"bandwidth", F_NUM, offsetof(machine, bandwidth), NULL},
    {"launch_latency", F_NUM, offsetof(machine, launch_latency), NULL},
    {"block_dispatch", F_NUM, offsetof(machine, block_dispatch), NULL},
    {"clock_hz", F_NUM, offsetof(machine, clock_hz), NULL},
    {"order", F_ORDER, offsetof(machine, order), NULL},
    {"seed", F_SEED, offsetof(machine, seed), NULL},
    {"warp", F_INT, offsetof(machine, warp), "w"},
    {"latency", F_INT, offsetof(machine, latency), "l"},
    {"lanes", F_NUM, offsetof(machine, lanes), NULL},
    {"lanes_mulmod", F_NUM, offsetof(machine, lanes_mulmod), NULL},
    {"lanes_addmod", F_NUM, offsetof(machine, lanes_addmod), NULL},
    {"lanes_private", F_NUM, offsetof(machine, lanes_private), NULL},
    {"private_port", F_INT, offsetof(machine, private_port), NULL},
    {"cycles_plain", F_NUM, offsetof(machine, cycles_plain), NULL},
    {"cycles_mulmod", F_NUM, offsetof(machine, cycles_mulmod), NULL},
    {"cycles_addmod", F_NUM, offsetof(machine, cycles_addmod), NULL},
    {"cycles_private", F_NUM, offsetof(machine, cycles_private), NULL},
    {"cycles_barrier", F_NUM, offsetof(machine, cycles_barrier), NULL},
    {"issue_rate", F_NUM, offsetof(machine, issue_rate), NULL},
    {"cycles_issue", F_NUM, offsetof(machine, cycles_issue), NULL},
    {"blocks_per_sm", F_INT, offsetof(machine, blocks_per_sm), NULL},
    {"block_retire", F_NUM, offsetof(machine, block_retire), NULL},
    {"threads_per_sm", F_INT, offsetof(machine, threads_per_sm), NULL},
    {"l2_words", F_NUM, offsetof(machine, l2_words), NULL},
    {"u_dram", F_NUM, offsetof(machine, u_dram), NULL},
    {"u_dram_unaligned", F_NUM, offsetof(machine, u_dram_unaligned), NULL},
    {"u_dram_mixed", F_NUM, offsetof(machine, u_dram_mixed), NULL},
    {"sector_words", F_NUM, offsetof(machine, sector_words), NULL},
    {"l1_words", F_NUM, offsetof(machine, l1_words), NULL},
    {"line_words", F_NUM, offsetof(machine, line_words), NULL},
    {"u_l1", F_NUM, offsetof(machine, u_l1), NULL},
    {"read_latency_l1", F_NUM, offsetof(machine, read_latency_l1), NULL},
    {"u_dram_partial", F_NUM, offsetof(machine, u_dram_partial), NULL},
    {"read_latency", F_NUM, offsetof(machine, read_latency), NULL},
    {"read_latency_dram", F_NUM, offsetof(machine, read_latency_dram), NULL},
    {"launch", F_LAUNCH, offsetof(machine, launch), NULL},
    {"graph_launch_latency", F_NUM, offsetof(machine, graph_launch_latency), NULL},
    {"graph_start_latency", F_NUM, offsetof(machine, graph_start_latency), NULL},
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

static int parse_number(const char *text, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || errno || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

/* Store `text` into field f of m; `where` prefixes messages. */
static int store_text(machine *m, const field *f, const char *text, const char *where)
{
    char *slot = (char *)m + f->offset;
    double v;
    switch (f->kind) {
    case F_NAME:
        snprintf(slot, sizeof m->name, "%s", text);
        return 0;
    case F_POLICY:
        if (strcmp(text, "parallel") == 0) *(memory_policy *)slot = MEM_PARALLEL;
        else if (strcmp(text, "exclusive") == 0) *(memory_policy *)slot = MEM_EXCLUSIVE;
        else if (strcmp(text, "shared") == 0) *(memory_policy *)slot = MEM_SHARED;
        else return fail("%s: policy \"%s\" is not one of parallel, exclusive, shared", where, text);
        return 0;
    case F_ORDER:
        if (strcmp(text, "fifo") == 0) *(block_order *)slot = ORDER_FIFO;
        else if (strcmp(text, "random") == 0) *(block_order *)slot = ORDER_RANDOM;
        else return fail("%s: order \"%s\" is not one of fifo, random", where, text);
        return 0;
    case F_KIND:
        if (strcmp(text, "mcm") == 0) *(machine_kind *)slot = KIND_MCM;
        else if (strcmp(text, "dmm") == 0) *(machine_kind *)slot = KIND_DMM;
        else if (strcmp(text, "umm") == 0) *(machine_kind *)slot = KIND_UMM;
        else return fail("%s: kind \"%s\" is not one of mcm, dmm, umm", where, text);
        return 0;
    case F_LAUNCH:
        if (strcmp(text, "stream") == 0) *(launch_mode *)slot = LAUNCH_STREAM;
        else if (strcmp(text, "graph") == 0) *(launch_mode *)slot = LAUNCH_GRAPH;
        else return fail("%s: launch \"%s\" is not one of stream, graph", where, text);
        return 0;
    default:
        break;
    }
    if (parse_number(text, &v) < 0)
        return fail("%s: machine field '%s' needs a number, not \"%s\"", where, f->key, text);
    if (f->kind == F_INT) {
        if (v != floor(v) || fabs(v) > 1e9)
            return fail("%s: machine field '%s' needs a whole number, not %s", where, f->key, text);
        *(int *)slot = (int)v;
    } else if (f->kind == F_SEED) {
        if (v < 0 || v != floor(v) || v > 1.8e19)
            return fail("%s: seed needs a whole number >= 0, not %s", where, text);
        *(uint64_t *)slot = (uint64_t)v;
    } else {
        *(double *)slot = v;
    }
    return 0;
}

int machine_set_field(machine *m, const char *key, const char *value)
{
    const field *f = find_field(key);
    if (!f)
        return 0;
    char where[96];
    snprintf(where, sizeof where, "--set %s", key);
    return store_text(m, f, value, where) < 0 ? -1 : 1;
}

void setting_where(const config_setting_t *s, char *out, size_t size)
{
    const char *file = config_setting_source_file(s);
    snprintf(out, size, "%s:%u", file ? file : "<config>", config_setting_source_line(s));
}

int machine_read_group(machine *m, const config_setting_t *group)
{
    char where[512];
    setting_where(group, where, sizeof where);
    if (!config_setting_is_group(group))
        return fail("%s: 'machine' must be a group { ... } or a preset name", where);
    for (int i = 0; i < config_setting_length(group); i++) {
        const config_setting_t *s = config_setting_get_elem(group, (unsigned)i);
        const char *key = config_setting_name(s);
        setting_where(s, where, sizeof where);
        if (strcmp(key, "preset") == 0)
            continue; /* a run file's inline machine may start from a preset */
        const field *f = find_field(key);
        if (!f)
            return fail("%s: unknown machine key '%s' (known: %s)", where, key, machine_field_names());
        char text[128];
        switch (config_setting_type(s)) {
        case CONFIG_TYPE_STRING:
            snprintf(text, sizeof text, "%s", config_setting_get_string(s));
            break;
        case CONFIG_TYPE_INT:
        case CONFIG_TYPE_INT64:
            snprintf(text, sizeof text, "%lld", config_setting_get_int64(s));
            break;
        case CONFIG_TYPE_FLOAT:
            snprintf(text, sizeof text, "%.17g", config_setting_get_float(s));
            break;
        default:
            return fail("%s: machine key '%s' needs a number or a string", where, key);
        }
        if (store_text(m, f, text, where) < 0)
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
    int rc = 0;
    if (!config_read_file(&cfg, path)) {
        if (config_error_type(&cfg) == CONFIG_ERR_FILE_IO)
            rc = fail("%s: cannot read machine file", path);
        else
            rc = fail("%s:%d: syntax error: %s", config_error_file(&cfg) ? config_error_file(&cfg) : path,
                      config_error_line(&cfg), config_error_text(&cfg));
    } else {
        config_setting_t *root = config_root_setting(&cfg);
        config_setting_t *group = config_setting_get_member(root, "machine");
        if (!group || config_setting_length(root) != 1)
            rc = fail("%s: a machine file holds exactly one group: machine = { ... };", path);
        else
            rc = machine_read_group(m, group);
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
                           : machine_card_compute(m) ? "lanes/cycles_*"
                           : m->blocks_per_sm != 1 || m->threads_per_sm != 0 || m->block_retire != 0
                               ? "blocks_per_sm"
                           : m->l2_words != 0 || m->u_dram != 0 || m->u_dram_unaligned != 0 ||
                                   m->u_dram_mixed != 0
                               ? "l2_words/u_dram"
                           : m->sector_words != 0 ? "sector_words"
                           : m->l1_words != 0 || m->line_words != 0 || m->u_l1 != 0 || m->read_latency_l1 != 0 ||
                                   m->u_dram_partial != 0
                               ? "l1_words"
                           : m->read_latency != 0 || m->read_latency_dram != 0 ? "read_latency"
                           : m->graph_launch_latency != 0 || m->graph_start_latency != 0 || m->launch != LAUNCH_STREAM ? "launch"
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
    if (!(m->l2_words >= line))
        return fail("machine '%s': l1_words = %g needs an L2 behind it: l2_words = %g must hold at least "
                    "one line of %g words", n, m->l1_words, m->l2_words, line);
    if (!(m->u_l1 > 0))
        return fail("machine '%s': l1_words = %g needs u_l1 > 0 (cycles per word the L1 serves)", n,
                    m->l1_words);
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
        {"l2_words", m->l2_words}, {"u_dram", m->u_dram}, {"u_dram_unaligned", m->u_dram_unaligned},
        {"u_dram_mixed", m->u_dram_mixed},
        {"sector_words", m->sector_words},
        {"l1_words", m->l1_words}, {"line_words", m->line_words}, {"u_l1", m->u_l1},
        {"read_latency_l1", m->read_latency_l1}, {"u_dram_partial", m->u_dram_partial},
        {"read_latency", m->read_latency}, {"read_latency_dram", m->read_latency_dram},
        {"graph_launch_latency", m->graph_launch_latency}, {"graph_start_latency", m->graph_start_latency},
    };
    for (size_t i = 0; i < sizeof rates / sizeof rates[0]; i++)
        if (!(rates[i].v >= 0))
            return fail("machine '%s': %s = %g must be >= 0", n, rates[i].key, rates[i].v);
    if (m->private_port != 0 && m->private_port != 1)
        return fail("machine '%s': private_port = %d must be 0 (one pipe for every class) or 1 "
                    "(the private memory's banks beside the arithmetic)", n, m->private_port);
    if (m->blocks_per_sm < 1)
        return fail("machine '%s': blocks_per_sm = %d, but an SM holds at least 1 block", n, m->blocks_per_sm);
    if (m->threads_per_sm < 0)
        return fail("machine '%s': threads_per_sm = %d must be >= 0 (0: no limit)", n, m->threads_per_sm);
    if (!(m->block_retire >= 0))
        return fail("machine '%s': block_retire = %g must be >= 0", n, m->block_retire);
    if (m->block_retire > 0 && m->blocks_per_sm < 2)
        return fail("machine '%s': block_retire = %g needs blocks_per_sm > 1 (it is the retiring of an SM's "
                    "resident blocks; with one block per SM put it in block_dispatch)", n, m->block_retire);
    if (m->l2_words > 0 && !(m->u_dram > 0))
        return fail("machine '%s': l2_words = %g needs u_dram > 0 (cycles per word beyond the L2)",
                    n, m->l2_words);
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
