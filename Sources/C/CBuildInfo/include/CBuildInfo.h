#ifndef CBUILDINFO_H
#define CBUILDINFO_H

/* The commit this build was made from (7 hex digits), or "unknown". */
const char *ctfo_commit(void);

#endif
