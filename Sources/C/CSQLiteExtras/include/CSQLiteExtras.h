#ifndef CTFO_SQLITE_EXTRAS_H
#define CTFO_SQLITE_EXTRAS_H

struct sqlite3;

/// sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, on, NULL), which Swift cannot call
/// because sqlite3_db_config is variadic. Returns SQLite's result code.
int ctfo_sqlite_no_checkpoint_on_close(struct sqlite3 *db, int on);

/// Installs a progress handler on `db` that is a yield point (CYieldToUser.h) every
/// `instructions` virtual-machine steps: a background thread's long statement gives the CPU up.
void ctfo_sqlite_yield_points(struct sqlite3 *db, int instructions);

#endif
