/*
 * cache.c — the card's L1s and L2 in exec mode (see cache.h).
 *
 * Three parts.  A line set: lines by address (a hash of chains) and by
 * last use (a doubly linked list), the least recently used evicted first;
 * each line holds, per word, whether it is held and whether it is dirty.
 * The levels: a read sector looked up in its SM's L1, then in its SM's
 * partition of the L2 (or written in another partition and not yet
 * written back), then read from DRAM, and filled on the way back; a
 * written sector kept by the L1 if it held it, merged into the writer's
 * partition and dropped from the others.  The waves: each block's accesses
 * recorded as exec mode hands them in, warp by warp, then replayed wave
 * by wave in the order cache.h states.
 *
 * Invariants kept here: a line set's lines [0, used) are each in its
 * hash chain and its last-use list exactly once; a word is dirty in one
 * partition of the L2 at most; an L2 line that another partition holds
 * too is marked `elsewhere`; an L1 line holds whole sectors, and its
 * words in flight are words it holds, asked at its moment `asked` (the
 * fills of any other moment have returned); between waves every wave slot
 * is empty (no block handed in); a block's counts are only ever added to,
 * from zero, by the replay of its wave.
 */
#include "cache.h"
#include "fail.h"
#include "stream.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *grow(void *p, size_t size)
{
    void *q = realloc(p, size ? size : 1);
    if (!q) {
        fprintf(stderr, "mcmsim: out of memory\n");
        exit(70);
    }
    return q;
}

/* ---- a set of lines, the least recently used evicted first ---------------- */

/* A line held, aligned to 64 bytes (56 would do): a look-up touches one
 * host cache line, never two (the line sets are megabytes, mostly out of
 * the host's caches). */
typedef struct line {
    uint64_t tag;          /* the line's address (line_tag) */
    int32_t older, newer;  /* its neighbours by last use (-1: none) */
    int32_t chain;         /* the next line of its hash bucket (-1: none) */
    uint32_t have, dirty;  /* per word of the line: held; written and not yet written back */
    int32_t elsewhere;     /* an L2 line: another partition may hold this line too */
    uint64_t asked;        /* an L1 line: the moment (struct cache) its last fills were asked */
    uint32_t in_flight;    /*   the words asked then (on their way until the moment ends), */
    uint32_t from_dram;    /*   and of those the words DRAM serves, */
    uint32_t asked_round;  /*   the read round of its step that asked last */
} __attribute__((aligned(64))) line;

typedef struct line_set {
    line *lines;
    int32_t allocated;     /* room for this many lines */
    int32_t capacity;      /* lines it may hold now, <= allocated */
    int32_t used;          /* lines [0, used) hold a line */
    int32_t newest, oldest;
    int32_t *bucket;       /* the first line of each hash chain (-1: none) */
    uint32_t buckets;      /* a power of two, at least 2·allocated */
} line_set;

static void set_clear(line_set *s, int32_t capacity)
{
    s->capacity = capacity < s->allocated ? capacity : s->allocated;
    s->used = 0;
    s->newest = s->oldest = -1;
    memset(s->bucket, 0xff, sizeof *s->bucket * s->buckets); /* every head -1 */
}

/* Room for `lines` lines, aligned as a line is (64 bytes). */
static line *lines_alloc(int32_t lines)
{
    size_t size = sizeof(line) * (size_t)(lines > 0 ? lines : 1);
    line *l = aligned_alloc(_Alignof(line), size);
    if (!l) {
        fprintf(stderr, "mcmsim: out of memory\n");
        exit(70);
    }
    return l;
}

static void set_init(line_set *s, int32_t lines)
{
    s->allocated = lines;
    s->buckets = 1;
    while (s->buckets < 2u * (uint32_t)lines)
        s->buckets *= 2;
    s->lines = lines_alloc(lines);
    s->bucket = grow(NULL, sizeof *s->bucket * s->buckets);
    set_clear(s, lines);
}

static void set_free(line_set *s)
{
    free(s->lines);
    free(s->bucket);
}

/* Consecutive lines of an array (line_tag) in consecutive buckets, so
 * that a stream's look-ups walk the buckets in order; the arrays (and the
 * input copies) start at places of their own (Fibonacci hashing). */
static uint32_t bucket_of(const line_set *s, uint64_t tag)
{
    uint64_t start = (tag >> ACCESS_INDEX_BITS) * 0x9E3779B97F4A7C15ull >> 32;
    return (uint32_t)(tag + start) & (s->buckets - 1);
}

/* The line holding `tag`, or -1. */
static int32_t set_find(const line_set *s, uint64_t tag)
{
    if (s->capacity == 0)
        return -1;
    for (int32_t i = s->bucket[bucket_of(s, tag)]; i >= 0; i = s->lines[i].chain)
        if (s->lines[i].tag == tag)
            return i;
    return -1;
}

static void unlink_use(line_set *s, int32_t i)
{
    line *l = &s->lines[i];
    if (l->newer >= 0)
        s->lines[l->newer].older = l->older;
    else
        s->newest = l->older;
    if (l->older >= 0)
        s->lines[l->older].newer = l->newer;
    else
        s->oldest = l->newer;
}

static void link_newest(line_set *s, int32_t i)
{
    line *l = &s->lines[i];
    l->newer = -1;
    l->older = s->newest;
    if (s->newest >= 0)
        s->lines[s->newest].newer = i;
    s->newest = i;
    if (s->oldest < 0)
        s->oldest = i;
}

/* Line i was used now. */
static void set_use(line_set *s, int32_t i)
{
    if (s->newest == i)
        return;
    unlink_use(s, i);
    link_newest(s, i);
}

static void unlink_chain(line_set *s, int32_t i)
{
    int32_t *at = &s->bucket[bucket_of(s, s->lines[i].tag)];
    while (*at != i)
        at = &s->lines[*at].chain;
    *at = s->lines[i].chain;
}

/* A new line for `tag` (not held; capacity > 0), the newest, holding no
 * word.  When the set is full the least recently used line makes room:
 * it is copied into *evicted and 1 returned in *was, else 0. */
static int32_t set_add(line_set *s, uint64_t tag, line *evicted, int *was)
{
    int32_t i;
    *was = s->used == s->capacity;
    if (*was) {
        i = s->oldest;
        *evicted = s->lines[i];
        unlink_use(s, i);
        unlink_chain(s, i);
    } else {
        i = s->used++;
    }
    line *l = &s->lines[i];
    l->tag = tag;
    l->have = l->dirty = 0;
    l->asked = 0;
    l->in_flight = l->from_dram = l->asked_round = 0;
    uint32_t b = bucket_of(s, tag);
    l->chain = s->bucket[b];
    s->bucket[b] = i;
    link_newest(s, i);
    return i;
}

/* ---- a block's accesses, as recorded ------------------------------------- */

