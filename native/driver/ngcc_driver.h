/*
 * ngcc_driver.h -- shared declarations of the ngcc-perf timing driver: the helpers of native/common (exit codes
 * 0 success, 2 usage or environment, 3 a result check or an API call, 4 a canary; see native/README.md).
 */
#ifndef NGCC_DRIVER_H
#define NGCC_DRIVER_H

/* ngcc_die, ngcc_call, the exit codes and the category code's helpers (rng, lengths, slots) are shared. */
#include "../common/ngcc_common.h"

#endif /* NGCC_DRIVER_H */
