/*
 * ngcc_driver.c -- ngcc-perf's native timing driver: command line and JSON.
 *
 *   ngcc-driver info
 *   ngcc-driver check    [--iterations N] [--msg-bytes B] [--seed S]
 *   ngcc-driver time     --op OP [--counter KIND] [--trials T] [--min-iterations N]
 *                        [--max-iterations N] [--target-ns NS] [--warmup-ns NS]
 *                        [--msg-bytes B] [--pin CPU] [--fixed-clock-hz HZ] [--seed S]
 *   ngcc-driver sample   --op OP [--counter KIND] [--fixed-clock-hz HZ] [--pin CPU] [--sample-ns NS]
 *                        [--min-samples M] [--max-samples X] [--batch N|auto] [--warmup-ns NS]
 *                        [--keys K] [--pool P] [--msg-bytes B] [--seed S] [--clock-chain ADDS|none]
 *   ngcc-driver memory   --op OP [--msg-bytes B] [--seed S] [--measure rss|highwater|all]
 *                        [--inputs N] [--time-limit-ns NS]
 *   ngcc-driver overhead [--counter KIND] [--fixed-clock-hz HZ] [--pin CPU]
 *
 * One JSON document on stdout, diagnostics on stderr; exit codes in
 * ngcc_driver.h.  The protocol is described in native/README.md.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif

#include "ngcc_driver.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ngcc_buf.h"
#include "ngcc_counter.h"
#include "ngcc_hw.h"
#include "ngcc_mem.h"
#include "ngcc_ops.h"

/*
 * -DNGCC_PROFILE: the profiling build of @ngcc-perf/hashprof (native/hashprof/ngcc_prof.h on the
 * include path, the instance linked with its link-time wrappers).  `time` then also reports what the
 * wrappers counted during the trials.  The timing build never defines it: no profiling code in it.
 */
#if defined(NGCC_PROFILE)
#include "ngcc_prof.h"
#endif

/* -DNGCC_NAMESPACE=PQCLEAN_MLKEM512_CLEAN_ as a string, or NULL. */
#define NGCC_DRIVER_STR_(x) #x
#define NGCC_DRIVER_STR(x) NGCC_DRIVER_STR_(x)
#if defined(NGCC_NAMESPACE)
#define NGCC_DRIVER_NAMESPACE NGCC_DRIVER_STR(NGCC_NAMESPACE)
#else
#define NGCC_DRIVER_NAMESPACE NULL
#endif

const char ngcc_program[] = "ngcc-driver";

/* ------------------------------------------------------------------- JSON */

/*
 * The output channel.  The JSON document goes to a private copy of the original stdout, claimed by
 * ngcc_claim_output before any code of the instance runs: the claim is an entry of .preinit_array, which the
 * dynamic linker (or a static executable's start-up code) runs before every constructor of .init_array, whatever
 * its priority, and the driver's objects come first on the link line, so no preinit entry of the instance runs
 * earlier either.  File descriptor 1 is then pointed at stderr: an implementation that prints (some reference
 * code does), or a constructor that puts a pipe in place of stdout, cannot corrupt or intercept the document.
 * The document is composed in memory and written in one piece by ngcc_emit, after checking that the private
 * descriptor still names the file it was claimed from (another file put in its place is refused, exit 2).
 */
static int ngcc_out_fd = -1;
static int ngcc_claim_errno;
static dev_t ngcc_out_dev;
static ino_t ngcc_out_ino;
static FILE *ngcc_out;
static char *ngcc_out_text;
static size_t ngcc_out_len;

static void ngcc_claim_output(int argc, char **argv, char **envp) {
    struct stat st;
    int fd;
    (void)argc;
    (void)argv;
    (void)envp;
    if (ngcc_out_fd >= 0 || ngcc_claim_errno != 0) {
        return;
    }
    fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
    if (fd < 0 || fstat(fd, &st) != 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
        ngcc_claim_errno = errno != 0 ? errno : EBADF;
        if (fd >= 0) {
            close(fd);
        }
        return;
    }
    ngcc_out_dev = st.st_dev;
    ngcc_out_ino = st.st_ino;
    ngcc_out_fd = fd;
}

/* Run before any constructor (see above); the constructor of the highest priority is a second chance only. */
__attribute__((used, section(".preinit_array"))) static void (*ngcc_claim_entry)(int, char **, char **) =
    ngcc_claim_output;

__attribute__((constructor(101))) static void ngcc_claim_fallback(void) {
    ngcc_claim_output(0, NULL, NULL);
}

/* Writes text to the claimed channel, after checking that it is still the file it was claimed from. */
static void ngcc_emit(const char *text, size_t len) {
    struct stat st;
    if (ngcc_out_fd < 0) {
        ngcc_die(NGCC_EXIT_USAGE, "cannot set up stdout: errno %d (%s)", ngcc_claim_errno, strerror(ngcc_claim_errno));
    }
    if (fstat(ngcc_out_fd, &st) != 0 || st.st_dev != ngcc_out_dev || st.st_ino != ngcc_out_ino) {
        ngcc_die(NGCC_EXIT_USAGE,
                 "the output channel (descriptor %d, claimed before any constructor ran) no longer names the file it "
                 "was claimed from: something in the process put another file in its place; nothing is written",
                 ngcc_out_fd);
    }
    while (len > 0) {
        ssize_t n = write(ngcc_out_fd, text, len);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            ngcc_die(NGCC_EXIT_USAGE, "writing to stdout failed: errno %d (%s)", errno, strerror(errno));
        }
        text += n;
        len -= (size_t)n;
    }
}

static void ngcc_putc(int ch) {
    fputc(ch, ngcc_out);
}


static void ngcc_json_counter(const ngcc_counter *c) {
    fputs("{\"kind\":", ngcc_out);
    ngcc_json_string(ngcc_out, c->name);
    fputs(",\"unit\":", ngcc_out);
    ngcc_json_string(ngcc_out, c->unit);
    fputs(",\"rateHz\":", ngcc_out);
    ngcc_json_number(ngcc_out, c->rate_hz);
    fputs(",\"overhead\":", ngcc_out);
    ngcc_json_number(ngcc_out, c->overhead);
    fputs(",\"serialization\":", ngcc_out);
    ngcc_json_string(ngcc_out, c->serialization);
    fputs(",\"description\":", ngcc_out);
    ngcc_json_string(ngcc_out, c->description);
    ngcc_putc('}');
}

static void ngcc_json_lengths(void) {
    const ngcc_length_stats *s = ngcc_ops_signature_lengths();
    fputs("{", ngcc_out);
    if (s != NULL) {
        fprintf(ngcc_out, "\"signatureBytes\":{\"min\":%llu,\"max\":%llu,\"sum\":%llu,\"count\":%llu}", s->min,
                s->max, s->sum, s->count);
    }
    fputs("}", ngcc_out);
}

