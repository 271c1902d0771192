#include <sqlite3.h>
#include "CSQLiteExtras.h"

int ctfo_sqlite_no_checkpoint_on_close(struct sqlite3 *db, int on) {
  return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, on, (int *)0);
}
