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
    return .unknown(suggestion: Spelling.nearest(wanted, among: types.map(\.name)))
  }
}