/* A round of one warp: its lanes' k-th access of one kind in one step. */
typedef struct access_round {
    uint32_t step, round, warp;
    uint16_t write, chain; /* a write; a read that is a link of a chain (cache_note_chain) */
    long first, n;         /* its lines: the block's line accesses [first, first + n) */
} access_round;

/* A line a round touches, and the words of it the round touches. */
typedef struct line_access {
    uint64_t tag;
    uint32_t words;
} line_access;

typedef struct recorded {
    access_round *rounds;
    long n_rounds, cap_rounds;
    line_access *lines;
    long n_lines, cap_lines;
} recorded;

/* A lane's access of the running warp: its line and its word in it. */
typedef struct lane_note {
    uint64_t tag;
    uint32_t word;
} lane_note;

struct cache_trace {
    recorded rec;
    int warp;
    lane_note *round;              /* the lanes' notes of the round being recorded (cache_warp_done) */
    unsigned char *chain;          /* per read round of the running warp: a lane's read in it is a link
                                    * of a chain (0 between warps) */
    int chain_cap;                 /* rounds `chain` has room for */
    unsigned char *links;          /* per read round of reads in lockstep: a link of a chain (lockstep_reads) */
    int links_cap;                 /* rounds `links` has room for */
    uint64_t *sites;               /* the running warp's read sites (record_site_rounds), */
    int *place, *site_of, *order;  /* their places, each lane's reads' sites, the sites by place */
    long *first, *by_site;         /* where each site's notes end in by_site; the notes by site */
    int *slot;                     /* a hash of the sites: their numbers, -1 empty */
    long slots, sites_cap;         /* its slots (a power of two); room in the others */
    int line_words, line_shift;    /* line_words = 2^line_shift, or line_shift = -1 */
};

static void recorded_free(recorded *r)
{
    free(r->rounds);
    free(r->lines);
}

/* ---- the caches ---------------------------------------------------------- */

/* What a warp of a wave's block has waited for in the current moment:
 * the last read round of the step at which its load waited for the L2 or
 * farther (far[0]), and for DRAM (far[1]); -1: none.  And whether it has
 * read yet in its block (its first read is the block's first read's
 * stand-in, block_read_latency: not counted among chain_loads). */
typedef struct warp_waits {
    uint64_t moment;
    int64_t far[2];
    int64_t chain_far[2]; /* the same for its rounds that are links of a chain */
    int read;
} warp_waits;

typedef struct wave_block {
    recorded rec;
    warp_waits *waits;     /* per warp of the block (n_waits of them) */
    int n_waits;
    cache_sectors *out;    /* NULL: not handed in */
    long cursor;           /* its next round, while the wave is replayed */
} wave_block;

struct cache {
    int sms;
    int line_words, sectors;       /* words of a line, sectors of a line */
    int sector_words;
    uint32_t sector_words_mask[32]; /* the words of sector s of a line */
    uint32_t atom_words_mask[32];   /* the words DRAM moves with sector s (its atom) */
    double l1_words;
    line_set *l2;                  /* the L2's partitions: SM sm is attached to l2[sm % parts] */
    int parts;
    line_set *l1;                  /* per SM; lines NULL until the SM is first used */
    uint64_t *l1_launch;           /* per SM: the launch whose lines its L1 holds */
    uint64_t launch;               /* launches begun so far */
    int32_t l1_lines;              /* the L1s' capacity in this launch, lines */
    uint64_t moment;               /* the replay's moments so far: a moment is one step of one wave */
    /* the launch: its waves */
    long blocks, wave_first, wave_size;
    long handed;                   /* blocks of the current wave handed in */
    double recorded_bytes;         /* what their records hold */
    wave_block *wave;
    long wave_cap;
    access_round *sorted;          /* sort_rounds' room: a block's rounds, */
    long *at_key;                  /*   and where each key's rounds begin */
    long sorted_cap, keys_cap;
};

#define INPUT_COPY (1ull << 63) /* the tag bit of an array's input copy */
#define LINE_INDEX ((uint64_t)ACCESS_INDEX) /* a tag's bits of the line's place in its array (line_tag) */

/* The L1's data array is shared memory's: 32 banks of a 4-byte word each
 * (CUDA C++ Programming Guide, shared memory; the Hopper tuning guide: the
 * L1 and shared memory are one array).  A fact of the SM, as the warp's
 * width is. */
#define L1_BANKS 32

/* The line of word `index` of array `array`, as exec mode keys arrays
 * (an array's index below 2^40, its number below 2^23). */
static uint64_t line_tag(const cache *c, int array, long index)
{
    return (uint64_t)array << ACCESS_INDEX_BITS | (uint64_t)(index / c->line_words);
}

cache *cache_new(const machine *m)
{
    if (!machine_caches(m))
        return NULL;
    cache *c = grow(NULL, sizeof *c);
    memset(c, 0, sizeof *c);
    c->sms = m->p;
    c->line_words = (int)m->line_words;
    c->sectors = (int)(m->line_words / m->sector_words);
    int per = c->sector_words = (int)m->sector_words;
    for (int s = 0; s < c->sectors; s++)
        c->sector_words_mask[s] = (per == 32 ? 0xffffffffu : ((1u << per) - 1)) << (s * per);
    int atom = m->dram_atom_words > m->sector_words ? (int)(m->dram_atom_words / m->sector_words) : 1;
    for (int s = 0; s < c->sectors; s++) {
        int first = s - s % atom;
        for (int k = first; k < first + atom && k < c->sectors; k++)
            c->atom_words_mask[s] |= c->sector_words_mask[k];
    }
    c->l1_words = m->l1_words;
    c->parts = m->l2_partitions > 1 ? (int)m->l2_partitions : 1;
    double l2_lines = floor(m->l2_words / m->line_words / c->parts);
    c->l2 = grow(NULL, sizeof *c->l2 * (size_t)c->parts);
    for (int k = 0; k < c->parts; k++)
        set_init(&c->l2[k], l2_lines > INT32_MAX / 4 ? INT32_MAX / 4 : (int32_t)l2_lines);
    c->l1 = grow(NULL, sizeof *c->l1 * (size_t)c->sms);
    memset(c->l1, 0, sizeof *c->l1 * (size_t)c->sms);
    c->l1_launch = grow(NULL, sizeof *c->l1_launch * (size_t)c->sms);
    memset(c->l1_launch, 0, sizeof *c->l1_launch * (size_t)c->sms);
    return c;
}

void cache_free(cache *c)
{
    if (!c)
        return;
    for (int k = 0; k < c->parts; k++)
        set_free(&c->l2[k]);
    free(c->l2);
    for (int i = 0; i < c->sms; i++)
        if (c->l1[i].lines)
            set_free(&c->l1[i]);
    for (long j = 0; j < c->wave_cap; j++) {
        recorded_free(&c->wave[j].rec);
        free(c->wave[j].waits);
    }
    free(c->l1);
    free(c->l1_launch);
    free(c->wave);
    free(c->sorted);
    free(c->at_key);
    free(c);
}

