import FeedCore

/// Finds the type a user means on the command line: its name or its label, in any case
/// (`ctfo disable Fact` as the app shows "Fact"), with a suggestion for a near miss.
///
///     TypeNames.resolve("Fact", among: types)  // .found("fact")
///     TypeNames.resolve("facs", among: types)  // .unknown(suggestion: "fact")
public enum TypeNames {
  public enum Resolution: Sendable, Hashable {
    case found(String)
    case unknown(suggestion: String?)
  }

  public static func resolve(_ given: String, among types: [CardType]) -> Resolution {
    let wanted = given.lowercased()
    if let type = types.first(where: { $0.name == given })
      ?? types.first(where: { $0.name.lowercased() == wanted || $0.label.lowercased() == wanted })
    {
      return .found(type.name)
    }
    let near = types.map { (name: $0.name, distance: distance(wanted, $0.name.lowercased())) }
      .filter { $0.distance <= max(1, wanted.count / 3) }
      .min { $0.distance < $1.distance }
    return .unknown(suggestion: near?.name)
  }

  /// The edit distance (insertions, deletions, substitutions) between two strings.
  static func distance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    var row = Array(0...b.count)
    for i in 1...max(a.count, 1) where i <= a.count {
      var previous = row[0]
      row[0] = i
      for j in 1...max(b.count, 1) where j <= b.count {
        let substitution = previous + (a[i - 1] == b[j - 1] ? 0 : 1)
        previous = row[j]
        row[j] = min(substitution, row[j] + 1, row[j - 1] + 1)
      }
    }
    return row[b.count]
  }
}