/* Ends the document composed in memory and writes it to the claimed channel in one piece. */
static void ngcc_json_end(void) {
    ngcc_putc('\n');
    if (fflush(ngcc_out) != 0 || ferror(ngcc_out)) {
        ngcc_die(NGCC_EXIT_USAGE, "composing the output failed (out of memory)");
    }
    ngcc_emit(ngcc_out_text, ngcc_out_len);
    fclose(ngcc_out);
    free(ngcc_out_text);
    ngcc_out_text = NULL;
    ngcc_out_len = 0;
    ngcc_out = NULL;
}

/* ---------------------------------------------------------- command line */

enum { CMD_INFO = 1, CMD_CHECK = 2, CMD_TIME = 4, CMD_MEMORY = 8, CMD_OVERHEAD = 16, CMD_SAMPLE = 32 };

/* sample: at most this many samples (the array is allocated once, before the warm-up). */
#define NGCC_SAMPLES_CAP 10000000ull
#define NGCC_KEYS_CAP 4096ull
#define NGCC_POOL_CAP 65536ull
#define NGCC_BATCH_CAP 1000000000ull

typedef struct {
    int command;
    const char *op;
    const char *counter;
    unsigned long long iterations, trials, min_iterations, max_iterations, target_ns, warmup_ns, msg_bytes, seed;
    unsigned long long sample_ns, min_samples, max_samples, batch, keys, pool; /* sample; batch 0 = auto */
    long long clock_chain; /* sample: adds of the core-clock probe after each sample; -1 = default, 0 = none */
    long pin;
    double fixed_hz;
    int measure; /* memory: NGCC_MEASURE_RSS | NGCC_MEASURE_HW */
    unsigned long long inputs, time_limit_ns; /* memory: inputs of the high-water run; 0 = no time limit */
} ngcc_opts;

/* What the memory command measures (--measure): the RSS proxies, the stack and heap high-water, or both. */
#define NGCC_MEASURE_RSS 1
#define NGCC_MEASURE_HW 2

static const char ngcc_usage[] =
    "usage: ngcc-driver info\n"
    "       ngcc-driver check    [--iterations N] [--msg-bytes B] [--seed S]\n"
    "       ngcc-driver time     --op OP [--counter KIND] [--trials 5] [--min-iterations 20]\n"
    "                            [--max-iterations 1000000] [--target-ns 100000000] [--warmup-ns 50000000]\n"
    "                            [--msg-bytes 32] [--pin CPU] [--fixed-clock-hz HZ] [--seed S]\n"
    "       ngcc-driver sample   --op OP [--counter KIND] [--fixed-clock-hz HZ] [--pin CPU] [--sample-ns 100000000]\n"
    "                            [--min-samples 31] [--max-samples 50000] [--batch N|auto] [--warmup-ns 20000000]\n"
    "                            [--keys 4] [--pool 64] [--msg-bytes 32] [--seed S] [--clock-chain 16384|none]\n"
    "       ngcc-driver memory   --op OP [--msg-bytes B] [--seed S] [--measure rss|highwater|all]\n"
    "                            [--inputs 1] [--time-limit-ns 0]\n"
    "       ngcc-driver overhead [--counter KIND] [--fixed-clock-hz HZ] [--pin CPU]\n"
    "counters: rdtsc (x86-64), perf-cycles, perf-instructions, cntvct (aarch64), clock_gettime, fixed-clock (needs --fixed-clock-hz)\n";

