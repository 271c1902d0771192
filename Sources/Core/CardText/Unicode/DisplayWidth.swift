/// Display width in terminal cells.
///
/// For sanitised text the width of a cluster is the same to the layout, to ncurses and to the
/// terminal, so it is the C library's `wcwidth` summed per scalar, which these functions compute
/// from the generated tables. Controls (LF, TAB) count 0.
///
///     DisplayWidth.of("日本")   // 4
///     DisplayWidth.of("é")     // 1
public enum DisplayWidth {
  /// The cells one grapheme cluster takes on screen (0, 1 or 2), for sanitised text.
  public static func of(_ cluster: Character) -> Int {
    if let ascii = cluster.asciiValue { return ascii >= 0x20 && ascii < 0x7F ? 1 : 0 }
    var total = 0
    for scalar in cluster.unicodeScalars { total += of(scalar) }
    return total
  }

  /// The cells a sanitised string takes on one line.
  public static func of(_ text: some StringProtocol) -> Int {
    var total = 0
    for scalar in text.unicodeScalars { total += of(scalar) }
    return total
  }

  /// The cells one scalar adds on screen: its C library width; 0 for controls and unknowns.
  @inline(__always)
  static func of(_ scalar: Unicode.Scalar) -> Int {
    ScalarProperties(scalar).cursesWidth ?? 0
  }
}
