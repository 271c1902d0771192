/// Display width in terminal cells.
public enum DisplayWidth {
  /// The cells one grapheme cluster takes on screen (0, 1 or 2), for sanitised text.
  public static func of(_ cluster: Character) -> Int {
    // Placeholder until the CardText issue lands.
    cluster.unicodeScalars.first.map { $0.value >= 0x1100 ? 2 : 1 } ?? 0
  }

  /// The cells a sanitised string takes on one line.
  public static func of(_ text: some StringProtocol) -> Int {
    var total = 0
    for cluster in text { total += of(cluster) }
    return total
  }
}
