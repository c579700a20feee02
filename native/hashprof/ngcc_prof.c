/*
 * ngcc_prof.c -- counters and report of ngcc-perf's link-time wrappers (see ngcc_prof.h).
 */
#include "ngcc_prof.h"

#include <string.h>

static uint64_t ngcc_prof_total, ngcc_prof_t0;
static uint64_t ngcc_prof_frozen_total;
static int ngcc_prof_is_frozen;

/* Frozen copies, sized by the generated table. */
#define NGCC_PROF_MAX 256
static ngcc_prof_group ngcc_prof_fgroups[NGCC_PROF_MAX];
static ngcc_prof_symbol ngcc_prof_fsymbols[NGCC_PROF_MAX];

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
        fprintf(out, "%s{\"name\":\"%s\",\"group\":\"%s\",\"outer\":%llu,\"nested\":%llu,\"ticks\":%llu}",
                i > 0 ? "," : "", s[i].name, s[i].group < ng ? g[s[i].group].name : "", s[i].outer, s[i].nested,
                (unsigned long long)s[i].ticks);
    }
    fputs("]}", out);
}
