/*
 * code_record.c — the record of the code's costs (validate.h, "the
 * record"): the figures of points run in exec mode by `make validate-full`
 * (every point of the sets of the code's costs, no budget) or a step of it
 * (MCMSIM_CODE_RECORD=write within budgets; its "made" line says which
 * made it, and which runs of the same tree added to it after:
 * code_record_made, code_record_remade), committed as
 * validate/code-record.csv, each keyed by what determines it; `make
 * validate` takes a point from it only where the point's key, computed
 * from the tree it runs on, is the record's.
 *
 * What determines a point's figures (its simulated times with the caches
 * and without, launches, rounds, whether it ran through the caches), and
 * so its key (code_record_key): the tree's sources (code_record_sources:
 * every .c and .h under sim/, machine/ and programs/ (exec mode, the
 * kernels written once, the engine, the machine), validate/main.c and
 * validate/code_costs.c (how a point is run and simulated), the Makefile
 * (the build flags), the compiler that built this binary and the clang
 * of the counted builds (their versions)), the case, its params, and the
 * machine it runs on (every byte of it: the card's code machine as
 * validate/card.c builds it from the sessions' constants).  A stale
 * record (any of them changed) has no key the tree computes: never used.
 *
 * The record's format: comment lines ("# made: ..." says which commit and
 * command made it, "# sources: ..." the tree's key), a header, then one row
 * per point:
 * key,program,params,machine,sim_ms,sim_ms_off,launches,rounds,cached,check,
 * the numbers as %.17g (read back bit for bit), check a hash of the row's
 * text before it: a row whose figures were edited is refused, naming its
 * line.  A record of another tree (its sources line not the tree's) is
 * read as empty: none of its keys could be the tree's.
 */
#include "validate.h"
#include "fail.h"

#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* ---- the key: FNV-1a, 128 bits as two 64-bit lanes ------------------------- */

typedef struct hash128 {
    uint64_t lo, hi;
} hash128;

static hash128 hash_start(void) { return (hash128){0xcbf29ce484222325ull, 0x84222325cbf29ce4ull}; }

static void hash_bytes(hash128 *h, const void *bytes, size_t n)
{
    const unsigned char *b = bytes;
    for (size_t i = 0; i < n; i++) {
        h->lo = (h->lo ^ b[i]) * 0x100000001b3ull;
        h->hi = (h->hi ^ (unsigned char)(b[i] + 0x5b)) * 0x100000001b3ull;
        h->hi ^= h->lo >> 29;
    }
}

/* A text with its end, so "ab","c" and "a","bc" differ. */
static void hash_text(hash128 *h, const char *text) { hash_bytes(h, text, strlen(text) + 1); }

static void hash_hex(const hash128 *h, char out[CODE_RECORD_KEY])
{
    snprintf(out, CODE_RECORD_KEY, "%016llx%016llx", (unsigned long long)h->hi, (unsigned long long)h->lo);
}

/* A file's name and bytes; -1 if it cannot be read. */
static int hash_file(hash128 *h, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return fail("%s: cannot read (the record's key)", path);
    char buf[65536];
    size_t got;
    hash_text(h, path);
    while ((got = fread(buf, 1, sizeof buf, f)) > 0)
        hash_bytes(h, buf, got);
    fclose(f);
    return 0;
}

static int is_source(const char *name)
{
    size_t n = strlen(name);
    return n > 2 && name[n - 2] == '.' && (name[n - 1] == 'c' || name[n - 1] == 'h');
}

/* Every .c and .h file under dir, in name order, hashed. */
static int hash_tree(hash128 *h, const char *dir)
{
    struct dirent **names;
    int n = scandir(dir, &names, NULL, alphasort), rc = n < 0 ? fail("%s: cannot list (the record's key)", dir) : 0;
    for (int i = 0; i < n; i++) {
        char path[1024];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
        if (rc == 0 && names[i]->d_name[0] != '.' && stat(path, &st) == 0)
            rc = S_ISDIR(st.st_mode) ? hash_tree(h, path) : is_source(names[i]->d_name) ? hash_file(h, path) : 0;
        free(names[i]);
    }
    free(names);
    return rc;
}

/* The first line a command prints ("" if none). */
static void first_line(const char *command, char *out, size_t size)
{
    FILE *p = popen(command, "r");
    out[0] = '\0';
    if (p && fgets(out, (int)size, p))
        out[strcspn(out, "\n")] = '\0';
    if (p)
        pclose(p);
}

