/// The SQL that both sides of the state database share: the GRDB stores of `CardStore`
/// (migrations, deck sync, history) and the plain connections of this module (`DirectStore`,
/// `CardReader`), so the quick path of `ctfo next` reads and writes exactly what they do.
public enum StateSchema {
  /// The migrations of the current schema, in order: what GRDB records in `grdb_migrations`.
  /// `CardStore`'s migrator registers exactly these (a test checks it).
  public static let migrations = ["v1", "v2"]

  /// The secondary indexes of `cards` (a first import drops and rebuilds them).
  public static let cardIndexNames = ["cards_by_ordinal", "cards_by_id", "cards_by_deck"]

  public static let cardColumns = "id, type, title, body, source, url, reveal"
  public static let catalogSQL =
    "SELECT name, label, colour, description, cards FROM card_types ORDER BY name"
  public static let disabledTypesSQL = "SELECT name FROM disabled_types"
  public static let nextHistoryIndexSQL = "SELECT MAX(idx) + 1 FROM history"
  public static let historyInsertSQL = """
    INSERT INTO history (idx, card_id, type, title, shown_at, reaction) VALUES (?, ?, ?, ?, ?, ?)
    """
}
