/*
 * card_terms.c — what a block costs on a card (see card_terms.h): the
 * compute time from its classes or its instruction stream, the rates of
 * the L2, DRAM and the caches' levels, the first word's latency, the
 * blocks an SM holds.
 */
#include "card_terms.h"

#include <math.h>

/* Latency and throughput of class i on machine m. */
static double class_cycles(const machine *m, int i)
{
    const double cycles[OP_CLASSES] = {m->cycles_plain, m->cycles_mulmod, m->cycles_addmod,
                                       m->cycles_private, m->cycles_barrier};
    return cycles[i];
}

static double class_lanes(const machine *m, int i)
{
    const double lanes[OP_CLASSES] = {m->lanes, m->lanes_mulmod, m->lanes_addmod, m->lanes_private, 0};
    if (i == OP_BARRIER)
        return 0; /* a barrier takes no lane */
    return lanes[i] > 0 ? lanes[i] : m->lanes;
}

/* The machine charges the block's counted instruction stream. */
static int stream_charged(const block_cost *c, const machine *m)
{
    return m->issue_rate > 0 && c->stream;
}

double stream_issue_cycles(const machine *m)
{
    return m->cycles_issue_independent > 0 ? m->cycles_issue_independent : WARP_ISSUE_CYCLES;
}

double stream_link_cycles(const machine *m, op_class c)
{
    if (c == OP_PLAIN)
        return m->cycles_issue > 0 ? m->cycles_issue : m->cycles_plain;
    return class_cycles(m, c);
}

static int served_by_caches(const block_cost *c, const machine *m);

/* The latency of a link of a chain served by `level` (0 for none), by
 * the caches: the L2's is that of a read the L1 missed (read_latency_l2),
 * not read_latency, whose one-thread chase the L1 partly serves. */
static double level_latency(const machine *m, cache_level level)
{
    switch (level) {
    case LEVEL_L1: return m->read_latency_l1;
    case LEVEL_L2: return m->read_latency_l2 > 0 ? m->read_latency_l2 : m->read_latency;
    case LEVEL_DRAM: return m->read_latency_dram > 0 ? m->read_latency_dram : m->read_latency;
    default: return 0;
    }
}

/* The mean latency of `loads`, warp loads counted by level (0: none). */
static double mean_load_latency(const double *loads, const machine *m, double *count)
{
    double cycles = 0;
    *count = 0;
    for (int level = LEVEL_L1; level <= LEVEL_DRAM; level++) {
        *count += loads[level];
        cycles += loads[level] * level_latency(m, (cache_level)level);
    }
    return *count > 0 ? cycles / *count : 0;
}

/* A global read's latency on a chain, for a block: a warp's load
 * completes when its last sector arrives, so the mean over the block's
 * loads that are links of its warps' chains of the latency of the level
 * each chain waited for (the caches' chain_loads); the mean over all its
 * warp loads where none is known a link; the L2's where the block did not
 * run through the caches. */
static double read_link_cycles(const block_cost *c, const machine *m)
{
    if (!served_by_caches(c, m))
        return m->read_latency;
    double count, mean = mean_load_latency(c->sectors.chain_loads, m, &count);
    if (count > 0)
        return mean;
    mean = mean_load_latency(c->sectors.warp_loads, m, &count);
    return count > 0 ? mean : m->read_latency;
}

int block_warps_per_scheduler(int threads, const machine *m)
{
    if (m->schedulers <= 0 || m->warp <= 0 || threads <= 0)
        return 1;
    int warps = (threads + m->warp - 1) / m->warp;
    return (warps + m->schedulers - 1) / m->schedulers;
}

/* Cycles between two independent instructions of a warp that shares its
 * scheduler with sharing − 1 others of its block: its own interval, or
 * the scheduler's share of the SM's issue rate taken by all of them. */
double stream_shared_issue_cycles(const machine *m, int sharing)
{
    double alone = stream_issue_cycles(m);
    if (m->schedulers <= 0 || sharing <= 1)
        return alone;
    return fmax(alone, sharing * m->schedulers / m->issue_rate);
}

