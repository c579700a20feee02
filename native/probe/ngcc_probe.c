/*
 * ngcc_probe.c -- reports the counters this machine offers, without any instance.
 *
 *   ngcc-probe [--counter KIND] [--fixed-clock-hz HZ]
 *
 * prints one JSON document: {"available":[...], "default":"...", "counter":{kind, unit, rateHz,
 * overhead, serialization, description}} for KIND (default: the architecture's default counter).
 * Built by the runner from this file and native/driver/ngcc_counter.c (for `ngcc-perf env`).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ngcc_counter.h"
#include "ngcc_driver.h"

void ngcc_die(int code, const char *fmt, ...) {
    va_list ap;
    fputs("ngcc-probe: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(code);
}

static void ngcc_probe_json_string(const char *s) {
    putchar('"');
    for (; s && *s; s++) {
        if (*s == '"' || *s == '\\') {
            putchar('\\');
            putchar(*s);
        } else if ((unsigned char)*s < 0x20) {
            printf("\\u%04x", (unsigned)(unsigned char)*s);
        } else {
            putchar(*s);
        }
    }
    putchar('"');
}

int main(int argc, char **argv) {
    ngcc_counter_kind kind = ngcc_counter_default();
    double fixed_hz = 0.0;
    ngcc_counter c;
    int i, first = 1;
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--counter") == 0 && i + 1 < argc) {
            if (ngcc_counter_parse(argv[++i], &kind) != 0) ngcc_die(NGCC_EXIT_USAGE, "unknown counter %s", argv[i]);
        } else if (strcmp(argv[i], "--fixed-clock-hz") == 0 && i + 1 < argc) {
            fixed_hz = strtod(argv[++i], NULL);
        } else {
            ngcc_die(NGCC_EXIT_USAGE, "usage: ngcc-probe [--counter KIND] [--fixed-clock-hz HZ]");
        }
    }
    ngcc_counter_open(&c, kind, fixed_hz); /* exits 2 with a message before anything is printed */
    printf("{\"available\":[");
    for (i = 0; i < (int)NGCC_COUNTER_KINDS; i++) {
        if (i == (int)NGCC_COUNTER_FIXED_CLOCK || !ngcc_counter_usable((ngcc_counter_kind)i)) continue;
        printf("%s", first ? "" : ",");
        ngcc_probe_json_string(ngcc_counter_name((ngcc_counter_kind)i));
        first = 0;
    }
    printf("],\"default\":");
    ngcc_probe_json_string(ngcc_counter_name(ngcc_counter_default()));
    printf(",\"counter\":{\"kind\":");
    ngcc_probe_json_string(c.name);
    printf(",\"unit\":");
    ngcc_probe_json_string(c.unit);
    printf(",\"rateHz\":%.17g,\"overhead\":%.17g,\"serialization\":", c.rate_hz, c.overhead);
    ngcc_probe_json_string(c.serialization);
    printf(",\"description\":");
    ngcc_probe_json_string(c.description);
    printf("}}\n");
    return 0;
}
