import FeedCore

/// Checks deck files, JSON Lines or fortune's, without touching the database (`ctfo deck
/// check FILE...`): the same reader as the index, the same problems, duplicate ids across the
/// files included.
public enum DeckCheck {
  /// What checking found: the problems, and how many cards would load.
  public struct Report: Sendable, Hashable {
    public var problems: [DeckProblem] = []
    public var cards = 0
    /// How many cards would load, by type.
    public var types: [String: Int] = [:]
  }

  /// What the decks hold: the check's report, the cards that load (a later card wins a
  /// duplicate id, as in `DeckIndex.sync`) and the types their headers declare.
  public struct Contents: Sendable {
    public var report = Report()
    public var cards: [Card] = []
    public var types: [CardType] = []

    public init() {}
  }

  /// Checks `paths` in order; a later card wins a duplicate id, as in `DeckIndex.sync`.
  public static func check(_ paths: [String]) -> Report { read(paths, keepCards: false).report }

  /// Reads `paths` in order, with the problems `check` finds (the server loads its decks so).
  public static func read(_ paths: [String], keepCards: Bool = true) -> Contents {
    var contents = Contents()
    var firstSeen: [String: (path: String, line: Int, index: Int)] = [:]
    for path in paths {
      do {
        let outcome = try DeckEntries.read(DeckFile(path: path)) { entry, line in
          switch entry {
          case .blank: break
          case .header(let header): contents.types += header.types
          case .problem(let message):
            contents.report.problems.append(DeckProblem(path: path, line: line, message: message))
          case .card(let card):
            if let earlier = firstSeen[card.id] {
              contents.report.problems.append(
                DeckProblem(
                  path: path, line: line,
                  message: "duplicate id \"\(card.id)\" replaces \(earlier.path):\(earlier.line)"))
              if keepCards { contents.cards[earlier.index] = card }
              firstSeen[card.id] = (path, line, earlier.index)
            } else {
              firstSeen[card.id] = (path, line, contents.cards.count)
              contents.report.cards += 1
              contents.report.types[card.type, default: 0] += 1
              if keepCards { contents.cards.append(card) }
            }
          }
        }
        contents.report.problems += outcome.problems
      } catch {
        contents.report.problems.append(
          error as? DeckProblem ?? DeckProblem(path: path, message: "\(error)"))
      }
    }
    return contents
  }
}
