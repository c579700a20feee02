/* ngcc_mem.c -- VmRSS / VmHWM from /proc/self/status (see ngcc_mem.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif

#include "ngcc_mem.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Plain read() into a stack buffer: no heap allocation disturbs the figures. */
long ngcc_mem_status_kib(const char *field) {
    char buf[8192];
    size_t used = 0, flen = strlen(field);
    ssize_t got;
    const char *p;
    int fd = open("/proc/self/status", O_RDONLY);
    if (fd < 0) {
        return -1;
    }
    while (used < sizeof buf - 1 && (got = read(fd, buf + used, sizeof buf - 1 - used)) > 0) {
        used += (size_t)got;
    }
    close(fd);
    buf[used] = '\0';
    p = buf;
    while (p != NULL && *p != '\0') {
        if (strncmp(p, field, flen) == 0 && p[flen] == ':') {
            return strtol(p + flen + 1, NULL, 10);
        }
        p = strchr(p, '\n');
        if (p != NULL) {
            p++;
        }
    }
    return -1;
}

int ngcc_mem_reset_hwm(const char **why) {
    int e;
    int fd = open("/proc/self/clear_refs", O_WRONLY);
    if (fd < 0) {
        e = errno;
        *why = strerror(e);
        return e;
    }
    if (write(fd, "5", 1) != 1) {
        e = errno;
        close(fd);
        *why = strerror(e);
        return e != 0 ? e : EIO;
    }
    close(fd);
    *why = NULL;
    return 0;
}