static void ngcc_parse(int argc, char **argv, ngcc_opts *o) {
    static const struct {
        const char *name;
        int commands;
    } table[] = {
        {"--iterations", CMD_CHECK},
        {"--msg-bytes", CMD_CHECK | CMD_TIME | CMD_MEMORY | CMD_SAMPLE},
        {"--seed", CMD_CHECK | CMD_TIME | CMD_MEMORY | CMD_SAMPLE},
        {"--op", CMD_TIME | CMD_MEMORY | CMD_SAMPLE},
        {"--measure", CMD_MEMORY},
        {"--inputs", CMD_MEMORY},
        {"--time-limit-ns", CMD_MEMORY},
        {"--counter", CMD_TIME | CMD_OVERHEAD | CMD_SAMPLE},
        {"--trials", CMD_TIME},
        {"--min-iterations", CMD_TIME},
        {"--max-iterations", CMD_TIME},
        {"--target-ns", CMD_TIME},
        {"--warmup-ns", CMD_TIME | CMD_SAMPLE},
        {"--pin", CMD_TIME | CMD_OVERHEAD | CMD_SAMPLE},
        {"--fixed-clock-hz", CMD_TIME | CMD_OVERHEAD | CMD_SAMPLE},
        {"--sample-ns", CMD_SAMPLE},
        {"--min-samples", CMD_SAMPLE},
        {"--max-samples", CMD_SAMPLE},
        {"--batch", CMD_SAMPLE},
        {"--keys", CMD_SAMPLE},
        {"--pool", CMD_SAMPLE},
        {"--clock-chain", CMD_SAMPLE},
    };
    int i;
    memset(o, 0, sizeof *o);
    o->iterations = 10;
    o->trials = 5;
    o->min_iterations = 20;
    o->max_iterations = 1000000;
    o->target_ns = 100000000;
    o->warmup_ns = 50000000;
    o->msg_bytes = 32;
    o->seed = 1;
    o->sample_ns = 100000000;
    o->min_samples = 31;
    o->max_samples = 50000;
    o->batch = 0;
    o->keys = 4;
    o->pool = 64;
    o->clock_chain = -1;
    o->pin = -1;
    o->measure = NGCC_MEASURE_RSS | NGCC_MEASURE_HW;
    o->inputs = 1;
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        if (argc < 2) {
            fputs(ngcc_usage, stderr);
            exit(NGCC_EXIT_USAGE);
        }
        ngcc_emit(ngcc_usage, strlen(ngcc_usage));
        exit(0);
    }
    if (strcmp(argv[1], "info") == 0) {
        o->command = CMD_INFO;
    } else if (strcmp(argv[1], "check") == 0) {
        o->command = CMD_CHECK;
    } else if (strcmp(argv[1], "time") == 0) {
        o->command = CMD_TIME;
    } else if (strcmp(argv[1], "memory") == 0) {
        o->command = CMD_MEMORY;
    } else if (strcmp(argv[1], "overhead") == 0) {
        o->command = CMD_OVERHEAD;
    } else if (strcmp(argv[1], "sample") == 0) {
        o->command = CMD_SAMPLE;
        o->warmup_ns = 20000000;
    } else {
        fputs(ngcc_usage, stderr);
        ngcc_die(NGCC_EXIT_USAGE, "unknown command \"%s\"", argv[1]);
    }
    for (i = 2; i < argc; i += 2) {
        const char *name = argv[i], *value;
        size_t k, known = sizeof table / sizeof table[0];
        for (k = 0; k < known; k++) {
            if (strcmp(name, table[k].name) == 0) {
                break;
            }
        }
        if (k == known || (table[k].commands & o->command) == 0) {
            fputs(ngcc_usage, stderr);
            ngcc_die(NGCC_EXIT_USAGE, "%s: unknown option \"%s\"", argv[1], name);
        }
        value = ngcc_option_value(argc, argv, i);
        if (strcmp(name, "--op") == 0) {
            o->op = value;
        } else if (strcmp(name, "--measure") == 0) {
            if (strcmp(value, "rss") == 0) {
                o->measure = NGCC_MEASURE_RSS;
            } else if (strcmp(value, "highwater") == 0) {
                o->measure = NGCC_MEASURE_HW;
            } else if (strcmp(value, "all") == 0) {
                o->measure = NGCC_MEASURE_RSS | NGCC_MEASURE_HW;
            } else {
                ngcc_die(NGCC_EXIT_USAGE, "--measure: expected rss, highwater or all, got \"%s\"", value);
            }
        } else if (strcmp(name, "--inputs") == 0) {
            o->inputs = ngcc_parse_u64(name, value, 1, NGCC_HW_KAT_INPUTS);
        } else if (strcmp(name, "--time-limit-ns") == 0) {
            o->time_limit_ns = ngcc_parse_u64(name, value, 0, ULLONG_MAX);
        } else if (strcmp(name, "--counter") == 0) {
            o->counter = value;
        } else if (strcmp(name, "--iterations") == 0) {
            o->iterations = ngcc_parse_u64(name, value, 0, ULLONG_MAX);
        } else if (strcmp(name, "--msg-bytes") == 0) {
            o->msg_bytes = ngcc_parse_u64(name, value, 0, ULLONG_MAX);
        } else if (strcmp(name, "--seed") == 0) {
            o->seed = ngcc_parse_u64(name, value, 0, ULLONG_MAX);
        } else if (strcmp(name, "--trials") == 0) {
            o->trials = ngcc_parse_u64(name, value, 0, ULLONG_MAX);
        } else if (strcmp(name, "--min-iterations") == 0) {
            o->min_iterations = ngcc_parse_u64(name, value, 0, ULLONG_MAX);
        } else if (strcmp(name, "--max-iterations") == 0) {
            o->max_iterations = ngcc_parse_u64(name, value, 0, ULLONG_MAX);
        } else if (strcmp(name, "--target-ns") == 0) {
            o->target_ns = ngcc_parse_u64(name, value, 0, ULLONG_MAX);
        } else if (strcmp(name, "--warmup-ns") == 0) {
            o->warmup_ns = ngcc_parse_u64(name, value, 0, ULLONG_MAX);
        } else if (strcmp(name, "--sample-ns") == 0) {
            o->sample_ns = ngcc_parse_u64(name, value, 0, ULLONG_MAX);
        } else if (strcmp(name, "--min-samples") == 0) {
            o->min_samples = ngcc_parse_u64(name, value, 0, ULLONG_MAX);
        } else if (strcmp(name, "--max-samples") == 0) {
            o->max_samples = ngcc_parse_u64(name, value, 0, ULLONG_MAX);
        } else if (strcmp(name, "--clock-chain") == 0) {
            if (strcmp(value, "none") == 0) {
                o->clock_chain = 0;
            } else {
                unsigned long long adds = ngcc_parse_u64(name, value, 0, ULLONG_MAX);
                if (adds < 8 || adds > 100000000ull) {
                    ngcc_die(NGCC_EXIT_USAGE, "--clock-chain: expected none or an integer in [8, 100000000], got \"%s\"",
                             value);
                }
                o->clock_chain = (long long)adds;
            }
        } else if (strcmp(name, "--batch") == 0) {
            if (strcmp(value, "auto") == 0) {
                o->batch = 0;
            } else {
                o->batch = ngcc_parse_u64(name, value, 0, ULLONG_MAX);
                if (o->batch < 1 || o->batch > NGCC_BATCH_CAP) {
                    ngcc_die(NGCC_EXIT_USAGE, "--batch: expected auto or an integer in [1, %llu], got \"%s\"",
                             NGCC_BATCH_CAP, value);
                }
            }
        } else if (strcmp(name, "--keys") == 0) {
            o->keys = ngcc_parse_u64(name, value, 0, ULLONG_MAX);
        } else if (strcmp(name, "--pool") == 0) {
            o->pool = ngcc_parse_u64(name, value, 0, ULLONG_MAX);
        } else if (strcmp(name, "--pin") == 0) {
            unsigned long long cpu = ngcc_parse_u64(name, value, 0, ULLONG_MAX);
            if (cpu >= CPU_SETSIZE) {
                ngcc_die(NGCC_EXIT_USAGE, "--pin: CPU %llu out of range", cpu);
            }
            o->pin = (long)cpu;
        } else { /* --fixed-clock-hz */
            char *end;
            errno = 0;
            o->fixed_hz = strtod(value, &end);
            if (errno != 0 || *end != '\0' || !isfinite(o->fixed_hz) || !(o->fixed_hz > 0)) {
                ngcc_die(NGCC_EXIT_USAGE, "--fixed-clock-hz: expected a positive frequency in Hz, got \"%s\"", value);
            }
        }
    }
    if (o->command == CMD_CHECK && o->iterations < 1) {
        ngcc_die(NGCC_EXIT_USAGE, "--iterations must be at least 1");
    }
    if (o->command == CMD_TIME) {
        if (o->trials < 1 || o->trials > 100000) {
            ngcc_die(NGCC_EXIT_USAGE, "--trials must be in [1, 100000]");
        }
        if (o->min_iterations < 1 || o->max_iterations < o->min_iterations) {
            ngcc_die(NGCC_EXIT_USAGE, "need 1 <= --min-iterations <= --max-iterations");
        }
    }
    if (o->command == CMD_SAMPLE) {
        if (o->min_samples < 1 || o->max_samples < o->min_samples || o->max_samples > NGCC_SAMPLES_CAP) {
            ngcc_die(NGCC_EXIT_USAGE, "need 1 <= --min-samples <= --max-samples <= %llu", NGCC_SAMPLES_CAP);
        }
        if (o->keys < 1 || o->keys > NGCC_KEYS_CAP) {
            ngcc_die(NGCC_EXIT_USAGE, "--keys must be in [1, %llu]", NGCC_KEYS_CAP);
        }
        if (o->pool < 1 || o->pool > NGCC_POOL_CAP) {
            ngcc_die(NGCC_EXIT_USAGE, "--pool must be in [1, %llu]", NGCC_POOL_CAP);
        }
    }
    if ((o->command == CMD_TIME || o->command == CMD_MEMORY || o->command == CMD_SAMPLE) && o->op == NULL) {
        ngcc_die(NGCC_EXIT_USAGE, "%s needs --op", argv[1]);
    }
    if (o->msg_bytes > (1ull << 30)) {
        ngcc_die(NGCC_EXIT_USAGE, "--msg-bytes: at most 1 GiB");
    }
}