/* SM sm's L1 in this launch (emptied at its first use in the launch), or
 * NULL when the launch leaves the L1s no line. */
static line_set *l1_of(cache *c, int sm)
{
    if (c->l1_lines == 0)
        return NULL;
    line_set *s = &c->l1[sm];
    if (!s->lines) {
        double lines = floor(c->l1_words / c->line_words);
        set_init(s, lines > INT32_MAX / 4 ? INT32_MAX / 4 : (int32_t)lines);
    }
    if (c->l1_launch[sm] != c->launch) {
        set_clear(s, c->l1_lines);
        c->l1_launch[sm] = c->launch;
    }
    return s;
}

/* A line evicted from the L2: each dirty sector goes to DRAM, whole when
 * the L2 held all its words, else partial; counted to `out` (NULL: an
 * array's restore, before any block). */
static void write_back(const cache *c, const line *l, cache_sectors *out)
{
    for (int s = 0; s < c->sectors && out; s++) {
        uint32_t words = c->sector_words_mask[s];
        if (!(l->dirty & words))
            continue;
        if ((l->have & words) == words)
            out->writebacks++;
        else
            out->partial_writebacks++;
    }
}

/* The L2 partition that serves SM sm; for the host's copies (sm < 0),
 * the one the line's address falls in. */
static line_set *l2_of(cache *c, int sm, uint64_t tag)
{
    return &c->l2[sm >= 0 ? sm % c->parts : (int)((tag & ~INPUT_COPY) % (uint64_t)c->parts)];
}

/* The line for `tag` of L2 partition l2, made if it holds none (evicting,
 * with its write-backs).  A line made is marked `elsewhere`, with the
 * other partitions' copies of it, when they hold one: a line not so
 * marked is in no other partition (a mark may outlive the other copy). */
static int32_t l2_line(cache *c, line_set *l2, uint64_t tag, cache_sectors *out)
{
    int32_t i = set_find(l2, tag);
    if (i >= 0) {
        set_use(l2, i);
        return i;
    }
    line evicted;
    int was;
    i = set_add(l2, tag, &evicted, &was);
    if (was)
        write_back(c, &evicted, out);
    l2->lines[i].elsewhere = 0;
    for (int k = 0; k < c->parts; k++) {
        int32_t o = &c->l2[k] == l2 ? -1 : set_find(&c->l2[k], tag);
        if (o >= 0)
            c->l2[k].lines[o].elsewhere = l2->lines[i].elsewhere = 1;
    }
    return i;
}

/* How many sectors the words of whole sectors `sectors` are. */
static int count_sectors(const cache *c, uint32_t sectors)
{
    return __builtin_popcount(sectors) / c->sector_words;
}

/* The sectors (their words) that `words` touches. */
static uint32_t sectors_of(const cache *c, uint32_t words)
{
    uint32_t sectors = 0;
    for (int s = 0; s < c->sectors; s++)
        if (words & c->sector_words_mask[s])
            sectors |= c->sector_words_mask[s];
    return sectors;
}

/* The sectors of `sectors` (their words) that `held` holds whole. */
static uint32_t whole_sectors(const cache *c, uint32_t held, uint32_t sectors)
{
    uint32_t whole = 0;
    for (int s = 0; s < c->sectors; s++) {
        uint32_t words = c->sector_words_mask[s];
        if ((sectors & words) && (held & words) == words)
            whole |= words;
    }
    return whole;
}

/* The sectors (their words) DRAM moves to fill `missing`, sectors the L2
 * lacks: each with the rest of its atom, less the atom's sectors the L2
 * holds whole. */
static uint32_t dram_fetch(const cache *c, uint32_t held, uint32_t missing)
{
    uint32_t atoms = 0;
    for (int s = 0; s < c->sectors; s++)
        if (missing & c->sector_words_mask[s])
            atoms |= c->atom_words_mask[s];
    return missing | (atoms & ~whole_sectors(c, held, atoms));
}

/* Partition k's line for `tag` when k is not l2, or NULL. */
static line *line_elsewhere(cache *c, int k, const line_set *l2, uint64_t tag)
{
    int32_t i = &c->l2[k] == l2 ? -1 : set_find(&c->l2[k], tag);
    return i >= 0 ? &c->l2[k].lines[i] : NULL;
}

/* The sectors of `sectors` (their words) in which another partition than
 * l2, whose line for `tag` is j, holds words written and not yet written
 * back: the L2 serves them (its partitions keep the written words
 * coherent). */
static uint32_t dirty_elsewhere(cache *c, const line_set *l2, int32_t j, uint64_t tag, uint32_t sectors)
{
    uint32_t dirty = 0;
    if (!l2->lines[j].elsewhere)
        return 0;
    for (int k = 0; k < c->parts && sectors; k++) {
        const line *other = line_elsewhere(c, k, l2, tag);
        if (other)
            dirty |= other->dirty;
    }
    return sectors & sectors_of(c, dirty);
}

/* Whether the warp `me` has waited, at read round `round` of this moment's
 * step or later, for a fill from the L2 (or farther; dram: from DRAM): a
 * fill asked at `round` by another warp has then returned when it asks.
 * `far`: me->far (any of its loads), or me->chain_far (its chains'). */
static int already_waited(const cache *c, const warp_waits *me, const int64_t far[2], uint32_t round, int dram)
{
    return me->moment == c->moment && far[dram] >= (int64_t)round;
}

/* A load that waited for `level` at read round `round`: into far (a
 * warp_waits' far or chain_far), the last round it waited for the L2 or
 * farther, and for DRAM. */
static void waited(int64_t far[2], cache_level level, uint32_t round)
{
    if (level >= LEVEL_L2)
        far[0] = round;
    if (level == LEVEL_DRAM)
        far[1] = round;
}

/* Raise *level to at least `to`. */
static void reach(cache_level *level, cache_level to)
{
    if (*level < to)
        *level = to;
}

/* SM sm reads the words `words` of line `tag`: each sector they touch is
 * served by the L1, or its partition of the L2, or DRAM, and filled on the
 * way back; a sector written by an SM of another partition, and not yet
 * written back, is the L2's too.
 * A sector DRAM serves comes with the rest of its atom (dram_atom_words),
 * which fills the L2 too.  Counts the L2's and DRAM's sectors, and the
 * line's request to each (a request: one line of one round), to out;
 * returns how many sectors the L1 served, and the farthest level in
 * deepest[0]: for sectors the L1 holds but another warp's fill of this
 * moment still brings, the fill's level, unless the warp `me` has waited
 * as far since (read round `round`, cache.h); and in deepest[1] the same
 * as a link of a chain waits for it: unless a link of the warp's chains
 * has waited as far since.  *hit_words: the words the L1 served. */
