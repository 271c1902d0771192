import App
import CardText

/// `--ascii` (`ascii = true`, `CTFO_ASCII=1`): every cell the app drew with a box line, an
/// arrow, an ellipsis or a typographic mark is folded to one ASCII character of the same width,
/// so a card of ASCII text puts no byte above 0x7F on the terminal. Text with no ASCII form
/// (another script, an emoji) is left as it is.
enum AsciiChrome {
  /// Folds every cell of `grid`.
  static func fold(_ grid: inout CellGrid) {
    for row in 0..<grid.height {
      for column in 0..<grid.width {
        guard let cluster = grid[row, column].cluster, let ascii = folded(cluster) else {
          continue
        }
        grid[row, column].cluster = ascii
      }
    }
  }

  /// The ASCII form of `character`, or nil when it has none or is ASCII already.
  static func folded(_ character: Character) -> Character? {
    guard let scalar = character.unicodeScalars.first, !character.isASCII,
      character.unicodeScalars.count == 1
    else { return nil }
    switch scalar.value {
    // Box drawing: horizontal, vertical, and every corner or junction.
    case 0x2500, 0x2501, 0x2504, 0x2505, 0x2508, 0x2509, 0x254C, 0x254D, 0x2550, 0x2574, 0x2576,
      0x2578, 0x257A, 0x257C, 0x257E:
      return "-"
    case 0x2502, 0x2503, 0x2506, 0x2507, 0x250A, 0x250B, 0x254E, 0x254F, 0x2551, 0x2575, 0x2577,
      0x2579, 0x257B, 0x257D, 0x257F:
      return "|"
    case 0x2500...0x257F: return "+"
    case 0x2190: return "<"
    case 0x2192: return ">"
    case 0x2191: return "^"
    case 0x2193: return "v"
    case 0x2026: return "."
    case 0x00B7, 0x2022, 0x2219: return "*"
    case 0x2018, 0x2019: return "'"
    case 0x201C, 0x201D: return "\""
    case 0x2013, 0x2014: return "-"
    default: return nil
    }
  }
}