static const ngcc_op *ngcc_find_op(const char *name) {
    const ngcc_op *op;
    char names[256] = "";
    for (op = ngcc_ops; op->name != NULL; op++) {
        if (strcmp(op->name, name) == 0) {
            return op;
        }
    }
    for (op = ngcc_ops; op->name != NULL; op++) {
        strncat(names, op->name, sizeof names - strlen(names) - 2);
        if (op[1].name != NULL) {
            strcat(names, "|");
        }
    }
    ngcc_die(NGCC_EXIT_USAGE, "unknown --op \"%s\" for category %s (expected %s)", name, ngcc_category, names);
}

/* Open the counter named by --counter (default: this architecture's). */
static void ngcc_open_counter(const ngcc_opts *o, ngcc_counter *c) {
    ngcc_counter_kind kind = ngcc_counter_default();
    if (o->counter != NULL && ngcc_counter_parse(o->counter, &kind) != 0) {
        ngcc_die(NGCC_EXIT_USAGE, "unknown --counter \"%s\" (rdtsc, perf-cycles, perf-instructions, cntvct, clock_gettime, fixed-clock)",
                 o->counter);
    }
    if (o->fixed_hz > 0 && kind != NGCC_COUNTER_FIXED_CLOCK) {
        ngcc_die(NGCC_EXIT_USAGE, "--fixed-clock-hz applies only to --counter fixed-clock");
    }
    ngcc_counter_open(c, kind, o->fixed_hz);
}

static void ngcc_pin(const ngcc_opts *o) {
    cpu_set_t set;
    if (o->pin < 0) {
        return;
    }
    CPU_ZERO(&set);
    CPU_SET((int)o->pin, &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0) {
        ngcc_die(NGCC_EXIT_USAGE, "--pin %ld: sched_setaffinity failed: errno %d (%s)", o->pin, errno,
                 strerror(errno));
    }
}

/* --------------------------------------------------------------- commands */

static void ngcc_cmd_info(void) {
    size_t n, i;
    const ngcc_size *sizes = ngcc_ops_sizes(&n);
    int k, first = 1;
    fprintf(ngcc_out, "{\"category\":\"%s\",\"algname\":", ngcc_category);
    ngcc_json_string(ngcc_out, ngcc_ops_algname());
    fputs(",\"namespace\":", ngcc_out);
    ngcc_json_string(ngcc_out, NGCC_DRIVER_NAMESPACE);
    fputs(",\"sizes\":{", ngcc_out);
    for (i = 0; i < n; i++) {
        fprintf(ngcc_out, "%s\"%s\":%llu", i > 0 ? "," : "", sizes[i].key, sizes[i].value);
    }
    fputs("},\"counters\":[", ngcc_out);
    for (k = 0; k < NGCC_COUNTER_KINDS; k++) {
        if (ngcc_counter_usable((ngcc_counter_kind)k)) {
            fprintf(ngcc_out, "%s\"%s\"", first ? "" : ",", ngcc_counter_name((ngcc_counter_kind)k));
            first = 0;
        }
    }
    fprintf(ngcc_out, "],\"defaultCounter\":\"%s\"}", ngcc_counter_name(ngcc_counter_default()));
    ngcc_json_end();
}

static void ngcc_cmd_check(const ngcc_opts *o) {
    ngcc_ops_init((size_t)o->msg_bytes, o->seed);
    ngcc_ops_check(o->iterations);
    ngcc_buf_check_all("after check");
    fprintf(ngcc_out, "{\"ok\":true,\"iterations\":%llu,\"messageBytes\":%llu,\"lengths\":", o->iterations,
            o->msg_bytes);
    ngcc_json_lengths();
    ngcc_putc('}');
    ngcc_json_end();
}

static void ngcc_run_or_die(const ngcc_op *op, unsigned long long n, const char *when) {
    const char *err = op->run(n);
    if (err != NULL) {
        ngcc_die(NGCC_EXIT_RESULT, "time --op %s (%s): %s", op->name, when, err);
    }
}

typedef struct {
    unsigned long long iterations;
    double counter_delta;
    uint64_t ns;
} ngcc_trial;

