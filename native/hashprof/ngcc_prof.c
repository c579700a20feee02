/*
 * ngcc_prof.c -- counters and report of ngcc-perf's link-time wrappers (see ngcc_prof.h).
 */
#include "ngcc_prof.h"

#include <stdlib.h>
#include <string.h>

static uint64_t ngcc_prof_total, ngcc_prof_t0;
static uint64_t ngcc_prof_frozen_total;
static int ngcc_prof_is_frozen;

/* Frozen copies, sized by the generated table. */
#define NGCC_PROF_MAX 256
static ngcc_prof_group ngcc_prof_fgroups[NGCC_PROF_MAX];
static ngcc_prof_symbol ngcc_prof_fsymbols[NGCC_PROF_MAX];

/* Calls per operation of one symbol: a histogram sorted by calls, grown as new values appear. */
typedef struct {
    unsigned long long calls; /* outermost calls in one operation */
    unsigned long long ops;   /* operations that made that many */
} ngcc_prof_bin;

typedef struct {
    unsigned long long last; /* the symbol's outer count at the end of the previous operation */
    unsigned long long ops, min, max, sum;
    ngcc_prof_bin *bins;
    size_t nbins, cap, hint; /* hint: the bin of the previous operation (most operations repeat it) */
    int lost;                /* a histogram allocation failed: no distribution reported */
} ngcc_prof_dist;

static ngcc_prof_dist ngcc_prof_dists[NGCC_PROF_MAX];