static int read_line(cache *c, int sm, uint64_t tag, uint32_t words, const warp_waits *me, uint32_t round,
                     cache_sectors *out, cache_level deepest[2], uint32_t *hit_words)
{
    uint32_t sectors = sectors_of(c, words);
    line_set *l1 = l1_of(c, sm);
    int32_t i = l1 ? set_find(l1, tag) : -1;
    uint32_t from_l1 = i >= 0 ? whole_sectors(c, l1->lines[i].have, sectors) : 0;
    uint32_t missed = sectors & ~from_l1;
    *hit_words = words & from_l1;
    if (from_l1) {
        reach(&deepest[0], LEVEL_L1);
        reach(&deepest[1], LEVEL_L1);
    }
    if (from_l1 && l1->lines[i].asked == c->moment) { /* sectors still on their way to the L1 */
        const line *l = &l1->lines[i];
        uint32_t waiting = from_l1 & l->in_flight;
        int dram = (waiting & l->from_dram) != 0;
        cache_level fill = dram ? LEVEL_DRAM : LEVEL_L2;
        if (waiting && !already_waited(c, me, me->far, l->asked_round, dram))
            reach(&deepest[0], fill);
        if (waiting && !already_waited(c, me, me->chain_far, l->asked_round, dram))
            reach(&deepest[1], fill);
    }
    if (missed) {
        line_set *l2 = l2_of(c, sm, tag);
        int32_t j = l2_line(c, l2, tag, out);
        uint32_t have = l2->lines[j].have;
        uint32_t from_l2 = whole_sectors(c, have, missed);
        from_l2 |= dirty_elsewhere(c, l2, j, tag, missed & ~from_l2);
        uint32_t fetched = dram_fetch(c, have, missed & ~from_l2);
        int dram = count_sectors(c, fetched);
        out->l2_reads += count_sectors(c, from_l2);
        out->dram_reads += dram;
        out->l2_requests += from_l2 != 0;
        out->dram_requests += dram != 0;
        l2->lines[j].have |= missed | fetched;
        cache_level level = dram ? LEVEL_DRAM : LEVEL_L2;
        reach(&deepest[0], level);
        reach(&deepest[1], level);
        if (l1 && i < 0) {
            line evicted; /* an L1 line is never dirty: nothing to write back */
            int was;
            i = set_add(l1, tag, &evicted, &was);
        }
        if (l1) {
            line *l = &l1->lines[i];
            if (l->asked != c->moment) { /* the fills of an earlier moment have returned */
                l->asked = c->moment;
                l->in_flight = l->from_dram = 0;
            }
            l->asked_round = round;
            l->have |= missed;
            l->in_flight |= missed;
            l->from_dram |= missed & ~from_l2;
        }
    }
    if (i >= 0)
        set_use(l1, i);
    return count_sectors(c, from_l1);
}

/* The sectors of which `words` holds some words but not all: a write of
 * them is a partial sector (the L2 takes its bytes under a mask). */
static int partial_sectors(const cache *c, uint32_t words)
{
    int n = 0;
    for (int s = 0; s < c->sectors; s++) {
        uint32_t held = words & c->sector_words_mask[s];
        n += held && held != c->sector_words_mask[s];
    }
    return n;
}

/* SM sm (-1: the host) writes the words `words` of line `tag`: the words
 * join the line of its L2 partition, dirty, leaving every other
 * partition's copy of them.  The SM's L1 keeps what it held of them (its
 * copy written through, as l1_load_after_store_latency measures) and
 * takes nothing it did not hold.  Counts the sectors written to out
 * and, of them, the partial ones to out (NULL: not counted). */
static void write_line(cache *c, int sm, uint64_t tag, uint32_t words, cache_sectors *out)
{
    uint32_t sectors = sectors_of(c, words);
    line_set *l2 = l2_of(c, sm, tag);
    int32_t j = l2_line(c, l2, tag, out);
    l2->lines[j].have |= words;
    l2->lines[j].dirty |= words;
    for (int k = 0; k < c->parts && l2->lines[j].elsewhere; k++) { /* the other partitions' copies of these words are stale */
        line *other = line_elsewhere(c, k, l2, tag);
        if (other) {
            other->have &= ~words;
            other->dirty &= ~words;
        }
    }
    if (out) {
        out->l2_writes += count_sectors(c, sectors);
        out->l2_partial_writes += partial_sectors(c, words);
    }
}

void cache_restore_array(cache *c, int array, long words)
{
    for (long first = 0; first < words; first += c->line_words) {
        long in_line = words - first < c->line_words ? words - first : c->line_words;
        uint32_t mask = in_line == 32 ? 0xffffffffu : (1u << in_line) - 1, sectors = sectors_of(c, mask);
        uint64_t tag = line_tag(c, array, first);
        line_set *l2 = l2_of(c, -1, tag | INPUT_COPY);
        int32_t j = l2_line(c, l2, tag | INPUT_COPY, NULL); /* the copy reads its input's sectors */
        l2->lines[j].have |= sectors;
        write_line(c, -1, tag, mask, NULL); /* and writes the array's words */
    }
}

/* ---- recording ----------------------------------------------------------- */

cache_trace *cache_trace_new(const cache *c, int warp)
{
    cache_trace *t = grow(NULL, sizeof *t);
    memset(t, 0, sizeof *t);
    t->warp = warp;
    t->round = grow(NULL, sizeof *t->round * (size_t)warp);
    t->line_words = c->line_words;
    t->line_shift = -1;
    for (int sh = 0; sh <= 5; sh++)
        if (c->line_words == 1 << sh)
            t->line_shift = sh;
    return t;
}

void cache_trace_free(cache_trace *t)
{
    if (!t)
        return;
    recorded_free(&t->rec);
    free(t->round);
    free(t->chain);
    free(t->links);
    free(t->sites);
    free(t->place);
    free(t->site_of);
    free(t->order);
    free(t->first);
    free(t->by_site);
    free(t->slot);
    free(t);
}

/* Room in `chain` for rounds 0 .. round. */
static void __attribute__((noinline, cold)) chain_growing(cache_trace *t, int round)
{
    int cap = t->chain_cap ? t->chain_cap : 4;
    while (cap <= round)
        cap *= 2;
    t->chain = grow(t->chain, (size_t)cap);
    memset(t->chain + t->chain_cap, 0, (size_t)(cap - t->chain_cap));
    t->chain_cap = cap;
}

void cache_note_chain(cache_trace *t, int round)
{
    if (__builtin_expect(round >= t->chain_cap, 0))
        chain_growing(t, round);
    t->chain[round] = 1;
}

/* A lane's note, as the caches key it: its line and its word in it. */
static inline lane_note lane_of(const cache_trace *t, long key)
{
    long index = key & ACCESS_INDEX;
    long in_line = t->line_shift >= 0 ? index >> t->line_shift : index / t->line_words;
    return (lane_note){(uint64_t)(key >> ACCESS_INDEX_BITS) << ACCESS_INDEX_BITS | (uint64_t)in_line, (uint32_t)(index - in_line * t->line_words)};
}