static void ngcc_cmd_time(const ngcc_opts *o) {
    const ngcc_op *op = ngcc_find_op(o->op);
    ngcc_counter c;
    ngcc_trial *trials;
    unsigned long long batch = 1, warm_iterations = 0, per_trial, t;
#if defined(NGCC_PROFILE)
    unsigned long long k;
#endif
    uint64_t warm_ns = 0;
    double est_ns = -1, overhead_ns, need_target, need_overhead;
    const char *limited_by = "min-iterations";
    char when[64];

    ngcc_pin(o);
    ngcc_open_counter(o, &c);
    ngcc_ops_init((size_t)o->msg_bytes, o->seed);
    op->prepare();
    ngcc_buf_check_all("after preparing the inputs");

    /*
     * Warm-up: batches of 1, 2, 4, ... iterations until the warm-up has lasted
     * --warmup-ns and its last batch at least target/8 (or reached
     * --max-iterations).  The estimate of the time per iteration is the
     * smallest batch mean: interference on a shared machine only adds time.
     */
    for (;;) {
        uint64_t t0 = ngcc_clock_ns(), t1, batch_ns;
        ngcc_run_or_die(op, batch, "warm-up");
        t1 = ngcc_clock_ns();
        batch_ns = t1 - t0;
        warm_iterations += batch;
        warm_ns += batch_ns;
        if (est_ns < 0 || (double)batch_ns / (double)batch < est_ns) {
            est_ns = (double)batch_ns / (double)batch;
        }
        if (warm_ns >= o->warmup_ns && (batch_ns >= o->target_ns / 8 || batch >= o->max_iterations)) {
            break;
        }
        if (batch < o->max_iterations) {
            batch = batch > o->max_iterations / 2 ? o->max_iterations : 2 * batch;
        }
    }
    ngcc_buf_check_all("after the warm-up");

    /* Calibration: iterations so that a trial lasts target-ns and >= 1000 x the counter overhead. */
    if (est_ns < 0.01) {
        est_ns = 0.01;
    }
    overhead_ns = (c.overhead > 1.0 ? c.overhead : 1.0) * 1e9 / c.rate_hz;
    need_target = ceil((double)o->target_ns / est_ns);
    need_overhead = ceil(1000.0 * overhead_ns / est_ns);
    per_trial = o->min_iterations;
    if (need_target > (double)per_trial) {
        per_trial = need_target >= (double)o->max_iterations ? o->max_iterations : (unsigned long long)need_target;
        limited_by = "target-ns";
    }
    if (need_overhead > (double)per_trial) {
        per_trial = need_overhead >= (double)o->max_iterations ? o->max_iterations : (unsigned long long)need_overhead;
        limited_by = "counter-overhead";
    }
    if (per_trial >= o->max_iterations) {
        per_trial = o->max_iterations;
        if (need_target > (double)o->max_iterations || need_overhead > (double)o->max_iterations) {
            limited_by = "max-iterations";
        }
    }

    trials = calloc((size_t)o->trials, sizeof *trials);
    if (trials == NULL) {
        ngcc_die(NGCC_EXIT_USAGE, "out of memory");
    }
#if defined(NGCC_PROFILE)
    ngcc_prof_reset();
#endif
    for (t = 0; t < o->trials; t++) {
        uint64_t ns0, ns1, c0, c1;
        const char *err;
        ns0 = ngcc_clock_ns();
        c0 = ngcc_counter_start(&c);
#if defined(NGCC_PROFILE)
        /* One operation at a time (run(1) n times is run(n)), so that each one's calls are counted. */
        ngcc_prof_trial_begin();
        err = NULL;
        for (k = 0; k < per_trial && err == NULL; k++) {
            err = op->run(1);
            ngcc_prof_op_end();
        }
        ngcc_prof_trial_end();
#else
        err = op->run(per_trial);
#endif
        c1 = ngcc_counter_stop(&c);
        ns1 = ngcc_clock_ns();
        if (err != NULL) {
            ngcc_die(NGCC_EXIT_RESULT, "time --op %s (trial %llu): %s", op->name, t + 1, err);
        }
        sprintf(when, "after trial %llu", t + 1);
        ngcc_buf_check_all(when);
        trials[t].iterations = per_trial;
        trials[t].counter_delta = ngcc_counter_delta(&c, c0, c1);
        trials[t].ns = ns1 - ns0;
    }
#if defined(NGCC_PROFILE)
    ngcc_prof_freeze();
#endif
    /* A broken implementation must never be timed as fast: check the last results. */
    op->verify();
    ngcc_buf_check_all("after verifying the results");

    fprintf(ngcc_out, "{\"op\":\"%s\",\"counter\":", op->name);
    ngcc_json_counter(&c);
    fprintf(ngcc_out, ",\"warmupIterations\":%llu,\"iterationsPerTrial\":%llu", warm_iterations, per_trial);
    fprintf(ngcc_out,
            ",\"calibration\":{\"targetNs\":%llu,\"warmupNs\":%llu,\"minIterations\":%llu,\"maxIterations\":%llu,"
            "\"estimateNs\":",
            o->target_ns, o->warmup_ns, o->min_iterations, o->max_iterations);
    ngcc_json_number(ngcc_out, est_ns);
    fprintf(ngcc_out, ",\"limitedBy\":\"%s\"},\"trials\":[", limited_by);
    for (t = 0; t < o->trials; t++) {
        fprintf(ngcc_out, "%s{\"iterations\":%llu,\"counterDelta\":%.0f,\"ns\":%llu}", t > 0 ? "," : "",
                trials[t].iterations, trials[t].counter_delta, (unsigned long long)trials[t].ns);
    }
    ngcc_putc(']');
    if (ngcc_ops_signature_lengths() != NULL && strcmp(op->name, "sign") == 0) {
        fputs(",\"lengths\":", ngcc_out);
        ngcc_json_lengths();
    }
    fputs(",\"pinnedCpu\":", ngcc_out);
    if (o->pin >= 0) {
        fprintf(ngcc_out, "%ld", o->pin);
    } else {
        fputs("null", ngcc_out);
    }
    fprintf(ngcc_out, ",\"messageBytes\":%llu", o->msg_bytes);
#if defined(NGCC_PROFILE)
    fputs(",\"profile\":", ngcc_out);
    ngcc_prof_json(ngcc_out);
#endif
    ngcc_putc('}');
    ngcc_json_end();
    free(trials);
    if (c.perf_fd >= 0) {
        close(c.perf_fd);
    }
}

/* The sampled operation named by --op (the names of ngcc_ops, so an unknown name fails the same way). */
static const ngcc_sample_op *ngcc_find_sample_op(const char *name) {
    const ngcc_sample_op *op;
    for (op = ngcc_sample_ops; op->name != NULL; op++) {
        if (strcmp(op->name, name) == 0) {
            return op;
        }
    }
    (void)ngcc_find_op(name); /* exits 2 naming the operations */
    ngcc_die(NGCC_EXIT_USAGE, "internal error: --op %s has no sampled form", name);
}

/*
 * Runs n calls from call `first` in chunks of at most `slots` calls (any number when slots is 0), each chunk
 * staged outside the timed region; returns the CLOCK_MONOTONIC ns of the timed parts.
 */
static uint64_t ngcc_sample_warm(const ngcc_sample_op *op, unsigned long long first, unsigned long long n,
                                 size_t slots) {
    uint64_t ns = 0;
    while (n > 0) {
        size_t chunk = slots > 0 && n > slots ? slots : (size_t)n;
        uint64_t t0, t1;
        const char *err;
        if (op->stage != NULL) {
            op->stage(first, chunk);
        }
        t0 = ngcc_clock_ns();
        err = op->run(first, chunk);
        t1 = ngcc_clock_ns();
        if (err != NULL) {
            ngcc_die(NGCC_EXIT_RESULT, "sample --op %s (warm-up): %s", op->name, err);
        }
        ns += t1 - t0;
        first += chunk;
        n -= chunk;
    }
    return ns;
}

/*
 * The process's context switches so far (voluntary and involuntary), or -1 when getrusage fails: read before and
 * after each sample, outside the timed region, so that a sample during which the process lost its CPU (another
 * task ran: a preemption of milliseconds, which the sample's time then holds) is known.
 */
static long ngcc_switches(void) {
    struct rusage u;
    if (getrusage(RUSAGE_SELF, &u) != 0) {
        return -1;
    }
    return u.ru_nivcsw + u.ru_nvcsw;
}