/* The same for a Z/pZ product: the scheduler's multiply-add pipe, a
 * schedulers-th of the SM's lanes_mulmod (thread products a cycle). */
double stream_shared_mulmod_cycles(const machine *m, int sharing)
{
    double alone = m->cycles_mulmod_independent, lanes = class_lanes(m, OP_MULMOD);
    if (m->schedulers <= 0 || sharing <= 1 || !(lanes > 0) || !(alone > 0))
        return alone; /* without the key a product is its instructions, as the others */
    return fmax(alone, sharing * m->schedulers * m->warp / lanes);
}

/* A dependent link's latency with w warps on its scheduler, from the
 * latencies measured with 1, 2, 4, ... warps a scheduler: `alone` for 1,
 * measured[i] for 2^(i+1) (0: not measured).  Between two measured counts
 * the straight line; beyond the last measured one held, unless it is the
 * table's last, where each of the w warps takes its turn at the rate that
 * count shows: measured·w/count (card_terms.h). */
static double shared_link_latency(double alone, const double *measured, int n, double w)
{
    double below = 1, at_below = alone;
    for (int i = 0; i < n && measured[i] > 0; i++) {
        double count = 2 << i;
        if (w <= count)
            return at_below + (measured[i] - at_below) * (w - below) / (count - below);
        below = count;
        at_below = measured[i];
        if (i == n - 1)
            return at_below * w / count;
    }
    return at_below;
}

/* A Z/pZ multiplication's latency on the path of a counted block: its
 * warps share the SM's schedulers, w a scheduler, and a scheduler's
 * multiply-add pipe serves their products (card_terms.h). */
static double mulmod_link_cycles(const machine *m, double sharing)
{
    const double measured[] = {m->cycles_mulmod_warps2, m->cycles_mulmod_warps4};
    return shared_link_latency(m->cycles_mulmod, measured, 2, m->schedulers > 0 ? sharing : 1);
}

/* A plain link's: the same warps share the scheduler's issue slot and its
 * integer and multiply-add pipes (card_terms.h). */
static double plain_link_cycles(const machine *m, double sharing)
{
    const double measured[] = {m->cycles_issue_warps2, m->cycles_issue_warps4, m->cycles_issue_warps8};
    return shared_link_latency(stream_link_cycles(m, OP_PLAIN), measured, 3, m->schedulers > 0 ? sharing : 1);
}

/* A link of class i on the path of a counted block with `sharing` warps
 * a scheduler, counted as a mean where some are other blocks' warps that
 * spend part of their time off the pipes (block_span_cycles_resident). */
static double link_cycles_among(const machine *m, op_class i, double sharing)
{
    if (i == OP_MULMOD)
        return mulmod_link_cycles(m, sharing);
    if (i == OP_PLAIN)
        return plain_link_cycles(m, sharing);
    return stream_link_cycles(m, i);
}

double stream_shared_link_cycles(const machine *m, op_class i, int sharing)
{
    return link_cycles_among(m, i, sharing);
}

double stream_beside_mulmod_cycles(const machine *m, double sharing)
{
    return mulmod_link_cycles(m, 2 * sharing) - mulmod_link_cycles(m, sharing);
}

double stream_divide_extra_cycles(const machine *m, int divide32, double links)
{
    double measured = divide32 ? m->cycles_divide32 : m->cycles_divide;
    return measured > 0 ? measured - links * stream_link_cycles(m, OP_PLAIN) : 0;
}

/* The divisions by a runtime number on a counted block's chains: what they
 * add to their plain links. */
static double divisions_cycles(const block_cost *c, const machine *m)
{
    return c->stream_divisions[0] * stream_divide_extra_cycles(m, 0, c->stream_division_links[0]) +
           c->stream_divisions[1] * stream_divide_extra_cycles(m, 1, c->stream_division_links[1]);
}

/* A comparison's link on a chain when a conditional branch waits for its
 * predicate: cycles_predicate, or a plain link where the machine lacks it. */