static int by_tag(const void *x, const void *y)
{
    uint64_t a = ((const lane_note *)x)->tag, b = ((const lane_note *)y)->tag;
    return (a > b) - (a < b);
}

/* Whether the notes n[0 .. count) go down by line, lane after lane (a
 * warp whose lanes walk an array backwards). */
static int descending(const lane_note *n, int count)
{
    for (int i = 1; i < count; i++)
        if (n[i].tag > n[i - 1].tag)
            return 0;
    return 1;
}

/* The notes n[0 .. count) by line (notes of one line in any order among
 * themselves: the round's lines and their words are the same): reversed
 * where they go down, else by insertion for a warp's few, nearly sorted
 * notes; qsort for many. */
static void sort_notes(lane_note *n, int count)
{
    if (count > 1 && n[count - 1].tag < n[0].tag && descending(n, count)) {
        for (int i = 0, j = count - 1; i < j; i++, j--) {
            lane_note x = n[i];
            n[i] = n[j];
            n[j] = x;
        }
        return;
    }
    if (count > 64) {
        qsort(n, (size_t)count, sizeof *n, by_tag);
        return;
    }
    for (int i = 1; i < count; i++) {
        lane_note x = n[i];
        int j = i;
        for (; j > 0 && n[j - 1].tag > x.tag; j--)
            n[j] = n[j - 1];
        n[j] = x;
    }
}

static line_access *add_line(recorded *r)
{
    if (r->n_lines == r->cap_lines) {
        r->cap_lines = r->cap_lines ? 2 * r->cap_lines : 256;
        r->lines = grow(r->lines, sizeof *r->lines * (size_t)r->cap_lines);
    }
    return &r->lines[r->n_lines++];
}

static access_round *add_round(recorded *r)
{
    if (r->n_rounds == r->cap_rounds) {
        r->cap_rounds = r->cap_rounds ? 2 * r->cap_rounds : 64;
        r->rounds = grow(r->rounds, sizeof *r->rounds * (size_t)r->cap_rounds);
    }
    return &r->rounds[r->n_rounds++];
}

/* Round r's lines from its lanes' notes n[0 .. count): the distinct
 * lines it touches, in order, with the words touched. */
static void add_lines(cache_trace *t, access_round *r, lane_note *n, int count)
{
    sort_notes(n, count);
    for (int i = 0; i < count; i++) {
        if (i == 0 || n[i].tag != n[i - 1].tag) {
            *add_line(&t->rec) = (line_access){n[i].tag, 0};
            r->n++;
        }
        t->rec.lines[t->rec.n_lines - 1].words |= 1u << n[i].word;
    }
}

/* Round r's lines from the lanes' cells in lane order (lane i's note
 * row[i] of round `round`; where not every lane made the round, only the
 * lanes whose `made` passes it), in one pass while the cells do not go down:
 * their lines then come in order, as add_lines' sort leaves them, so the
 * lines and their words are the same.  A line's words are gathered while
 * its lanes come and stored when the next line begins (or the lanes end).
 * 0, with r and the trace's lines as they were, when a cell goes down. */
static int add_lines_ascending(cache_trace *t, access_round *r, const access_note *row, int round, const int *made,
                               int lanes, int every_lane)
{
    long last_key = -1;
    uint64_t tag = 0;
    uint32_t words = 0;
    for (int i = 0; i < lanes; i++) {
        if (!every_lane && made[i] <= round)
            continue;
        long key = row[i].key;
        if (key < last_key) {
            t->rec.n_lines -= r->n;
            r->n = 0;
            return 0;
        }
        lane_note n = lane_of(t, key);
        if (last_key >= 0 && n.tag != tag) {
            *add_line(&t->rec) = (line_access){tag, words};
            r->n++;
            words = 0;
        }
        tag = n.tag;
        words |= 1u << n.word;
        last_key = key;
    }
    if (last_key >= 0) {
        *add_line(&t->rec) = (line_access){tag, words};
        r->n++;
    }
    return 1;
}

/* The tag of the line whose cells' keys, shifted right by `shift` (the
 * trace's line_shift), are `shifted`: its array above bit 40 − shift, its
 * line below (an array's index is below 2^40). */
static inline uint64_t tag_of_line(int shift, long shifted)
{
    int low = ACCESS_INDEX_BITS - shift;
    return (uint64_t)(shifted >> low) << ACCESS_INDEX_BITS | (uint64_t)(shifted & ((1L << low) - 1));
}

/* add_lines_ascending where every lane made the round (lanes >= 1) and a
 * line is 2^line_shift words: two cells are of one line where their keys
 * shifted right by line_shift are equal, a cell's word in it is its key's
 * low line_shift bits (lane_of's line and word, with no tag made a lane).
 * `row` is the round's notes, lane i's row[i].
 * Keys are >= 0 (an array's number below 2^23 above its index), so their
 * signed order is the tags' order. */
static int add_lines_every_lane(cache_trace *t, access_round *r, const access_note *row, int lanes)
{
    int shift = t->line_shift;
    long low = (1L << shift) - 1, last_key = row[0].key, shifted = last_key >> shift;
    uint32_t words = 1u << (last_key & low);
    for (int i = 1; i < lanes; i++) {
        long key = row[i].key;
        if (key < last_key) {
            t->rec.n_lines -= r->n;
            r->n = 0;
            return 0;
        }
        last_key = key;
        if (key >> shift != shifted) {
            *add_line(&t->rec) = (line_access){tag_of_line(shift, shifted), words};
            r->n++;
            shifted = key >> shift;
            words = 0;
        }
        words |= 1u << (key & low);
    }
    *add_line(&t->rec) = (line_access){tag_of_line(shift, shifted), words};
    r->n++;
    return 1;
}

/* A new round of the running warp, its lines to come. */
static access_round *new_round(cache_trace *t, int step, int warp, int k, int round, int chain)
{
    access_round *r = add_round(&t->rec);
    *r = (access_round){(uint32_t)step, (uint32_t)round, (uint32_t)warp, (uint16_t)k, (uint16_t)chain,
                        t->rec.n_lines, 0};
    return r;
}

/* Round r's lines from the lanes' `round`-th notes of kind k (where not
 * every lane made the round, only the lanes whose `made` passes it). */
static void add_kth_lines(cache_trace *t, access_round *r, const warp_notes *w, int k, int round, int lanes,
                          int every_lane)
{
    const int *made = w->made[k];
    const access_note *row = &w->notes[k][(long)round * w->stride];
    if (every_lane && lanes > 0 && t->line_shift >= 0) {
        if (add_lines_every_lane(t, r, row, lanes))
            return;
    } else if (add_lines_ascending(t, r, row, round, made, lanes, every_lane)) {
        return;
    }
    int count = 0;
    for (int i = 0; i < lanes; i++)
        if (every_lane || made[i] > round)
            t->round[count++] = lane_of(t, row[i].key);
    add_lines(t, r, t->round, count);
}

