#include "CBuildInfo.h"

/* commit.h and dependencies.h are written by `make` (scripts/build-info.sh) before each build,
   and change only with the commit and with Package.resolved or the toolchain: a new commit
   recompiles this file alone. A build without them (a plain `swift build`) says the commit is
   unknown and lists nothing. */
#if __has_include("commit.h")
#include "commit.h"
#endif
#ifndef CTFO_COMMIT
#define CTFO_COMMIT "unknown"
#endif
#if __has_include("dependencies.h")
#include "dependencies.h"
#endif
#ifndef CTFO_DEPENDENCIES
#define CTFO_DEPENDENCIES ""
#endif

const char *ctfo_commit(void) { return CTFO_COMMIT; }

const char *ctfo_dependencies(void) { return CTFO_DEPENDENCIES; }