static void ngcc_cmd_sample(const ngcc_opts *o) {
    const ngcc_sample_op *op = ngcc_find_sample_op(o->op);
    ngcc_counter c;
    ngcc_sample_inputs inputs;
    uint64_t *samples, warm_ns = 0, t0, t1;
    unsigned char *switched;
    unsigned long long n_switched = 0;
    double *chain = NULL, *thr = NULL;
    unsigned long chain_adds = 0;
    unsigned long long call = 0, last = 0, warm_calls = 0, batch = 1, n, s;
    double est_ns = -1, overhead_ns, need;
    size_t slots;
    char reason[256];
    const char *limited_by = "sample-ns";

    ngcc_pin(o);
    ngcc_open_counter(o, &c);
    ngcc_ops_init((size_t)o->msg_bytes, o->seed);
    /* The sample array, once, for --max-samples; written now so that no page is first touched while sampling. */
    samples = malloc((size_t)o->max_samples * sizeof *samples);
    if (samples == NULL) {
        ngcc_die(NGCC_EXIT_USAGE, "out of memory allocating %llu samples", o->max_samples);
    }
    memset(samples, 0, (size_t)o->max_samples * sizeof *samples);
    switched = malloc((size_t)o->max_samples);
    if (switched == NULL) {
        ngcc_die(NGCC_EXIT_USAGE, "out of memory allocating %llu sample flags", o->max_samples);
    }
    memset(switched, 0, (size_t)o->max_samples);
    /* The core-clock probe after each sample: on by default where the counter runs at a reference rate. */
    if (o->clock_chain != 0 && ngcc_clock_chain_supported(&c)) {
        chain_adds = o->clock_chain > 0 ? (unsigned long)o->clock_chain : NGCC_CLOCK_CHAIN_DEFAULT;
        chain = malloc((size_t)o->max_samples * sizeof *chain);
        if (chain == NULL) {
            ngcc_die(NGCC_EXIT_USAGE, "out of memory allocating %llu clock probes", o->max_samples);
        }
        memset(chain, 0, (size_t)o->max_samples * sizeof *chain);
        /* The contention probe goes with it (ngcc_throughput_chain). */
        thr = malloc((size_t)o->max_samples * sizeof *thr);
        if (thr == NULL) {
            ngcc_die(NGCC_EXIT_USAGE, "out of memory allocating %llu contention probes", o->max_samples);
        }
        memset(thr, 0, (size_t)o->max_samples * sizeof *thr);
        (void)ngcc_clock_chain(&c, chain_adds); /* warm */
        (void)ngcc_throughput_chain(&c, chain_adds);
    } else if (o->clock_chain > 0) {
        ngcc_die(NGCC_EXIT_USAGE, "--clock-chain: not available with the %s counter on this architecture", c.name);
    }
    memset(&inputs, 0, sizeof inputs);
    slots = op->prepare((size_t)o->keys, (size_t)o->pool, &inputs);
    ngcc_buf_check_all("after preparing the inputs");

    /*
     * Warm-up: batches of 1, 2, 4, ... calls until the warm-up has lasted --warmup-ns and its last batch at
     * least an eighth of that.  The estimate of a call is the smallest batch mean (interference only adds time).
     */
    for (;;) {
        uint64_t batch_ns = ngcc_sample_warm(op, call, batch, slots);
        call += batch;
        warm_calls += batch;
        warm_ns += batch_ns;
        if (est_ns < 0 || (double)batch_ns / (double)batch < est_ns) {
            est_ns = (double)batch_ns / (double)batch;
        }
        if ((warm_ns >= o->warmup_ns && batch_ns >= o->warmup_ns / 8) || batch >= NGCC_BATCH_CAP) {
            break;
        }
        batch *= 2;
    }
    ngcc_buf_check_all("after the warm-up");
    if (est_ns < 0.01) {
        est_ns = 0.01;
    }

    /* The batch: single calls unless a call is shorter than 1000 x the counter overhead (floored at one tick). */
    overhead_ns = (c.overhead > 1.0 ? c.overhead : 1.0) * 1e9 / c.rate_hz;
    if (o->batch > 0) {
        batch = o->batch;
        snprintf(reason, sizeof reason, "%s%llu call%s per sample, as --batch asked", batch == 1 ? "single calls: " : "",
                 batch, batch == 1 ? "" : "s");
    } else if (est_ns >= 1000.0 * overhead_ns) {
        batch = 1;
        snprintf(reason, sizeof reason, "single calls: a call (about %.*f ns) is ≥ 1000 × the counter overhead (%.1f ns)",
                 est_ns >= 100 ? 0 : 1, est_ns, overhead_ns);
    } else {
        need = ceil(1000.0 * overhead_ns / est_ns);
        batch = need >= (double)NGCC_BATCH_CAP ? NGCC_BATCH_CAP : (unsigned long long)need;
        snprintf(reason, sizeof reason,
                 "batches of %llu: a call (about %.*f ns) is shorter than 1000 × the counter overhead (%.1f ns), "
                 "so a sample of %llu calls lasts at least that",
                 batch, est_ns >= 100 ? 0 : 1, est_ns, overhead_ns, batch);
    }
    if (slots > 0 && batch > slots) {
        slots = op->reserve((size_t)batch);
    }

    /* Samples: enough to last --sample-ns, within [--min-samples, --max-samples]. */
    need = ceil((double)o->sample_ns / (est_ns * (double)batch));
    n = o->min_samples;
    if (need > (double)n) {
        n = need >= (double)o->max_samples ? o->max_samples : (unsigned long long)need;
    } else {
        limited_by = "min-samples";
    }
    if (need > (double)o->max_samples) {
        limited_by = "max-samples";
    }

    t0 = ngcc_clock_ns();
    for (s = 0; s < n; s++) {
        uint64_t c0, c1;
        long sw0, sw1;
        const char *err;
        if (op->stage != NULL) {
            op->stage(call, (size_t)batch);
        }
        sw0 = ngcc_switches();
        c0 = ngcc_counter_start(&c);
        err = op->run(call, (size_t)batch);
        c1 = ngcc_counter_stop(&c);
        sw1 = ngcc_switches();
        if (NGCC_UNLIKELY(err != NULL)) {
            ngcc_die(NGCC_EXIT_RESULT, "sample --op %s (sample %llu): %s", op->name, s + 1, err);
        }
        samples[s] = c1 - c0;
        if (sw0 >= 0 && sw1 != sw0) {
            switched[s] = 1;
            n_switched++;
        }
        if (chain != NULL) {
            chain[s] = ngcc_clock_chain(&c, chain_adds);
            thr[s] = ngcc_throughput_chain(&c, chain_adds);
        }
        last = call + batch - 1;
        call += batch;
    }
    t1 = ngcc_clock_ns();
    ngcc_buf_check_all("after sampling");
    /* A broken implementation must never be timed as fast: check the last result. */
    op->verify(last);
    ngcc_buf_check_all("after verifying the results");

    fprintf(ngcc_out, "{\"op\":\"%s\",\"counter\":", op->name);
    ngcc_json_counter(&c);
    fputs(",\"estimateNs\":", ngcc_out);
    ngcc_json_number(ngcc_out, est_ns);
    fprintf(ngcc_out, ",\"warmupCalls\":%llu,\"batch\":%llu,\"batchReason\":", warm_calls, batch);
    ngcc_json_string(ngcc_out, reason);
    fprintf(ngcc_out, ",\"samplesLimitedBy\":\"%s\"", limited_by);
    fprintf(ngcc_out,
            ",\"settings\":{\"sampleNs\":%llu,\"warmupNs\":%llu,\"minSamples\":%llu,\"maxSamples\":%llu,"
            "\"batch\":",
            o->sample_ns, o->warmup_ns, o->min_samples, o->max_samples);
    if (o->batch > 0) {
        fprintf(ngcc_out, "%llu", o->batch);
    } else {
        fputs("\"auto\"", ngcc_out);
    }
    fprintf(ngcc_out, ",\"keys\":%llu,\"pool\":%llu,\"seed\":%llu}", o->keys, o->pool, o->seed);
    fprintf(ngcc_out, ",\"inputs\":{\"keyPairs\":%llu,\"pool\":%llu,\"messages\":", inputs.key_pairs, inputs.pool);
    ngcc_json_string(ngcc_out, inputs.messages);
    fputs(",\"description\":", ngcc_out);
    ngcc_json_string(ngcc_out, inputs.description);
    fputs("},\"pinnedCpu\":", ngcc_out);
    if (o->pin >= 0) {
        fprintf(ngcc_out, "%ld", o->pin);
    } else {
        fputs("null", ngcc_out);
    }
    fprintf(ngcc_out, ",\"messageBytes\":%llu,\"elapsedNs\":{\"warmup\":%llu,\"sampling\":%llu}", o->msg_bytes,
            (unsigned long long)warm_ns, (unsigned long long)(t1 - t0));
    fputs(",\"samples\":[", ngcc_out);
    for (s = 0; s < n; s++) {
        if (s > 0) {
            ngcc_putc(',');
        }
        fprintf(ngcc_out, "%.0f", ngcc_counter_delta(&c, 0, samples[s]));
    }
    ngcc_putc(']');
    /* The samples (0-based) during which the process was switched out, ascending; omitted when none. */
    if (n_switched > 0) {
        unsigned long long k = 0;
        fputs(",\"switchedOut\":[", ngcc_out);
        for (s = 0; s < n; s++) {
            if (switched[s]) {
                fprintf(ngcc_out, "%s%llu", k++ > 0 ? "," : "", s);
            }
        }
        ngcc_putc(']');
    }
    if (chain != NULL) {
        fprintf(ngcc_out, ",\"clockChain\":{\"adds\":%lu,\"deltas\":[", chain_adds - chain_adds % 8);
        for (s = 0; s < n; s++) {
            if (s > 0) {
                ngcc_putc(',');
            }
            fprintf(ngcc_out, "%.0f", chain[s]);
        }
        fputs("]}", ngcc_out);
        fprintf(ngcc_out, ",\"throughputChain\":{\"adds\":%lu,\"chains\":%u,\"deltas\":[",
                ngcc_throughput_adds(chain_adds), NGCC_THROUGHPUT_CHAINS);
        for (s = 0; s < n; s++) {
            if (s > 0) {
                ngcc_putc(',');
            }
            fprintf(ngcc_out, "%.0f", thr[s]);
        }
        fputs("]}", ngcc_out);
    }
    if (ngcc_ops_signature_lengths() != NULL && strcmp(op->name, "sign") == 0) {
        fputs(",\"lengths\":", ngcc_out);
        ngcc_json_lengths();
    }
    ngcc_putc('}');
    ngcc_json_end();
    free(samples);
    free(switched);
    free(chain);
    free(thr);
    if (c.perf_fd >= 0) {
        close(c.perf_fd);
    }
}