static void ngcc_prof_dist_add(ngcc_prof_dist *d, unsigned long long calls) {
    size_t lo = 0, hi = d->nbins;
    if (d->ops == 0 || calls < d->min) {
        d->min = calls;
    }
    if (d->ops == 0 || calls > d->max) {
        d->max = calls;
    }
    d->ops++;
    d->sum += calls;
    if (d->lost) {
        return;
    }
    if (d->hint < d->nbins && d->bins[d->hint].calls == calls) {
        d->bins[d->hint].ops++;
        return;
    }
    while (lo < hi) { /* first bin with bins[].calls >= calls */
        size_t mid = lo + (hi - lo) / 2;
        if (d->bins[mid].calls < calls) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if (lo < d->nbins && d->bins[lo].calls == calls) {
        d->bins[lo].ops++;
        d->hint = lo;
        return;
    }
    if (d->nbins == d->cap) {
        size_t cap = d->cap ? 2 * d->cap : 16;
        ngcc_prof_bin *b = realloc(d->bins, cap * sizeof *b);
        if (b == NULL) {
            d->lost = 1;
            return;
        }
        d->bins = b;
        d->cap = cap;
    }
    memmove(d->bins + lo + 1, d->bins + lo, (d->nbins - lo) * sizeof *d->bins);
    d->bins[lo].calls = calls;
    d->bins[lo].ops = 1;
    d->nbins++;
    d->hint = lo;
}

/* The value of rank r (0-based) among the operations, in increasing calls. */
static unsigned long long ngcc_prof_dist_rank(const ngcc_prof_dist *d, unsigned long long r) {
    size_t i;
    for (i = 0; i < d->nbins; i++) {
        if (r < d->bins[i].ops) {
            return d->bins[i].calls;
        }
        r -= d->bins[i].ops;
    }
    return d->max;
}

void ngcc_prof_op_end(void) {
    unsigned i;
    unsigned ns = ngcc_prof_nsymbols < NGCC_PROF_MAX ? ngcc_prof_nsymbols : NGCC_PROF_MAX;
    for (i = 0; i < ns; i++) {
        ngcc_prof_dist *d = &ngcc_prof_dists[i];
        unsigned long long now = ngcc_prof_symbols[i].outer;
        ngcc_prof_dist_add(d, now - d->last);
        d->last = now;
    }
}

const char *ngcc_prof_clock(void) {
#if defined(__x86_64__)
    return "rdtsc";
#elif defined(__aarch64__)
    return "cntvct";
#else
    return "clock_gettime";
#endif
}

void ngcc_prof_reset(void) {
    unsigned i;
    for (i = 0; i < ngcc_prof_ngroups; i++) {
        ngcc_prof_groups[i].ticks = 0;
        ngcc_prof_groups[i].outer = 0;
    }
    for (i = 0; i < ngcc_prof_nsymbols; i++) {
        ngcc_prof_symbols[i].outer = 0;
        ngcc_prof_symbols[i].nested = 0;
        ngcc_prof_symbols[i].ticks = 0;
    }
    for (i = 0; i < NGCC_PROF_MAX; i++) {
        free(ngcc_prof_dists[i].bins);
        memset(&ngcc_prof_dists[i], 0, sizeof ngcc_prof_dists[i]);
    }
    ngcc_prof_total = 0;
    ngcc_prof_is_frozen = 0;
}

void ngcc_prof_trial_begin(void) {
    ngcc_prof_t0 = ngcc_prof_now();
}

void ngcc_prof_trial_end(void) {
    ngcc_prof_total += ngcc_prof_now() - ngcc_prof_t0;
}

void ngcc_prof_freeze(void) {
    unsigned ng = ngcc_prof_ngroups < NGCC_PROF_MAX ? ngcc_prof_ngroups : NGCC_PROF_MAX;
    unsigned ns = ngcc_prof_nsymbols < NGCC_PROF_MAX ? ngcc_prof_nsymbols : NGCC_PROF_MAX;
    memcpy(ngcc_prof_fgroups, ngcc_prof_groups, ng * sizeof ngcc_prof_groups[0]);
    memcpy(ngcc_prof_fsymbols, ngcc_prof_symbols, ns * sizeof ngcc_prof_symbols[0]);
    ngcc_prof_frozen_total = ngcc_prof_total;
    ngcc_prof_is_frozen = 1;
}

/* ,"perOperation":{...} of one symbol; nothing when no operation ended, null when a histogram was lost. */
static void ngcc_prof_dist_json(FILE *out, const ngcc_prof_dist *d) {
    unsigned long long a, b;
    size_t i;
    if (d->ops == 0) {
        return;
    }
    if (d->lost) {
        fputs(",\"perOperation\":null", out);
        return;
    }
    a = ngcc_prof_dist_rank(d, (d->ops - 1) / 2);
    b = ngcc_prof_dist_rank(d, d->ops / 2);
    fprintf(out, ",\"perOperation\":{\"operations\":%llu,\"min\":%llu,\"max\":%llu,\"median\":%llu%s,\"sum\":%llu,"
            "\"distinct\":%lu",
            d->ops, d->min, d->max, a / 2 + b / 2 + (a % 2 + b % 2) / 2, (a % 2 + b % 2) == 1 ? ".5" : "", d->sum,
            (unsigned long)d->nbins);
    if (d->nbins <= NGCC_PROF_HIST_PRINT) {
        fputs(",\"histogram\":[", out);
        for (i = 0; i < d->nbins; i++) {
            fprintf(out, "%s[%llu,%llu]", i > 0 ? "," : "", d->bins[i].calls, d->bins[i].ops);
        }
        fputc(']', out);
    }
    fputc('}', out);
}

void ngcc_prof_json(FILE *out) {
    unsigned i;
    const ngcc_prof_group *g = ngcc_prof_is_frozen ? ngcc_prof_fgroups : ngcc_prof_groups;
    const ngcc_prof_symbol *s = ngcc_prof_is_frozen ? ngcc_prof_fsymbols : ngcc_prof_symbols;
    unsigned ng = ngcc_prof_ngroups < NGCC_PROF_MAX ? ngcc_prof_ngroups : NGCC_PROF_MAX;
    unsigned ns = ngcc_prof_nsymbols < NGCC_PROF_MAX ? ngcc_prof_nsymbols : NGCC_PROF_MAX;
    /* Names are C identifiers (checked by the generator): no JSON escaping needed. */
    fprintf(out, "{\"clock\":\"%s\",\"totalTicks\":%llu,\"groups\":[", ngcc_prof_clock(),
            (unsigned long long)(ngcc_prof_is_frozen ? ngcc_prof_frozen_total : ngcc_prof_total));
    for (i = 0; i < ng; i++) {
        fprintf(out, "%s{\"name\":\"%s\",\"ticks\":%llu,\"outer\":%llu}", i > 0 ? "," : "", g[i].name,
                (unsigned long long)g[i].ticks, g[i].outer);
    }
    fputs("],\"symbols\":[", out);
    for (i = 0; i < ns; i++) {
        fprintf(out, "%s{\"name\":\"%s\",\"group\":\"%s\",\"outer\":%llu,\"nested\":%llu,\"ticks\":%llu",
                i > 0 ? "," : "", s[i].name, s[i].group < ng ? g[s[i].group].name : "", s[i].outer, s[i].nested,
                (unsigned long long)s[i].ticks);
        ngcc_prof_dist_json(out, &ngcc_prof_dists[i]);
        fputc('}', out);
    }
    fputs("]}", out);
}
