#include "CBuildInfo.h"

/* commit.h is written by `make` (scripts/build-info.sh) before each build, and changes only with
   the commit: a new commit recompiles this file alone. A build without it (a plain
   `swift build`) says the commit is unknown. */
#if __has_include("commit.h")
#include "commit.h"
#endif
#ifndef CTFO_COMMIT
#define CTFO_COMMIT "unknown"
#endif

const char *ctfo_commit(void) { return CTFO_COMMIT; }