/* The operation the painted stack runs (ngcc_hw_stack_bytes), heap counting on around it. */
static const ngcc_op *ngcc_hw_op;
static const char *ngcc_hw_err;

static void ngcc_hw_noop(void) {
}

static void ngcc_hw_run(void) {
    ngcc_heap_start();
    ngcc_hw_err = ngcc_hw_op->run(1);
    ngcc_heap_stop();
}

/* The high-water figures of every input (input i: KAT count i's seed in the memory executable). */
static unsigned long long ngcc_hw_stack_of[NGCC_HW_KAT_INPUTS], ngcc_hw_heap_of[NGCC_HW_KAT_INPUTS],
    ngcc_hw_allocs_of[NGCC_HW_KAT_INPUTS];

static void ngcc_json_u64s(const char *key, const unsigned long long *v, unsigned long long n) {
    unsigned long long i;
    fprintf(ngcc_out, ",\"%s\":[", key);
    for (i = 0; i < n; i++) {
        fprintf(ngcc_out, "%s%llu", i > 0 ? "," : "", v[i]);
    }
    ngcc_putc(']');
}

/* Input i of the memory command: KAT count i's seed behind randombytes (when the build has the KAT DRBG), then the
 * operation's own inputs (keys, a ciphertext, ...) made from it, in the order the KAT generator makes count i's. */
static void ngcc_memory_input(const ngcc_op *op, unsigned long long i, int kat) {
    if (kat) {
        ngcc_hw_kat_seed((unsigned)i);
    }
    op->prepare();
    ngcc_buf_check_all("after preparing the inputs");
}

