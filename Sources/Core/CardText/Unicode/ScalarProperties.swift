/// What the generated Unicode tables say about one scalar: its two widths and its text properties.
struct ScalarProperties {
  private let bits: UInt16

  /// Looks a scalar up: three reads of constant data.
  @inline(__always)
  init(_ value: UInt32) {
    let blocks = UnicodeTables.blocks.utf8Start
    let high = Int(value >> 8) &* 2
    let block = Int(blocks[high]) | Int(blocks[high &+ 1]) << 7
    let index = Int(UnicodeTables.classes.utf8Start[block << 8 | Int(value & 0xFF)]) &* 2
    let properties = UnicodeTables.properties.utf8Start
    bits = UInt16(properties[index]) | UInt16(properties[index &+ 1]) << 7
  }

  @inline(__always)
  init(_ scalar: Unicode.Scalar) { self.init(scalar.value) }

  /// The width a grapheme-aware terminal gives the scalar (Python `wcwidth.wcwidth`).
  var terminalWidth: Int { Int(bits & 0x3) }
  /// The width the C library's `wcwidth` gives it (what ncurses counts), nil where it has none.
  var cursesWidth: Int? {
    let width = Int(bits >> 2 & 0x3)
    return width == 3 ? nil : width
  }
  /// Must never reach the terminal: controls, bidi controls, invisible format characters, ...
  var isRemoved: Bool { bits & 1 << 4 != 0 }
  /// A combining mark (general category M).
  var isMark: Bool { bits & 1 << 5 != 0 }
  /// A spacing combining mark (general category Mc).
  var isSpacingMark: Bool { bits & 1 << 6 != 0 }
  /// An Indic consonant, which forms a conjunct after a virama.
  var isConsonant: Bool { bits & 1 << 7 != 0 }
  /// A narrow base that VS16 turns into a wide emoji.
  var widensWithVS16: Bool { bits & 1 << 8 != 0 }
  /// Extended_Pictographic: an emoji that ZWJ sequences and skin tones attach to.
  var isPictographic: Bool { bits & 1 << 9 != 0 }
  /// Never starts a grapheme cluster after another scalar (Extend, ZWJ, SpacingMark).
  var extendsCluster: Bool { bits & 1 << 10 != 0 }
}
