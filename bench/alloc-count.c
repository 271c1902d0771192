/* A malloc counter to preload (LD_PRELOAD) under ctfo-bench: counts every allocation call and
   exposes the count as ctfo_alloc_count(), which the bench finds with dlsym. */
#include <stddef.h>
#include <stdatomic.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static atomic_ulong calls;

unsigned long ctfo_alloc_count(void) { return atomic_load(&calls); }

void *malloc(size_t size) {
  atomic_fetch_add(&calls, 1);
  return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
  atomic_fetch_add(&calls, 1);
  return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
  atomic_fetch_add(&calls, 1);
  return __libc_realloc(pointer, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
  atomic_fetch_add(&calls, 1);
  return __libc_memalign(alignment, size);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
  atomic_fetch_add(&calls, 1);
  *out = __libc_memalign(alignment, size);
  return *out ? 0 : 12;
}
