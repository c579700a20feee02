/*
 * ngcc_mem.h -- resident set size of this process (Linux /proc/self).
 *
 * The memory command reads VmRSS (baseline), resets the high-water mark by
 * writing "5" to /proc/self/clear_refs, runs one operation and reads VmHWM
 * (peak).  Both are upper-bound proxies: they count every resident page of
 * the process, including the driver's own.
 */
#ifndef NGCC_MEM_H
#define NGCC_MEM_H

/* The value in KiB of a "Name:   N kB" line of /proc/self/status, or -1. */
long ngcc_mem_status_kib(const char *field);

/* Reset VmHWM to the current RSS; 0 on success, else errno (error text in *why). */
int ngcc_mem_reset_hwm(const char **why);

#endif /* NGCC_MEM_H */
