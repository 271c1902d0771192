import GRDB
import StateFile

/// The schema, as migrations. A migration that shipped is never edited: add `v2`, `v3`, ...
enum Migrations {
  static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    for (identifier, migrate) in all { migrator.registerMigration(identifier, migrate: migrate) }
    return migrator
  }

  /// What GRDB records in `grdb_migrations` are these identifiers, which `DirectStore` checks
  /// as `StateSchema.migrations` (a test keeps the two equal).
  private static let all: [(String, @Sendable (Database) throws -> Void)] = [("v1", v1), ("v2", v2)]

  /// The secondary indexes of `cards` as of the latest migration. A first import drops them
  /// and builds them again after loading: sorting once beats a million random inserts.
  static let cardIndexes = [
    "CREATE UNIQUE INDEX IF NOT EXISTS cards_by_ordinal ON cards(type, ordinal)",
    "CREATE INDEX IF NOT EXISTS cards_by_id ON cards(id, ordinal)",
    "CREATE INDEX IF NOT EXISTS cards_by_deck ON cards(deck)",
  ]

  static func dropCardIndexes(_ db: Database) throws {
    for name in StateSchema.cardIndexNames {
      try db.execute(sql: "DROP INDEX IF EXISTS \(name)")
    }
  }

  /// Builds the indexes a bulk import dropped (also after a crash in the middle of one).
  static func ensureCardIndexes(_ db: Database) throws {
    for sql in cardIndexes { try db.execute(sql: sql) }
  }

  private static func v1(_ db: Database) throws {
    try db.execute(
      sql: """
        CREATE TABLE decks (
          id INTEGER PRIMARY KEY,
          path TEXT NOT NULL UNIQUE,
          position INTEGER NOT NULL,
          size INTEGER NOT NULL,
          mtime REAL NOT NULL,
          hash TEXT NOT NULL,
          name TEXT,
          types TEXT NOT NULL DEFAULT '[]',
          problems TEXT NOT NULL DEFAULT '[]'
        );
        CREATE TABLE cards (
          seq INTEGER PRIMARY KEY,
          id TEXT NOT NULL,
          deck INTEGER NOT NULL REFERENCES decks(id) ON DELETE CASCADE,
          line INTEGER NOT NULL,
          type TEXT NOT NULL,
          ordinal INTEGER,
          title TEXT,
          body TEXT NOT NULL,
          source TEXT,
          url TEXT,
          reveal TEXT,
          score REAL,
          scored_at REAL
        );
        CREATE UNIQUE INDEX cards_by_ordinal ON cards(type, ordinal);
        CREATE INDEX cards_by_id ON cards(id, ordinal);
        CREATE INDEX cards_by_deck ON cards(deck);
        CREATE INDEX cards_scored ON cards(type) WHERE score IS NOT NULL;
        CREATE TABLE card_types (
          name TEXT PRIMARY KEY,
          label TEXT NOT NULL,
          colour TEXT,
          description TEXT,
          cards INTEGER NOT NULL
        );
        CREATE TABLE disabled_types (name TEXT PRIMARY KEY);
        CREATE TABLE history (
          idx INTEGER PRIMARY KEY,
          card_id TEXT NOT NULL,
          type TEXT NOT NULL,
          title TEXT,
          shown_at REAL NOT NULL,
          reaction TEXT
        );
        CREATE TABLE tombstones (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          history_idx INTEGER NOT NULL UNIQUE,
          card_id TEXT NOT NULL,
          type TEXT NOT NULL,
          direction TEXT NOT NULL
        );
        CREATE TABLE reaction_events (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          history_idx INTEGER NOT NULL,
          card_id TEXT NOT NULL,
          type TEXT NOT NULL,
          reaction TEXT NOT NULL,
          committed_at REAL NOT NULL,
          sent_at REAL
        );
        """)
  }

  /// The config file as last read (its stamp) and the one setting `ctfo next` takes from it,
  /// so that its quick path can tell, without parsing TOML, that the file did not change.
  private static func v2(_ db: Database) throws {
    try db.execute(
      sql: """
        CREATE TABLE config_reads (
          path TEXT PRIMARY KEY,
          size INTEGER NOT NULL,
          mtime REAL NOT NULL,
          inode INTEGER NOT NULL,
          lookahead INTEGER NOT NULL
        );
        """)
  }
}
