/* The contention probe's question asked of a core alone (issue 26): how many adds per cycle does it issue on 4 and on
 * 8 independent chains? The driver's probe (native/driver/ngcc_counter.c) runs 4 chains; on a core with five integer
 * ALUs its loop pass reads about 3.3 alone, where a four-ALU core (AMD Zen) reads 3.75-3.9. Eight chains tell a
 * five-ALU core alone (above 4) from a shared one (a busy sibling takes about half the issue slots).
 * Cycles come from a dependent chain of adds (one per cycle), ticks from rdtsc, so no clock rate is needed.
 *   gcc -O2 -o adds-per-cycle bench/adds-per-cycle.c && taskset -c 1 ./adds-per-cycle
 */
#include <stdio.h>
#include <stdint.h>
#include <x86intrin.h>
#define N 1000000UL
static double lat(void){ uint64_t x=1, one=1; volatile uint64_t s=1; one=s; unsigned long i; _mm_lfence(); uint64_t a=__rdtsc();
 for(i=0;i<N;i++){ __asm__ __volatile__("add %1,%0\n\tadd %1,%0\n\tadd %1,%0\n\tadd %1,%0\n\tadd %1,%0\n\tadd %1,%0\n\tadd %1,%0\n\tadd %1,%0":"+r"(x):"r"(one)); }
 _mm_lfence(); uint64_t b=__rdtsc(); if(x==0) puts(""); return (double)(b-a)/(8.0*N); }
#define C4 "add %4,%0\n\tadd %4,%1\n\tadd %4,%2\n\tadd %4,%3\n\t"
static double thr4(void){ uint64_t x0=1,x1=2,x2=3,x3=4,one; volatile uint64_t s=1; one=s; unsigned long i; _mm_lfence(); uint64_t a=__rdtsc();
 for(i=0;i<N;i++){ __asm__ __volatile__(C4 C4 C4 C4 C4 C4 C4 C4:"+r"(x0),"+r"(x1),"+r"(x2),"+r"(x3):"r"(one)); }
 _mm_lfence(); uint64_t b=__rdtsc(); if(x0+x1+x2+x3==0) puts(""); return (double)(b-a)/(32.0*N); }
#define C8 "add %8,%0\n\tadd %8,%1\n\tadd %8,%2\n\tadd %8,%3\n\tadd %8,%4\n\tadd %8,%5\n\tadd %8,%6\n\tadd %8,%7\n\t"
static double thr8(void){ uint64_t x0=1,x1=2,x2=3,x3=4,x4=5,x5=6,x6=7,x7=8,one; volatile uint64_t s=1; one=s; unsigned long i; _mm_lfence(); uint64_t a=__rdtsc();
 for(i=0;i<N;i++){ __asm__ __volatile__(C8 C8 C8 C8:"+r"(x0),"+r"(x1),"+r"(x2),"+r"(x3),"+r"(x4),"+r"(x5),"+r"(x6),"+r"(x7):"r"(one)); }
 _mm_lfence(); uint64_t b=__rdtsc(); if(x0+x1+x2+x3+x4+x5+x6+x7==0) puts(""); return (double)(b-a)/(32.0*N); }
int main(void){ for(int r=0;r<3;r++){ double l=lat(), t4=thr4(), t8=thr8(); printf("ticks/add: chain %.4f  4-chain %.4f (%.2f adds/cycle)  8-chain %.4f (%.2f adds/cycle)\n", l, t4, l/t4, t8, l/t8);} return 0; }
