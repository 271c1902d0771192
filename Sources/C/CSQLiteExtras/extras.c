#include <sqlite3.h>
#include "CSQLiteExtras.h"
#include "CYieldToUser.h"

int ctfo_sqlite_no_checkpoint_on_close(struct sqlite3 *db, int on) {
  return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, on, (int *)0);
}

static int yield_point(void *unused) {
  (void)unused;
  ctfo_yield_point();
  return 0;
}

void ctfo_sqlite_yield_points(struct sqlite3 *db, int instructions) {
  sqlite3_progress_handler(db, instructions, yield_point, (void *)0);
}