int code_record_sources(char out[CODE_RECORD_KEY])
{
    static const char *const trees[] = {"sim", "machine", "programs"};
    static const char *const files[] = {"validate/main.c", "validate/code_costs.c", "Makefile"};
    hash128 h = hash_start();
    for (size_t i = 0; i < sizeof trees / sizeof trees[0]; i++)
        if (hash_tree(&h, trees[i]) < 0)
            return -1;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        if (hash_file(&h, files[i]) < 0)
            return -1;
    char clang[512], command[600];
    const char *env = getenv("MCMSIM_CLANG");
    snprintf(command, sizeof command, "'%s' --version 2>/dev/null", env && *env ? env : "clang");
    first_line(command, clang, sizeof clang);
    hash_text(&h, __VERSION__);
    hash_text(&h, clang);
    hash_hex(&h, out);
    return 0;
}

void code_record_key(const char *sources, const char *program, const char *params, const machine *m,
                     const machine *off, char out[CODE_RECORD_KEY])
{
    hash128 h = hash_start();
    hash_text(&h, sources);
    hash_text(&h, program);
    hash_text(&h, params);
    hash_bytes(&h, m, sizeof *m);
    hash_bytes(&h, off, sizeof *off);
    hash_hex(&h, out);
}

void code_record_made_by(double point_budget, double cell_budget, char *out, size_t size)
{
    if (isinf(point_budget) && isinf(cell_budget))
        snprintf(out, size, "`make validate-full`");
    else
        snprintf(out, size, "`MCMSIM_CODE_RECORD=write MCMSIM_CODE_BUDGET=%g MCMSIM_CODE_CELL_BUDGET=%g` (a step: "
                 "the points within those budgets)", point_budget, cell_budget);
}

void code_record_made(double point_budget, double cell_budget, char *out, size_t size)
{
    char commit[64], changed[8], by[192], date[64];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    first_line("git rev-parse --short=12 HEAD 2>/dev/null", commit, sizeof commit);
    first_line("git status --porcelain -- sim programs 'machine/*.[ch]' validate/main.c validate/code_costs.c "
               "Makefile 2>/dev/null",
               changed, sizeof changed);
    code_record_made_by(point_budget, cell_budget, by, sizeof by);
    snprintf(out, size, "commit %s%s, by %s, %s", commit[0] ? commit : "(no git)",
             changed[0] ? " with its sources changed" : "", by, date);
}

static const char MORE_RUNS[] = "; then more runs";

static int ends_with(const char *text, const char *end)
{
    size_t n = strlen(text), e = strlen(end);
    return n >= e && !strcmp(text + n - e, end);
}

/* `more` appended to text (a buffer of `size`) where it fits; 0 if not. */
static int append(char *text, size_t size, const char *more)
{
    size_t n = strlen(text), m = strlen(more);
    if (n + m >= size)
        return 0;
    memcpy(text + n, more, m + 1);
    return 1;
}

void code_record_remade(code_record *r, double point_budget, double cell_budget)
{
    char by[192], then[208];
    if (r->n == 0) { /* none, or another tree's (read as empty): this run makes it */
        code_record_made(point_budget, cell_budget, r->made, sizeof r->made);
        return;
    }
    code_record_made_by(point_budget, cell_budget, by, sizeof by);
    snprintf(then, sizeof then, "; then %s", by);
    if (ends_with(r->made, then) || ends_with(r->made, MORE_RUNS))
        return;
    size_t room = sizeof r->made - strlen(r->made);
    if (strlen(then) + strlen(MORE_RUNS) < room) /* a writer named leaves room for MORE_RUNS */
        append(r->made, sizeof r->made, then);
    else if (!append(r->made, sizeof r->made, MORE_RUNS)) /* said once, over the line's tail if need be */
        memcpy(r->made + sizeof r->made - sizeof MORE_RUNS, MORE_RUNS, sizeof MORE_RUNS);
}

/* ---- the record ------------------------------------------------------------- */

const code_record_entry *code_record_find(const code_record *r, const char *key)
{
    for (int i = 0; i < r->n; i++)
        if (!strcmp(r->e[i].key, key))
            return &r->e[i];
    return NULL;
}

int code_record_add(code_record *r, const code_record_entry *e)
{
    if (code_record_find(r, e->key))
        return 0; /* a point two sets share (a-code and b-code on one machine) */
    if (r->n == r->cap) {
        int cap = r->cap ? 2 * r->cap : 64;
        code_record_entry *more = realloc(r->e, sizeof *more * (size_t)cap);
        if (!more)
            return fail("the record: out of memory");
        r->e = more;
        r->cap = cap;
    }
    r->e[r->n++] = *e;
    return 0;
}

void code_record_free(code_record *r)
{
    free(r->e);
    memset(r, 0, sizeof *r);
}

void code_record_row_check(const char *text, size_t n, char out[17])
{
    hash128 h = hash_start();
    hash_bytes(&h, text, n);
    snprintf(out, 17, "%016llx", (unsigned long long)(h.lo ^ h.hi));
}

/* Whether a row (its end of line taken off) ends in the check of its text
 * before it. */
