import Foundation
import Store

/// The deck benchmarks of `ctfo-bench`:
///
/// - `gen-deck N FILE`: writes a reproducible N-card JSON Lines deck (six types, realistic
///   lengths, some CJK, emoji and accents).
/// - `import FILE HOME`: the first import of FILE into a fresh state database under HOME.
/// - `open HOME [FILE...]`: opening that database, syncing FILEs (unchanged: a stat each) and
///   reading the catalog, then one card by ordinal.
enum DeckBench {
  static let commands: Set<String> = ["gen-deck", "import", "open"]

  static func run(_ arguments: [String]) throws {
    switch (arguments.first, arguments.count) {
    case ("gen-deck", 3):
      var generator = DeckGenerator(seed: 42)
      try generator.write(cards: Int(arguments[1])!, to: arguments[2])
    case ("import", 3): try importDeck(arguments[1], home: arguments[2])
    case ("open", 2...): try open(home: arguments[1], decks: Array(arguments.dropFirst(2)))
    default:
      print("usage: ctfo-bench gen-deck N FILE | import FILE HOME | open HOME [FILE...]")
      exit(2)
    }
  }

  private static func databasePath(_ home: String) -> String { home + "/state/ctfo.sqlite" }

  private static func importDeck(_ file: String, home: String) throws {
    let path = databasePath(home)
    for suffix in ["", "-wal", "-shm"] {
      try? FileManager.default.removeItem(atPath: path + suffix)
    }
    let clock = ContinuousClock()
    var report = SyncReport()
    let elapsed = try clock.measure {
      report = try DeckIndex(database: StateDatabase(path: path)).sync(decks: [file])
    }
    let cards = try DeckIndex(database: StateDatabase(path: path)).catalog().reduce(0) {
      $0 + $1.cards
    }
    print("import: \(cards) cards in \(seconds(elapsed)) s (\(report.problems.count) problems)")
  }

  private static func open(home: String, decks: [String]) throws {
    let clock = ContinuousClock()
    let start = clock.now
    let index = DeckIndex(database: try StateDatabase(path: databasePath(home)))
    let report = decks.isEmpty ? SyncReport() : try index.sync(decks: decks)
    let catalog = try index.catalog()
    let opened = clock.now
    let card = try index.reader().card(type: catalog[0].type.name, ordinal: catalog[0].cards / 2)
    let fetched = clock.now
    let cards = catalog.reduce(0) { $0 + $1.cards }
    print(
      "open + sync + catalog: \(ms(opened - start)) ms (\(catalog.count) types, \(cards) cards,"
        + " \(report.indexed.count) decks re-indexed)")
    print("reader + card(type:ordinal:): \(ms(fetched - opened)) ms (\(card?.id ?? "none"))")
  }

  private static func seconds(_ d: Duration) -> String { String(format: "%.2f", d.inSeconds) }

  private static func ms(_ d: Duration) -> String { String(format: "%.2f", d.inMilliseconds) }
}

/// Writes reproducible decks: the same seed and count give the same bytes.
struct DeckGenerator {
  private static let types = ["fact", "word", "tip", "trivia", "haiku", "joke"]
  private static let words = """
    the of and to in is was for on that with as by at from his her an which it are be this had \
    not or have one terminal swipe card feed layout queue actor width truncate ellipsis history \
    settings cached offline pipeline internationalization responsibility extraordinary \
    counterintuitive octopus volcano harbour lantern meridian glacier saffron copper
    """.split(separator: " ").map(String.init)
  private static let extras = ["世界", "日本語", "カード", "한국어", "👍", "✨", "café", "naïve", "Ångström"]

  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func write(cards: Int, to path: String) throws {
    guard FileManager.default.createFile(atPath: path, contents: nil),
      let handle = FileHandle(forWritingAtPath: path)
    else { throw CocoaError(.fileWriteUnknown) }
    defer { try? handle.close() }
    var buffer = Data(header().utf8)
    for n in 0..<cards {
      buffer.append(contentsOf: line(n).utf8)
      if buffer.count >= 1 << 20 {
        try handle.write(contentsOf: buffer)
        buffer.removeAll(keepingCapacity: true)
      }
    }
    try handle.write(contentsOf: buffer)
  }

  private func header() -> String {
    let types = Self.types.map { #""\#($0)": {"label": "\#($0.capitalized)", "colour": "cyan"}"# }
    return #"{"deck": "bench", "types": {\#(types.joined(separator: ", "))}}"# + "\n"
  }

  private mutating func line(_ n: Int) -> String {
    let type = Self.types[Int(next() % 6)]
    let title = next() % 3 == 0 ? #", "title": "\#(text(words: 2 + Int(next() % 5)))""# : ""
    let reveal = type == "trivia" ? #", "reveal": "\#(text(words: 3 + Int(next() % 8)))""# : ""
    let body = text(words: 10 + Int(next() % 50))
    return #"{"id": "bench-\#(n)", "type": "\#(type)"\#(title), "body": "\#(body)"\#(reveal)}"#
      + "\n"
  }

  private mutating func text(words count: Int) -> String {
    (0..<count).map { _ in
      next() % 20 == 0
        ? Self.extras[Int(next() % UInt64(Self.extras.count))]
        : Self.words[Int(next() % UInt64(Self.words.count))]
    }.joined(separator: " ")
  }

  /// SplitMix64.
  private mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