static double predicate_link_cycles(const machine *m)
{
    return m->cycles_predicate > 0 ? m->cycles_predicate : stream_link_cycles(m, OP_PLAIN);
}

double block_span_cycles(const block_cost *c, const machine *m)
{
    return block_span_cycles_shared(c, m, 1);
}

/* The span with `sharing` warps of the block a scheduler, its chains'
 * links waiting as with `linked` warps there (its own and, resident
 * beside it, other blocks'). */
static double span_cycles(const block_cost *c, const machine *m, int sharing, double linked)
{
    if (stream_charged(c, m)) {
        double t = c->stream_issued * stream_shared_issue_cycles(m, sharing) +
                   c->stream_issued_mulmod * stream_shared_mulmod_cycles(m, sharing) + c->stream_branches * m->cycles_branch +
                   c->stream_predicates * predicate_link_cycles(m) +
                   c->stream_mulmod_beside * stream_beside_mulmod_cycles(m, linked);
        for (int i = 0; i < OP_CLASSES; i++)
            t += c->stream_span[i] * link_cycles_among(m, (op_class)i, linked);
        if (m->cycles_divide > 0 || m->cycles_divide32 > 0) /* else the links stand */
            t += divisions_cycles(c, m);
        /* the first read's latency is the block's read (engine.c) */
        return t + fmax(0, c->stream_reads - 1) * read_link_cycles(c, m);
    }
    if (!c->classes)
        return c->span * m->cycles_plain;
    double t = 0;
    for (int i = 0; i < OP_CLASSES; i++)
        t += c->span_ops[i] * class_cycles(m, i);
    return t;
}

double block_span_cycles_shared(const block_cost *c, const machine *m, int sharing)
{
    return span_cycles(c, m, sharing, sharing);
}

/* The share of a counted block's span its warps spend issuing, at
 * `own` warps a scheduler: all of it but the waits for its global reads
 * and at its barriers, where its warps leave the scheduler's pipes to
 * the others (1 where not counted: every cycle on the pipes). */
static double issuing_share(const block_cost *c, const machine *m, int own)
{
    double span = span_cycles(c, m, own, own);
    if (!stream_charged(c, m) || !(span > 0))
        return 1;
    double away = fmax(0, c->stream_reads - 1) * read_link_cycles(c, m) +
                  c->stream_span[OP_BARRIER] * stream_link_cycles(m, OP_BARRIER);
    return fmax(0, 1 - away / span);
}

double block_span_cycles_resident(const block_cost *c, const machine *m, int threads, int blocks)
{
    int own = block_warps_per_scheduler(threads, m);
    double together = own + (blocks > 1 ? blocks - 1 : 0) * own * issuing_share(c, m, own);
    if (together > SHARED_WARPS_MEASURED)
        together = own > SHARED_WARPS_MEASURED ? own : SHARED_WARPS_MEASURED;
    return span_cycles(c, m, own, together);
}

/* The private banks' cycles: every access, and a whole warp's round of
 * the banks for each extra round a conflict costs (kernel_dag.h). */
static double bank_cycles(const block_cost *c, const machine *m)
{
    double lanes = class_lanes(m, OP_PRIVATE);
    double accesses = c->classes ? c->work_ops[OP_PRIVATE] : 0;
    return lanes > 0 ? (accesses + m->warp * c->bank_conflicts) / lanes : 0;
}

/* The block ran through the caches and the machine has them. */
static int served_by_caches(const block_cost *c, const machine *m)
{
    return c->sectors.measured && machine_caches(m);
}

/* The cycles of the L1's wavefronts (a line's worth, or a word a bank, each: kernel_dag.h). */
static double l1_wavefront_cycles(const cache_sectors *s, const machine *m)
{
    return m->line_words * m->u_l1 * s->l1_wavefronts;
}

/* The SM's issue slots, and each pipe at its own rate (kernel_dag.h): the
 * L1's data path is one of them, serving the wavefronts of the loads the
 * stream issues while the slots issue the rest. */
