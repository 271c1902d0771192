#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdatomic.h>
#include <sys/resource.h>
#include <time.h>
#include "CYieldToUser.h"

// When the user last acted (CLOCK_MONOTONIC ns); 0: never.
static _Atomic long long last_action = 0;
static _Atomic int deferring = 1;

// Per thread: its quantum (0: not a background thread) and when it last yielded.
static _Thread_local long long quantum = 0;
static _Thread_local long long last_yield = 0;
static _Thread_local long long yields = 0;

static long long now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

void ctfo_user_acted(void) {
  atomic_store_explicit(&last_action, now_ns(), memory_order_relaxed);
}

void ctfo_stop_deferring(void) {
  atomic_store_explicit(&deferring, 0, memory_order_relaxed);
}

void ctfo_become_background(int niceness, long long quantum_ns) {
  // On Linux, PRIO_PROCESS with 0 names the calling thread only (setpriority(2), NOTES). A
  // refusal leaves the thread at the process's priority: the yields and pauses still hold.
  setpriority(PRIO_PROCESS, 0, niceness);
  quantum = quantum_ns > 0 ? quantum_ns : 1;
  last_yield = now_ns();
}

int ctfo_is_background(void) { return quantum != 0; }

void ctfo_yield_point(void) {
  if (quantum == 0) return;
  long long now = now_ns();
  if (now - last_yield < quantum) return;
  sched_yield();
  yields++;
  last_yield = now_ns();
}

long long ctfo_yields(void) { return yields; }

long long ctfo_pause(long long quiet_ns, long long longest_ns) {
  if (quantum == 0) return 0;
  long long start = now_ns(), now = start;
  while (atomic_load_explicit(&deferring, memory_order_relaxed)) {
    long long acted = atomic_load_explicit(&last_action, memory_order_relaxed);
    if (acted == 0) break;
    long long until = acted + quiet_ns < start + longest_ns ? acted + quiet_ns : start + longest_ns;
    if (now >= until) break;
    long long left = until - now;
    struct timespec t = {.tv_sec = left / 1000000000LL, .tv_nsec = left % 1000000000LL};
    while (nanosleep(&t, &t) == -1 && errno == EINTR) {}
    now = now_ns();
  }
  ctfo_yield_point();
  return now - start;
}