static int row_checked(const char *line)
{
    const char *comma = strrchr(line, ',');
    char check[17];
    if (!comma)
        return 0;
    code_record_row_check(line, (size_t)(comma - line), check);
    return strcmp(comma + 1, check) == 0;
}

/* One row into *e, its check taken off; 0 if it is not one (9 fields,
 * numbers whole). */
static int parse_row(char *line, code_record_entry *e)
{
    char *f[10], *save, *end;
    int n = 0;
    *strrchr(line, ',') = '\0'; /* its check (row_checked) */
    for (char *tok = strtok_r(line, ",", &save); tok && n < 10; tok = strtok_r(NULL, ",", &save))
        f[n++] = tok;
    if (n != 9 || strlen(f[0]) != CODE_RECORD_KEY - 1)
        return 0;
    memset(e, 0, sizeof *e);
    snprintf(e->key, sizeof e->key, "%s", f[0]);
    snprintf(e->program, sizeof e->program, "%s", f[1]);
    snprintf(e->params, sizeof e->params, "%s", f[2]);
    snprintf(e->machine, sizeof e->machine, "%s", f[3]);
    double *num[] = {&e->sim_ms, &e->sim_ms_off, &e->launches, &e->rounds};
    for (int i = 0; i < 4; i++) {
        *num[i] = strtod(f[4 + i], &end);
        if (*end || end == f[4 + i])
            return 0;
    }
    e->cached = (int)strtol(f[8], &end, 10);
    return !*end && (e->cached == 0 || e->cached == 1);
}

/* A row of the record at path:number added to r; -1 with fail() if its
 * check fails or it is malformed. */
static int load_row(code_record *r, char *line, const char *path, int number)
{
    code_record_entry e;
    if (!row_checked(line))
        return fail("%s:%d: the row's check is not its text's (figures edited by hand, or a record of an older "
                    "format?): refused; re-run `make validate-full`",
                    path, number);
    if (!parse_row(line, &e))
        return fail("%s:%d: expected key,program,params,machine,sim_ms,sim_ms_off,launches,rounds,cached,check",
                    path, number);
    return code_record_add(r, &e);
}

int code_record_load(code_record *r, const char *path, const char *sources)
{
    memset(r, 0, sizeof *r);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0; /* no record: every point runs within the budgets, as without one */
    char line[1024];
    int number = 0, rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        number++;
        line[strcspn(line, "\r\n")] = '\0';
        if (!strncmp(line, "# made: ", 8))
            snprintf(r->made, sizeof r->made, "%.*s", (int)sizeof r->made - 1, line + 8);
        else if (!strncmp(line, "# sources: ", 11))
            snprintf(r->sources, sizeof r->sources, "%.32s", line + 11);
        else if (line[0] != '#' && strncmp(line, "key,", 4) != 0 && (!sources || !strcmp(r->sources, sources)))
            rc = load_row(r, line, path, number); /* a stale record's rows: no key of this tree's is theirs */
    }
    fclose(f);
    if (rc < 0)
        code_record_free(r);
    return rc;
}

int code_record_save(const code_record *r, const char *path, const char *sources)
{
    char part[1100];
    snprintf(part, sizeof part, "%s.part", path); /* renamed when whole: a run killed mid-write keeps the last */
    FILE *f = fopen(part, "w");
    if (!f)
        return fail("%s: cannot write", part);
    fprintf(f, "# code-record.csv — the code's costs of every point of the sets a-code, b-code and c-code,\n"
               "# run in exec mode and simulated by `make validate-full` (no budget) or a step of it (budgets:\n"
               "# the made line says which, then which runs added to it; a run cut short keeps the points it\n"
               "# finished, and the next run of the same tree goes on from them).  `make validate` takes a point from here only where its\n"
               "# key (validate/code_record.c: the tree's sources, the case, its params, the machines) is the\n"
               "# one it computes; a row's last field checks its text (an edited row is refused); do not\n"
               "# edit: re-run.\n"
               "# made: %s\n# sources: %s\nkey,program,params,machine,sim_ms,sim_ms_off,launches,rounds,cached,check\n",
            r->made, sources);
    for (int i = 0; i < r->n; i++) {
        const code_record_entry *e = &r->e[i];
        char row[1024], check[17];
        int n = snprintf(row, sizeof row, "%s,%s,%s,%s,%.17g,%.17g,%.17g,%.17g,%d", e->key, e->program, e->params,
                         e->machine, e->sim_ms, e->sim_ms_off, e->launches, e->rounds, e->cached);
        code_record_row_check(row, (size_t)n, check);
        fprintf(f, "%s,%s\n", row, check);
    }
    if (fclose(f) != 0)
        return fail("%s: write error", part);
    return rename(part, path) == 0 ? 0 : fail("%s: cannot rename to %s", part, path);
}