static double stream_work_cycles(const block_cost *c, const machine *m)
{
    double t = c->stream_work / m->issue_rate;
    if (served_by_caches(c, m))
        t = fmax(t, l1_wavefront_cycles(&c->sectors, m));
    const int pipes[] = {OP_MULMOD, OP_ADDMOD};
    for (int i = 0; i < 2; i++) {
        double lanes = class_lanes(m, pipes[i]);
        if (lanes > 0 && c->classes)
            t = fmax(t, c->work_ops[pipes[i]] / lanes);
    }
    return fmax(t, bank_cycles(c, m));
}

double block_work_cycles(const block_cost *c, const machine *m)
{
    if (stream_charged(c, m))
        return stream_work_cycles(c, m);
    double arithmetic = 0;
    for (int i = 0; i < OP_CLASSES; i++) {
        double lanes = class_lanes(m, i);
        double ops = c->classes ? c->work_ops[i] : (i == OP_PLAIN ? c->work : 0);
        if (lanes > 0 && i != OP_PRIVATE)
            arithmetic += ops / lanes;
    }
    double banks = bank_cycles(c, m);
    if (!m->private_port)
        return arithmetic + banks;
    /* each access is also an instruction the SM issues, as a plain one */
    double issue = m->lanes > 0 && c->classes ? c->work_ops[OP_PRIVATE] / m->lanes : 0;
    return fmax(arithmetic + issue, banks);
}

double block_compute_cycles(const block_cost *c, const machine *m)
{
    return block_compute_cycles_shared(c, m, 1);
}

double block_compute_cycles_shared(const block_cost *c, const machine *m, int sharing)
{
    if (!machine_card_compute(m))
        return c->span;
    return fmax(block_span_cycles_shared(c, m, sharing), block_work_cycles(c, m));
}

int block_reads_beside_compute(const block_cost *c, const machine *m)
{
    return stream_charged(c, m) && m->policy == MEM_PARALLEL && block_work_cycles(c, m) > 0;
}

double block_compute_after_reads(double span, double work, double read)
{
    return fmax(span, work - read);
}

int kernel_resident_blocks(const kernel *k, const machine *m)
{
    double r = m->blocks_per_sm > 1 ? m->blocks_per_sm : 1;
    if (m->threads_per_sm > 0)
        r = fmin(r, floor((double)m->threads_per_sm / k->threads));
    if (k->private_words > 0)
        r = fmin(r, floor(m->z / k->private_words));
    return r >= 1 ? (int)r : 1;
}

int kernel_beyond_l2(const kernel *k, const machine *m)
{
    if (!(m->l2_words > 0))
        return 0;
    const block_cost *c = &k->cost;
    double per_thread = c->reads + c->writes + c->uncoalesced_reads + c->uncoalesced_writes;
    double working_set = (double)k->blocks * k->threads * per_thread;
    return working_set > m->l2_words;
}

l2_writers kernel_l2_writers(const kernel *k, const machine *m)
{
    l2_writers w = {fmin((double)k->blocks, (double)m->p), 0};
    if (m->warp > 0 && m->p > 0 && k->threads > 0) {
        double blocks = fmin(kernel_resident_blocks(k, m), ceil((double)k->blocks / m->p));
        w.warps = blocks * ((k->threads + m->warp - 1) / m->warp);
    }
    return w;
}

l2_writers every_sm_writing(const machine *m)
{
    return (l2_writers){(double)m->p, 0};
}

double kernel_word_cycles(const kernel *k, const machine *m)
{
    if (!kernel_beyond_l2(k, m))
        return m->u;
    if (k->unaligned && m->u_dram_unaligned > 0)
        return m->u_dram_unaligned;
    const block_cost *c = &k->cost;
    int reads = c->reads + c->uncoalesced_reads > 0, writes = c->writes + c->uncoalesced_writes > 0;
    return reads && writes && m->u_dram_mixed > 0 ? m->u_dram_mixed : m->u_dram;
}

double kernel_read_latency(const kernel *k, const machine *m)
{
    return kernel_beyond_l2(k, m) && m->read_latency_dram > 0 ? m->read_latency_dram : m->read_latency;
}

