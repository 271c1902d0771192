import StateFile

extension NextRequest {
  /// Runs the request in the small `ctfo` binary, when nothing needs the full one: the state
  /// database exists and is current (schema, card indexes, decks unchanged since their sync),
  /// and the config file has not changed since `ctfo-full` last read it. Returns false, having
  /// printed and written nothing, when any of that fails or anything goes wrong: `ctfo-full`
  /// then runs the same request, syncs or migrates what needs it, and reports any error in
  /// its own words.
  ///
  /// It deals on the calling thread, so a batch larger than `serialLimit` (which a `Feed`
  /// deals on both cores) goes to `ctfo-full` too: this binary starts no task or thread.
  public func runQuickly() -> Bool {
    guard count <= Self.serialLimit, Environment.variable("HOME") != nil else { return false }
    let paths = Paths(home: globals.home)
    // Taken before anything is read: a file changed after this is read again next time.
    guard let stamp = FileStamp.of(paths.configFile) else { return false }
    do {
      guard
        let store = try DirectStore.open(
          path: paths.stateDatabase, decks: paths.decks(extra: globals.deck)),
        let lookahead = try store.configLookahead(path: paths.configFile, stamp: stamp)
      else { return false }
      var configuration = Configuration()
      configuration.lookahead = lookahead
      try configuration.apply(flags: globals)
      let cards = try store.transaction {
        let cards = try dealSerially(store: store, lookahead: configuration.lookahead)
        try Self.record(cards, in: store)
        return cards
      }
      print(cards)
      return true
    } catch {
      return false
    }
  }
}
