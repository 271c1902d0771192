#ifndef CBUILDINFO_H
#define CBUILDINFO_H

/* The commit this build was made from (7 hex digits), or "unknown". */
const char *ctfo_commit(void);

/* What this build was made with, one a line, each ending in a newline: the Swift toolchain
   (`swift --version`), then every package of the graph as `IDENTITY VERSION REVISION`
   (Package.resolved); "" for a build `make` did not prepare. */
const char *ctfo_dependencies(void);

#endif