double block_read_latency(const kernel *k, const block_cost *c, const machine *m)
{
    if (!served_by_caches(c, m))
        return kernel_read_latency(k, m);
    /* from the L2, read_latency: the touch chain's block, whose read
     * graph_launch_latency's calibration takes at read_latency
     * (validate/card.c), is such a block; read_latency_l2 there would
     * charge its difference a second time, once a kernel */
    if (c->sectors.first_read == LEVEL_L2)
        return m->read_latency;
    return level_latency(m, (cache_level)c->sectors.first_read);
}

static double cached_transfer_cycles(const cache_sectors *s, const machine *m, int write, int l1_in_work,
                                     l2_writers writers);

/* The write rule's terms are on: the L2's write and copy rates, every SM. */
static int write_rule_on(const machine *m)
{
    return m->u_l2_write > 0 && m->u_l2_copy > 0;
}

/* An SM's own rate of words written into the L2 with `warps` warps of
 * the launch (card_terms.h, O): its port's, u_l2_write_sm, or, where the
 * machine has u_l2_write_warps4 and the warps are known, its warps' if
 * slower: the row's SM of WRITE_WARPS_MEASURED warps took
 * u_l2_write_warps4 a word, each warp's stores waiting their turn. */
static double own_write_word_cycles(const machine *m, double warps)
{
    if (!(m->u_l2_write_warps4 > 0 && warps > 0))
        return m->u_l2_write_sm;
    return fmax(m->u_l2_write_sm, m->u_l2_write_warps4 * WRITE_WARPS_MEASURED / warps);
}

/* What a word written into the L2 costs an SM with `writers` writing at
 * once (card_terms.h, W_k): the card takes p / u_l2_write words a cycle,
 * shared by the SMs writing, and an SM writes no faster than its own
 * rate (gmem_write_l2_sms8: 8 SMs, far below the card's rate, by its
 * warps); where the machine lacks u_l2_write_sm or u_l2_write, every
 * launch as before: U, or u_l2_write under the write rule. */
static double l2_write_word_cycles(const machine *m, l2_writers writers)
{
    if (!(m->u_l2_write_sm > 0 && m->u_l2_write > 0 && m->p > 0))
        return write_rule_on(m) ? m->u_l2_write : m->u;
    return fmax(own_write_word_cycles(m, writers.warps), m->u_l2_write * writers.sms / m->p);
}

/* What a word copied within the L2 costs an SM with `writers` copying at
 * once (card_terms.h, C_k): u_l2_copy (every SM), or, where the machine
 * has u_l2_copy_sm (gmem_copy_l2_sms8), the card's copy rate shared by
 * the SMs copying, an SM no faster than its own. */
static double l2_copy_word_cycles(const machine *m, l2_writers writers)
{
    if (!(m->u_l2_copy_sm > 0 && m->p > 0))
        return m->u_l2_copy;
    return fmax(m->u_l2_copy_sm, m->u_l2_copy * writers.sms / m->p);
}

/* What a word the block wrote into the L2 costs it (card_terms.h): W_k,
 * or, where the machine has the L2's write and copy rates, a written
 * word's share of the SM's port beside the reads (C_k − U), but the
 * block's writes no faster than W_k each less what its reads from the L2
 * and DRAM take: a write stream then costs W_k a word (u_l2_write, every
 * SM writing), a copy C_k (u_l2_copy, every SM) and a read stream U, the
 * three rows by construction. */
static double written_word_cycles(const cache_sectors *s, const machine *m, l2_writers writers)
{
    double alone = l2_write_word_cycles(m, writers);
    if (!write_rule_on(m))
        return alone;
    double beside_reads = l2_copy_word_cycles(m, writers) - m->u;
    if (!(s->l2_writes > 0))
        return beside_reads;
    double words = m->sector_words * s->l2_writes;
    return fmax(beside_reads, alone - cached_transfer_cycles(s, m, 0, 1, writers) / words);
}

