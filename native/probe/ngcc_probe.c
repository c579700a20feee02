/*
 * ngcc_probe.c -- reports the counters this machine offers, without any instance.
 *
 *   ngcc-probe [--counter KIND] [--fixed-clock-hz HZ] [--contention ROUNDS]
 *
 * prints one JSON document: {"available":[...], "default":"...", "counter":{kind, unit, rateHz,
 * overhead, serialization, description}} for KIND (default: the architecture's default counter).
 * --contention ROUNDS (1-10000) adds "contention":{"adds", "throughputAdds", "chains", "clockDeltas":[...],
 * "throughputDeltas":[...]}: ROUNDS pairs of the driver's core-clock probe and contention probe
 * (ngcc_clock_chain, ngcc_throughput_chain, NGCC_CLOCK_CHAIN_DEFAULT adds), 5 ms apart, so that they
 * spread over ROUNDS x 5 ms; with a counter that has no chain, "contention" is null.
 * Built by the runner from this file, native/driver/ngcc_counter.c and native/common/ngcc_common.c (for
 * `ngcc-perf env`).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ngcc_counter.h"
#include "ngcc_driver.h"

const char ngcc_program[] = "ngcc-probe";

/* ROUNDS pairs of the two chains, 5 ms apart, printed as ,"contention":{...} (or null without a chain). */
static void ngcc_probe_contention(const ngcc_counter *c, long rounds) {
    static double lat[10000], thr[10000];
    const struct timespec gap = {0, 5000000L};
    unsigned long adds = NGCC_CLOCK_CHAIN_DEFAULT;
    long r;
    if (!ngcc_clock_chain_supported(c)) {
        printf(",\"contention\":null");
        return;
    }
    (void)ngcc_clock_chain(c, adds); /* warm */
    (void)ngcc_throughput_chain(c, adds);
    for (r = 0; r < rounds; r++) {
        lat[r] = ngcc_clock_chain(c, adds);
        thr[r] = ngcc_throughput_chain(c, adds);
        nanosleep(&gap, NULL);
    }
    printf(",\"contention\":{\"adds\":%lu,\"throughputAdds\":%lu,\"chains\":%u,\"clockDeltas\":[", adds - adds % 8,
           ngcc_throughput_adds(adds), NGCC_THROUGHPUT_CHAINS);
    for (r = 0; r < rounds; r++) {
        printf("%s%.0f", r > 0 ? "," : "", lat[r]);
    }
    printf("],\"throughputDeltas\":[");
    for (r = 0; r < rounds; r++) {
        printf("%s%.0f", r > 0 ? "," : "", thr[r]);
    }
    printf("]}");
}

int main(int argc, char **argv) {
    ngcc_counter_kind kind = ngcc_counter_default();
    double fixed_hz = 0.0;
    ngcc_counter c;
    int i, first = 1;
    long rounds = 0;
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--counter") == 0 && i + 1 < argc) {
            if (ngcc_counter_parse(argv[++i], &kind) != 0) ngcc_die(NGCC_EXIT_USAGE, "unknown counter %s", argv[i]);
        } else if (strcmp(argv[i], "--fixed-clock-hz") == 0 && i + 1 < argc) {
            fixed_hz = strtod(argv[++i], NULL);
        } else if (strcmp(argv[i], "--contention") == 0 && i + 1 < argc) {
            char *end;
            rounds = strtol(argv[++i], &end, 10);
            if (*end != '\0' || rounds < 1 || rounds > 10000) {
                ngcc_die(NGCC_EXIT_USAGE, "--contention: expected an integer in [1, 10000], got \"%s\"", argv[i]);
            }
        } else {
            ngcc_die(NGCC_EXIT_USAGE, "usage: ngcc-probe [--counter KIND] [--fixed-clock-hz HZ] [--contention ROUNDS]");
        }
    }
    ngcc_counter_open(&c, kind, fixed_hz); /* exits 2 with a message before anything is printed */
    printf("{\"available\":[");
    for (i = 0; i < (int)NGCC_COUNTER_KINDS; i++) {
        if (i == (int)NGCC_COUNTER_FIXED_CLOCK || !ngcc_counter_usable((ngcc_counter_kind)i)) continue;
        printf("%s", first ? "" : ",");
        ngcc_json_string(stdout, ngcc_counter_name((ngcc_counter_kind)i));
        first = 0;
    }
    printf("],\"default\":");
    ngcc_json_string(stdout, ngcc_counter_name(ngcc_counter_default()));
    printf(",\"counter\":{\"kind\":");
    ngcc_json_string(stdout, c.name);
    printf(",\"unit\":");
    ngcc_json_string(stdout, c.unit);
    printf(",\"rateHz\":%.17g,\"overhead\":%.17g,\"serialization\":", c.rate_hz, c.overhead);
    ngcc_json_string(stdout, c.serialization);
    printf(",\"description\":");
    ngcc_json_string(stdout, c.description);
    putchar('}');
    if (rounds > 0) {
        ngcc_probe_contention(&c, rounds);
    }
    printf("}\n");
    return 0;
}