/* The running warp's rounds of kind k as each lane's k-th access: round
 * r holds every lane's r-th note. */
static void record_kth_rounds(cache_trace *t, int step, int warp, int k, const warp_notes *w, int lanes)
{
    for (int round = 0; round < w->rounds[k]; round++) {
        int chain = k == 0 && round < t->chain_cap && t->chain[round];
        add_kth_lines(t, new_round(t, step, warp, k, round, chain), w, k, round, lanes, round < w->all[k]);
    }
}

/* A read's site, its chain bit aside. */
static inline uint64_t site_alone(const access_note *n) { return n->site & ~STREAM_SITE_CHAIN; }

/* Whether the running warp's reads went in lockstep: every lane made the
 * same number of reads, its r-th at the same known site as every other
 * lane's r-th, and a lane's reads are at distinct sites.  number_sites
 * then numbers lane 0's sites 0 .. m − 1 in its order and places them
 * there, so that record_site_rounds' round r is every lane's r-th read in
 * lane order (record_lockstep_reads); links[r] is then whether any lane's
 * note of round r says it is a link of a chain (STREAM_SITE_CHAIN), as
 * record_site_rounds finds it. */
static int lockstep_reads(cache_trace *t, const warp_notes *w, int lanes)
{
    const access_note *notes = w->notes[0];
    int most = w->rounds[0];
    for (int i = 0; i < lanes; i++)
        if (w->made[0][i] != most)
            return 0;
    if (most > t->links_cap) {
        t->links_cap = most;
        t->links = grow(t->links, (size_t)most);
    }
    for (int r = 0; r < most; r++) {
        const access_note *row = &notes[(long)r * w->stride];
        uint64_t site = site_alone(&row[0]), chain = row[0].site;
        if (site >> STREAM_SITE_BLOCK_SHIFT == 0)
            return 0;
        for (int q = 0; q < r; q++)
            if (site_alone(&notes[(long)q * w->stride]) == site)
                return 0;
        for (int i = 1; i < lanes; i++) {
            uint64_t its = row[i].site;
            if ((its & ~STREAM_SITE_CHAIN) != site)
                return 0;
            chain |= its;
        }
        t->links[r] = (unsigned char)(chain & STREAM_SITE_CHAIN);
    }
    return 1;
}

/* record_site_rounds' rounds of reads in lockstep (lockstep_reads), with
 * no numbering and no sort: round r is every lane's r-th read, a link of
 * a chain where any of its notes says so. */
static void record_lockstep_reads(cache_trace *t, int step, int warp, const warp_notes *w, int lanes)
{
    for (int round = 0; round < w->rounds[0]; round++)
        add_kth_lines(t, new_round(t, step, warp, 0, round, t->links[round]), w, 0, round, lanes, 1);
}

/* The number of site `site` among the running warp's sites (numbered in
 * the order first met; a new one numbered n, *n then one more), by the
 * hash t->slot of t->slots (a power of two) slots. */
static int site_number(cache_trace *t, uint64_t site, int *n)
{
    uint64_t h = site * 0x9e3779b97f4a7c15ull;
    for (long j = (long)(h >> 32) & (t->slots - 1);; j = (j + 1) & (t->slots - 1)) {
        int s = t->slot[j];
        if (s < 0) {
            t->slot[j] = *n;
            t->sites[*n] = site;
            t->place[*n] = 0;
            return (*n)++;
        }
        if (t->sites[s] == site)
            return s;
    }
}

/* The sites of the running warp's reads (cache.h: a read round is one
 * site), numbered: site_of[i · most + r] is the number of lane i's r-th
 * read's site, sites[n] the n-th site's key, place[n] its place in the
 * warp's order.  The number of sites, or -1 where the rounds must stay
 * each lane's k-th read (a site unknown, a lane's two reads of one site,
 * lanes whose orders disagree). */
static int number_sites(cache_trace *t, const warp_notes *w, int lanes)
{
    int most = w->rounds[0], n = 0;
    memset(t->slot, 0xff, sizeof *t->slot * (size_t)t->slots);
    for (int i = 0; i < lanes; i++)
        for (int r = 0; r < w->made[0][i]; r++) {
            uint64_t site = w->notes[0][(long)r * w->stride + i].site & ~STREAM_SITE_CHAIN;
            if (site >> STREAM_SITE_BLOCK_SHIFT == 0)
                return -1;
            t->site_of[(long)i * most + r] = site_number(t, site, &n);
        }
    /* a site's place: one more than the place of any lane's read before
     * it; settled in at most n passes, else the orders disagree */
    for (int pass = 0, moved = 1; moved; pass++) {
        if (pass > n)
            return -1;
        moved = 0;
        for (int i = 0; i < lanes; i++) {
            const int *of = &t->site_of[(long)i * most];
            for (int r = 1; r < w->made[0][i]; r++)
                if (t->place[of[r]] <= t->place[of[r - 1]])
                    t->place[of[r]] = t->place[of[r - 1]] + 1, moved = 1;
        }
    }
    return n;
}

/* Room for the site tables of a warp of `lanes` lanes and `most` reads a
 * lane. */
static void sites_room(cache_trace *t, int lanes, int most)
{
    long need = (long)lanes * most;
    if (need > t->sites_cap) {
        t->sites_cap = need;
        t->sites = grow(t->sites, sizeof *t->sites * (size_t)need);
        t->place = grow(t->place, sizeof *t->place * (size_t)need);
        t->site_of = grow(t->site_of, sizeof *t->site_of * (size_t)(need + 1)); /* + 1: the places' counts */
        t->first = grow(t->first, sizeof *t->first * (size_t)(need + 1));
        t->order = grow(t->order, sizeof *t->order * (size_t)need);
        for (t->slots = 16; t->slots < 2 * need; t->slots *= 2)
            ;
        t->slot = grow(t->slot, sizeof *t->slot * (size_t)t->slots);
        t->by_site = grow(t->by_site, sizeof *t->by_site * (size_t)need);
    }
}

/* The running warp's read rounds, one a site (cache.h), in the order of
 * their places (ties: the order the sites were numbered in); 0, or -1
 * where they must be each lane's k-th read (number_sites). */