/* What a word of a partial sector the block wrote into the L2 costs it
 * (card_terms.h): a whole sector's word w times what the L2 takes for a
 * partial sector over a whole one, u_l2_partial / (u_l2_write, else U),
 * none less; w where the machine lacks u_l2_partial.  The L2 takes a
 * store a sector at a time, a partial one as long whatever its words
 * (constants.cu's stride-2, -4 and -8 rows).  The ratio is measured at
 * the L2's write rate; where a whole sector is charged at U (the write
 * rule off) it is applied there as well, an assumption no row tests at U.
 * Under the write rule (w = u_l2_write in a write stream) a stream of
 * partial sectors then costs u_l2_partial a word, and one written back to
 * DRAM u_dram_partial in all, the rows by construction. */
static double partial_word_cycles(const machine *m, double w)
{
    if (!(m->u_l2_partial > 0))
        return w;
    double whole = m->u_l2_write > 0 ? m->u_l2_write : m->u;
    return w * fmax(1, m->u_l2_partial / whole);
}

/* The rule of kernel_dag.h for a block that ran through the caches; the
 * L1's wavefronts are the read's unless the instruction stream is charged
 * (then they are a pipe of the work: stream_work_cycles). */
static double cached_transfer_cycles(const cache_sectors *s, const machine *m, int write, int l1_in_work,
                                     l2_writers writers)
{
    double sector = m->sector_words;
    int mixed = s->dram_reads > 0 && s->writebacks + s->partial_writebacks > 0;
    double dram = mixed && m->u_dram_mixed > 0 ? m->u_dram_mixed : m->u_dram;
    if (!write) {
        /* each level's words, or its requests where they take longer (as
         * words of a sector: without limits, the sum is the rule's alone) */
        double l2 = fmax(m->u * s->l2_reads, m->u_l2_request * s->l2_requests / sector);
        double from_dram = fmax(dram * s->dram_reads, m->u_dram_request * s->dram_requests / sector);
        return (l1_in_work ? 0 : l1_wavefront_cycles(s, m)) + sector * (l2 + from_dram);
    }
    double partial = m->u_dram_partial > 0 ? m->u_dram_partial : dram;
    double w = written_word_cycles(s, m, writers), wp = partial_word_cycles(m, w);
    double into_l2 = w * s->l2_writes + (wp - w) * s->l2_partial_writes; /* the key off: w's, to the bit */
    return sector * (into_l2 + fmax(0, dram - w) * s->writebacks + fmax(0, partial - wp) * s->partial_writebacks);
}

double block_writes_beside_compute(const block_cost *c, const machine *m, double compute, double write)
{
    if (!(m->write_issue_overlap > 0) || !served_by_caches(c, m) || !block_reads_beside_compute(c, m))
        return write;
    return write - m->write_issue_overlap * fmin(write, compute);
}

double block_own_write_cycles(const block_cost *c, const machine *m, l2_writers writers)
{
    if (!served_by_caches(c, m) || !(m->u_l2_write_warps4 > 0 && writers.warps > 0))
        return 0;
    if (!(m->u_l2_write_sm > 0 && m->u_l2_write > 0 && m->p > 0))
        return 0;
    const cache_sectors *s = &c->sectors;
    double w = l2_write_word_cycles(m, writers), wp = partial_word_cycles(m, w);
    return m->sector_words * (w * s->l2_writes + (wp - w) * s->l2_partial_writes);
}

double block_transfer_cycles(const block_cost *c, int threads, const machine *m, double u, int write)
{
    return block_transfer_cycles_writing(c, threads, m, u, write, every_sm_writing(m));
}

double block_transfer_cycles_writing(const block_cost *c, int threads, const machine *m, double u, int write,
                                     l2_writers writers)
{
    if (served_by_caches(c, m))
        return cached_transfer_cycles(&c->sectors, m, write, stream_charged(c, m), writers);
    double coalesced = write ? c->writes : c->reads;
    double scattered = write ? c->uncoalesced_writes : c->uncoalesced_reads;
    if (!(m->sector_words > 0))
        return u * (coalesced + threads * scattered);
    return u * threads * (coalesced + m->sector_words * scattered);
}

