// SQLite's C API for the SQL module (libsqlite3-dev; linked statically into `ctfo`).
#include <sqlite3.h>