static int record_site_rounds(cache_trace *t, int step, int warp, const warp_notes *w, int lanes)
{
    int most = w->rounds[0];
    sites_room(t, lanes, most);
    int n = number_sites(t, w, lanes);
    if (n < 0)
        return -1;
    /* the notes by site, lane after lane (a counting sort): site s's notes
     * are by_site[first[s] .. first[s + 1]) */
    memset(t->first, 0, sizeof *t->first * (size_t)(n + 1));
    for (int i = 0; i < lanes; i++)
        for (int r = 0; r < w->made[0][i]; r++)
            t->first[t->site_of[(long)i * most + r] + 1]++;
    for (int s = 0; s < n; s++)
        t->first[s + 1] += t->first[s];
    for (int i = 0; i < lanes; i++)
        for (int r = 0; r < w->made[0][i]; r++) {
            long *at = &t->first[t->site_of[(long)i * most + r]];
            t->by_site[(*at)++] = (long)r * w->stride + i;
        }
    /* first[s] is now the end of site s's notes, the start of s + 1's;
     * the sites by place (a counting sort, numbers ascending in a place) */
    int last_place = 0;
    for (int s = 0; s < n; s++)
        last_place = t->place[s] > last_place ? t->place[s] : last_place;
    int *count = t->site_of; /* reused: the lanes' sites are no longer needed */
    memset(count, 0, sizeof *count * (size_t)(last_place + 2));
    for (int s = 0; s < n; s++)
        count[t->place[s] + 1]++;
    for (int p = 0; p <= last_place; p++)
        count[p + 1] += count[p];
    for (int s = 0; s < n; s++)
        t->order[count[t->place[s]]++] = s;
    for (int round = 0; round < n; round++) {
        int s = t->order[round], chain = 0, m = 0;
        for (long j = s ? t->first[s - 1] : 0; j < t->first[s]; j++) {
            const access_note *note = &w->notes[0][t->by_site[j]];
            t->round[m++] = lane_of(t, note->key);
            chain |= (int)(note->site & STREAM_SITE_CHAIN);
        }
        add_lines(t, new_round(t, step, warp, 0, round, chain), t->round, m);
    }
    return 0;
}

void cache_warp_done(cache_trace *t, int step, int warp, const warp_notes *w)
{
    int lanes = w->lanes < t->warp ? w->lanes : t->warp;
    if (w->rounds[0] > 0 && lockstep_reads(t, w, lanes))
        record_lockstep_reads(t, step, warp, w, lanes);
    else if (w->rounds[0] > 0 && record_site_rounds(t, step, warp, w, lanes) < 0)
        record_kth_rounds(t, step, warp, 0, w, lanes);
    record_kth_rounds(t, step, warp, 1, w, lanes);
    if (t->chain_cap > 0)
        memset(t->chain, 0, (size_t)(w->rounds[0] < t->chain_cap ? w->rounds[0] : t->chain_cap));
}

/* ---- a launch, wave by wave ----------------------------------------------- */

void cache_launch_begin(cache *c, long blocks, int resident, double private_words)
{
    c->launch++;
    double lines = floor(fmax(0, c->l1_words - resident * private_words) / c->line_words);
    double most = floor(c->l1_words / c->line_words);
    lines = fmin(lines, most);
    c->l1_lines = lines > INT32_MAX / 4 ? INT32_MAX / 4 : (int32_t)lines;
    c->blocks = blocks;
    c->wave_size = (long)c->sms * (resident > 0 ? resident : 1);
    if (c->wave_size > blocks)
        c->wave_size = blocks;
    c->wave_first = 0;
    c->handed = 0;
    c->recorded_bytes = 0;
    if (c->wave_size > c->wave_cap) {
        c->wave = grow(c->wave, sizeof *c->wave * (size_t)c->wave_size);
        memset(c->wave + c->wave_cap, 0, sizeof *c->wave * (size_t)(c->wave_size - c->wave_cap));
        c->wave_cap = c->wave_size;
    }
    for (long j = 0; j < c->wave_cap; j++) /* no slot points at a launch before's results */
        c->wave[j].out = NULL;
}

/* The order of the positions a wave is replayed in (cache.h): step, the
 * reads before the writes, round, warp. */
static inline __attribute__((always_inline)) int position_order(const access_round *a, const access_round *b)
{
    if (a->step != b->step)
        return a->step < b->step ? -1 : 1;
    if (a->write != b->write)
        return a->write < b->write ? -1 : 1;
    if (a->round != b->round)
        return a->round < b->round ? -1 : 1;
    if (a->warp != b->warp)
        return a->warp < b->warp ? -1 : 1;
    return 0;
}

static int by_position(const void *x, const void *y)
{
    return position_order(x, y);
}

/* The words `hit` of line `tag` the L1 served a round, added to the
 * round's count of words in each bank; the most words a bank holds so far
 * (from `most`): the banks serve one word each a wavefront. */
static int bank_words(const cache *c, uint64_t tag, uint32_t hit, int in_bank[L1_BANKS], int most)
{
    /* an array starts a line, at bank 0 (cudaMalloc aligns to 256 bytes) */
    uint64_t first = (tag & LINE_INDEX) * (uint64_t)c->line_words;
    for (; hit; hit &= hit - 1) {
        int b = (int)((first + (uint64_t)__builtin_ctz(hit)) % L1_BANKS);
        if (++in_bank[b] > most)
            most = in_bank[b];
    }
    return most;
}

/* The L1's wavefronts of a round whose hits are `hits` sectors, at most
 * `most` words of them in one bank: a line's worth of sectors a wavefront
 * (its tag stage), and no fewer than the words of its fullest bank (its
 * data array, a word a bank a wavefront).  l1_lines32_banks32 (32 lines,
 * 32 banks: 8.8 cycles a round), l1_lines16_banks2 (16.0) and
 * l1_lines32_banks1 (32.1) against the one-line round's 1.0 (constants.cu,
 * measure_l1_lines; probe-ct6, H100 and H200 alike). */
static double round_wavefronts(const cache *c, long hits, int most)
{
    long lines_worth = (hits + c->sectors - 1) / c->sectors;
    return (double)(lines_worth > most ? lines_worth : most);
}

/* Round r of the block of wave slot j, served. */
static void serve(cache *c, long j, const access_round *r)
{
    wave_block *w = &c->wave[j];
    int sm = (int)((c->wave_first + j) % c->sms);
    const line_access *lines = &w->rec.lines[r->first];
    cache_sectors *out = w->out;
    if (r->write) {
        for (long i = 0; i < r->n; i++)
            write_line(c, sm, lines[i].tag, lines[i].words, out);
        return;
    }
    if ((int)r->warp >= w->n_waits) {
        int n = (int)r->warp + 1;
        w->waits = grow(w->waits, sizeof *w->waits * (size_t)n);
        memset(w->waits + w->n_waits, 0, sizeof *w->waits * (size_t)(n - w->n_waits));
        w->n_waits = n;
    }
    warp_waits *me = &w->waits[r->warp];
    if (me->moment != c->moment)
        *me = (warp_waits){c->moment, {-1, -1}, {-1, -1}, me->read};
    long hits = 0;
    int in_bank[L1_BANKS] = {0}, most = 0;
    cache_level deepest[2] = {LEVEL_NONE, LEVEL_NONE}; /* the load's, and as a chain's link */
    for (long i = 0; i < r->n; i++) {
        uint32_t hit;
        hits += read_line(c, sm, lines[i].tag, lines[i].words, me, r->round, out, deepest, &hit);
        most = bank_words(c, lines[i].tag, hit, in_bank, most);
    }
    waited(me->far, deepest[0], r->round);
    if (r->chain) {
        waited(me->chain_far, deepest[1], r->round);
        if (me->read) /* a link after the warp's first read */
            out->chain_loads[deepest[1]]++;
    }
    me->read = 1;
    out->l1_wavefronts += round_wavefronts(c, hits, most);
    out->warp_loads[deepest[0]]++;
    if (out->first_read == LEVEL_NONE)
        out->first_read = deepest[0];
}