static void ngcc_cmd_memory(const ngcc_opts *o) {
    const ngcc_op *op = ngcc_find_op(o->op);
    long baseline = 0, peak = 0;
    const char *why = NULL, *err;
    int reset = 0, rss = (o->measure & NGCC_MEASURE_RSS) != 0, hw = (o->measure & NGCC_MEASURE_HW) != 0;
    int kat = ngcc_hw_kat_inputs() > 0;
    size_t stack_base = 0;
    unsigned long long i, done = 0, max_stack_at = 0, max_heap_at = 0, most_allocs = 0;
    uint64_t t0;
    const char *limited_by = "inputs";
    if (o->inputs > 1 && !kat) {
        ngcc_die(NGCC_EXIT_USAGE,
                 "memory --inputs %llu: this build has no KAT DRBG to make the inputs with (the memory executable has)",
                 o->inputs);
    }
    ngcc_ops_init((size_t)o->msg_bytes, o->seed);
    ngcc_memory_input(op, 0, kat);
    if (rss) {
        baseline = ngcc_mem_status_kib("VmRSS");
        reset = ngcc_mem_reset_hwm(&why) == 0;
        err = op->run(1);
        peak = ngcc_mem_status_kib("VmHWM");
        if (err != NULL) {
            ngcc_die(NGCC_EXIT_RESULT, "memory --op %s: %s", op->name, err);
        }
        ngcc_buf_check_all("after the operation");
        op->verify();
        if (baseline < 0 || peak < 0) {
            ngcc_die(NGCC_EXIT_USAGE, "memory: cannot read VmRSS / VmHWM from /proc/self/status");
        }
    }
    if (hw && !rss) {
        /* A warm-up call on the process's stack (the RSS run is one otherwise): the first call of a C library
         * function binds its symbol lazily, and ld.so's resolver saves the vector registers on the caller's stack
         * (some 3 KB) -- the dynamic linker's, not the operation's. */
        err = op->run(1);
        if (err != NULL) {
            ngcc_die(NGCC_EXIT_RESULT, "memory --op %s (warm-up call): %s", op->name, err);
        }
        ngcc_buf_check_all("after the warm-up call");
        op->verify();
    }
    if (hw) {
        /* After the RSS figures (the painted stack's pages would count in them): every input once more, on the
         * painted stack (painted again where the last call wrote), its inputs made afresh from its seed. */
        ngcc_hw_op = op;
        if (ngcc_hw_stack_supported()) {
            stack_base = ngcc_hw_stack_bytes(ngcc_hw_noop);
        }
        t0 = ngcc_clock_ns();
        for (i = 0; i < o->inputs; i++) {
            size_t used = 0;
            ngcc_memory_input(op, i, kat);
            if (ngcc_hw_stack_supported()) {
                used = ngcc_hw_stack_bytes(ngcc_hw_run);
            } else {
                ngcc_hw_run(); /* the heap figures only, on the process's own stack */
            }
            if (ngcc_hw_err != NULL) {
                ngcc_die(NGCC_EXIT_RESULT, "memory --op %s (stack and heap run, input %llu): %s", op->name, i,
                         ngcc_hw_err);
            }
            ngcc_buf_check_all("after the operation on the painted stack");
            op->verify();
            if (ngcc_heap_interposed() && ngcc_heap_overflowed()) {
                ngcc_die(NGCC_EXIT_USAGE, "memory --op %s: more than %u heap allocations to track", op->name,
                         32768u);
            }
            ngcc_hw_stack_of[i] = (unsigned long long)(used > stack_base ? used - stack_base : 0);
            ngcc_hw_heap_of[i] = (unsigned long long)ngcc_heap_peak_bytes();
            ngcc_hw_allocs_of[i] = ngcc_heap_allocations();
            if (ngcc_hw_stack_of[i] > ngcc_hw_stack_of[max_stack_at]) {
                max_stack_at = i;
            }
            if (ngcc_hw_heap_of[i] > ngcc_hw_heap_of[max_heap_at]) {
                max_heap_at = i;
            }
            if (ngcc_hw_allocs_of[i] > most_allocs) {
                most_allocs = ngcc_hw_allocs_of[i];
            }
            done = i + 1;
            if (o->time_limit_ns > 0 && done < o->inputs && ngcc_clock_ns() - t0 >= o->time_limit_ns) {
                limited_by = "time-limit";
                break;
            }
        }
    }
    fprintf(ngcc_out, "{\"op\":\"%s\"", op->name);
    if (rss) {
        fprintf(ngcc_out, ",\"baselineRssKiB\":%ld,\"peakRssKiB\":%ld,\"hwmReset\":%s", baseline, peak,
                reset ? "true" : "false");
        if (!reset) {
            fputs(",\"hwmResetError\":", ngcc_out);
            ngcc_json_string(ngcc_out, why);
        }
    }
    if (hw) {
        fprintf(ngcc_out, ",\"inputs\":{\"count\":%llu,\"asked\":%llu,\"limitedBy\":\"%s\",\"source\":\"%s\"}", done,
                o->inputs, limited_by, kat ? "kat-seeds" : "build-randomness");
    }
    if (hw && ngcc_hw_stack_supported()) {
        fprintf(ngcc_out,
                ",\"stackBytes\":%llu,\"stackMaxInput\":%llu,\"stackBaselineBytes\":%lu,\"stackRegionBytes\":%lu,"
                "\"stackPattern\":\"0x%016llx\"",
                ngcc_hw_stack_of[max_stack_at], max_stack_at, (unsigned long)stack_base,
                (unsigned long)NGCC_HW_STACK_BYTES, (unsigned long long)NGCC_HW_PAINT);
        ngcc_json_u64s("stackBytesPerInput", ngcc_hw_stack_of, done);
    }
    if (hw && ngcc_heap_interposed()) {
        fprintf(ngcc_out, ",\"heapPeakBytes\":%llu,\"heapMaxInput\":%llu,\"heapAllocations\":%llu",
                ngcc_hw_heap_of[max_heap_at], max_heap_at, most_allocs);
        ngcc_json_u64s("heapPeakBytesPerInput", ngcc_hw_heap_of, done);
        ngcc_json_u64s("heapAllocationsPerInput", ngcc_hw_allocs_of, done);
    }
    fprintf(ngcc_out, ",\"messageBytes\":%llu}", o->msg_bytes);
    ngcc_json_end();
}

static void ngcc_cmd_overhead(const ngcc_opts *o) {
    ngcc_counter c;
    ngcc_pin(o);
    ngcc_open_counter(o, &c);
    fputs("{\"counter\":", ngcc_out);
    ngcc_json_counter(&c);
    ngcc_putc('}');
    ngcc_json_end();
}

int main(int argc, char **argv) {
    ngcc_opts o;
    fflush(stdout);
    ngcc_claim_output(0, NULL, NULL); /* done before any constructor; a no-op here */
    if (ngcc_out_fd < 0) {
        ngcc_die(NGCC_EXIT_USAGE, "cannot set up stdout: errno %d (%s)", ngcc_claim_errno, strerror(ngcc_claim_errno));
    }
    if ((ngcc_out = open_memstream(&ngcc_out_text, &ngcc_out_len)) == NULL) {
        ngcc_die(NGCC_EXIT_USAGE, "cannot set up the output: errno %d (%s)", errno, strerror(errno));
    }
    ngcc_parse(argc, argv, &o);
    switch (o.command) {
    case CMD_INFO:
        ngcc_cmd_info();
        break;
    case CMD_CHECK:
        ngcc_cmd_check(&o);
        break;
    case CMD_TIME:
        ngcc_cmd_time(&o);
        break;
    case CMD_MEMORY:
        ngcc_cmd_memory(&o);
        break;
    case CMD_SAMPLE:
        ngcc_cmd_sample(&o);
        break;
    default:
        ngcc_cmd_overhead(&o);
        break;
    }
    ngcc_buf_free_all();
    return 0;
}
