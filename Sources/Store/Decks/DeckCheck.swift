/// Checks deck files without touching the database (`ctfo deck check FILE...`): the same
/// parser as the index, the same problems, duplicate ids across the files included.
public enum DeckCheck {
  /// What checking found: the problems, and how many cards would load.
  public struct Report: Sendable, Hashable {
    public var problems: [DeckProblem] = []
    public var cards = 0
    /// How many cards would load, by type.
    public var types: [String: Int] = [:]
  }

  /// Checks `paths` in order; a later card wins a duplicate id, as in `DeckIndex.sync`.
  public static func check(_ paths: [String]) -> Report {
    var report = Report()
    var firstSeen: [String: (path: String, line: Int)] = [:]
    for path in paths {
      do {
        var parser = DeckParser()
        try DeckFile(path: path).forEachLine { text, line in
          switch parser.parse(text) {
          case .blank, .header: break
          case .problem(let message):
            report.problems.append(DeckProblem(path: path, line: line, message: message))
          case .card(let card):
            if let earlier = firstSeen.updateValue((path, line), forKey: card.id) {
              report.problems.append(
                DeckProblem(
                  path: path, line: line,
                  message: "duplicate id \"\(card.id)\" replaces \(earlier.path):\(earlier.line)"))
            } else {
              report.cards += 1
              report.types[card.type, default: 0] += 1
            }
          }
        }
      } catch {
        report.problems.append(
          error as? DeckProblem ?? DeckProblem(path: path, message: "\(error)"))
      }
    }
    return report
  }
}