/* The round of wave slot j at its cursor, or NULL (not handed in, or
 * replayed to its end). */
static const access_round *at_cursor(const cache *c, long j)
{
    const wave_block *w = &c->wave[j];
    return w->out && w->cursor < w->rec.n_rounds ? &w->rec.rounds[w->cursor] : NULL;
}

/* The wave's blocks handed in, replayed position by position, each
 * position's rounds in slot order; the wave is then empty and the next one
 * begins.  One pass a position serves its rounds and finds the next
 * position, the least of the cursors' rounds after it. */
static void replay_wave(cache *c)
{
    const access_round *next = NULL;
    for (long j = 0; j < c->wave_size; j++) {
        c->wave[j].cursor = 0;
        const access_round *r = at_cursor(c, j);
        if (r && (!next || position_order(r, next) < 0))
            next = r;
    }
    int stepped = 0;
    uint32_t step = 0;
    while (next) {
        access_round at = *next;
        if (!stepped || at.step != step) { /* a new moment: the wave's next step */
            c->moment++;
            stepped = 1;
            step = at.step;
        }
        next = NULL;
        for (long j = 0; j < c->wave_size; j++) {
            const access_round *r = at_cursor(c, j);
            if (r && position_order(r, &at) == 0) {
                serve(c, j, r);
                c->wave[j].cursor++;
                r = at_cursor(c, j);
            }
            if (r && (!next || position_order(r, next) < 0))
                next = r;
        }
    }
    for (long j = 0; j < c->wave_size; j++) {
        c->wave[j].out = NULL;
        c->wave[j].rec.n_rounds = c->wave[j].rec.n_lines = 0;
    }
    c->handed = 0;
    c->recorded_bytes = 0;
    c->wave_first += c->wave_size;
}

/* The blocks in the wave that begins at wave_first. */
static long wave_blocks(const cache *c)
{
    long left = c->blocks - c->wave_first;
    return left < c->wave_size ? left : c->wave_size;
}

/* A round's key in a counting sort of rounds of steps up to `steps` − 1
 * and rounds up to `rounds` − 1: its step, then reads before writes, then
 * its round (position_order but the warp). */
static long round_key(const access_round *r, long rounds)
{
    return ((long)r->step * 2 + r->write) * rounds + r->round;
}

/* The rounds of a block, rec->rounds, in position_order (the order a wave
 * replays them in).  Recorded warp by warp in each step, a warp's rounds of
 * a kind in order, they are first sorted by their key (round_key) by
 * counting, which keeps the rounds of one key in the order recorded: by
 * warp, where the warps came in order (exec mode's).  Where that leaves
 * them out of position_order, or the keys span too many values, they are
 * sorted as recorded by qsort: position_order is a total order on a
 * block's rounds (a warp makes one round of each kind and number a step),
 * so both give the same sequence. */
static void sort_rounds(cache *c, recorded *rec)
{
    long n = rec->n_rounds, steps = 0, rounds = 0;
    access_round *a = rec->rounds;
    for (long i = 0; i < n; i++) {
        steps = a[i].step >= steps ? (long)a[i].step + 1 : steps;
        rounds = a[i].round >= rounds ? (long)a[i].round + 1 : rounds;
    }
    long most = 4 * n + 1024, keys = steps <= most && rounds <= most ? steps * 2 * rounds : most + 1;
    if (n < 2 || keys > most) {
        qsort(a, (size_t)n, sizeof *a, by_position);
        return;
    }
    if (n > c->sorted_cap) {
        c->sorted_cap = n;
        c->sorted = grow(c->sorted, sizeof *c->sorted * (size_t)n);
    }
    if (keys + 1 > c->keys_cap) {
        c->keys_cap = keys + 1;
        c->at_key = grow(c->at_key, sizeof *c->at_key * (size_t)(keys + 1));
    }
    long *at = c->at_key;
    memset(at, 0, sizeof *at * (size_t)(keys + 1));
    for (long i = 0; i < n; i++)
        at[round_key(&a[i], rounds) + 1]++;
    for (long k = 0; k < keys; k++)
        at[k + 1] += at[k];
    for (long i = 0; i < n; i++)
        c->sorted[at[round_key(&a[i], rounds)]++] = a[i];
    for (long i = 1; i < n; i++) /* the keys ascend: a key's warps must too */
        if (c->sorted[i - 1].warp > c->sorted[i].warp &&
            round_key(&c->sorted[i - 1], rounds) == round_key(&c->sorted[i], rounds)) {
            qsort(a, (size_t)n, sizeof *a, by_position);
            return;
        }
    memcpy(a, c->sorted, sizeof *a * (size_t)n);
}

int cache_block_done(cache *c, long bid, cache_trace *t, cache_sectors *out)
{
    *out = (cache_sectors){.measured = 1};
    if (bid < c->wave_first || bid >= c->wave_first + c->wave_size) {
        /* a block of another wave (cache.h: not while this one is open): this one ends as it is */
        if (c->handed > 0)
            replay_wave(c);
        c->wave_first = bid - bid % c->wave_size;
    }
    wave_block *w = &c->wave[bid - c->wave_first];
    recorded mine = t->rec; /* the trace's buffers go to the slot, the slot's back to the trace */
    t->rec = w->rec;
    t->rec.n_rounds = t->rec.n_lines = 0;
    w->rec = mine;
    sort_rounds(c, &w->rec);
    if (!w->out)
        c->handed++;
    w->out = out;
    if (w->n_waits > 0) /* a new block in the slot: its warps have waited for nothing */
        memset(w->waits, 0, sizeof *w->waits * (size_t)w->n_waits);
    c->recorded_bytes += (double)w->rec.n_rounds * sizeof *w->rec.rounds + (double)w->rec.n_lines * sizeof *w->rec.lines;
    if (c->recorded_bytes > CACHE_WAVE_BYTES)
        return fail("the caches record a wave of %ld blocks (%ld resident on each of %d SMs) before they replay "
                    "it, and this one's accesses pass %.0f MB by block %ld (rule: a wave's accesses must fit "
                    "CACHE_WAVE_BYTES; fewer accesses a block, or a machine without the caches, l1_words = 0)",
                    c->wave_size, c->wave_size / c->sms, c->sms, CACHE_WAVE_BYTES / 1e6, bid);
    if (c->handed == wave_blocks(c))
        replay_wave(c);
    return 0;
}

void cache_launch_end(cache *c)
{
    if (c->handed > 0)
        replay_wave(c);
}
