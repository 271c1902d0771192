/// The mark that ends the last line of cut text.
///
/// "…" is East Asian Ambiguous: a terminal set up for CJK draws it two cells wide, and every cut
/// line is then one column too wide. There the caller asks for `.ascii`.
///
///     TruncationMark(environment: ["LANG": "ja_JP.UTF-8"])  // .ascii
///     TruncationMark(environment: ["LANG": "en_GB.UTF-8"])  // .ellipsis
public enum TruncationMark: String, Sendable, Hashable {
  /// "…", one cell where ambiguous characters are narrow.
  case ellipsis = "…"
  /// "...", three cells on every terminal.
  case ascii = "..."

  /// The mark as text.
  public var text: String { rawValue }

  /// The environment variables the mark depends on.
  public static let variables = ["CTFO_ASCII", "LC_ALL", "LC_CTYPE", "LANG"]

  /// The mark for the given environment variables: `.ascii` when `CTFO_ASCII` is set to anything
  /// but "0", or when the character-type locale (the first non-empty of `LC_ALL`, `LC_CTYPE`,
  /// `LANG`) is Japanese, Chinese or Korean; `CTFO_ASCII=0` keeps "…" in those too.
  public init(environment: [String: String]) {
    if let ascii = environment["CTFO_ASCII"], !ascii.isEmpty {
      self = ascii == "0" ? .ellipsis : .ascii
      return
    }
    let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }
      .first { !$0.isEmpty }
    let language = locale?.prefix { $0 != "_" && $0 != "." && $0 != "@" }
    self = ["ja", "zh", "ko"].contains(language ?? "") ? .ascii : .ellipsis
  }

  /// `line` as it is when it fits in `width` cells, else cut so that the mark fits after it.
  ///
  ///     TruncationMark.ellipsis.clipped("Merriam-Webster", width: 10)  // "Merriam-W…"
  public func clipped(_ line: String, width: Int) -> String {
    guard DisplayWidth.of(line) > width else { return line }
    var cut = line
    end(&cut, width: width)
    return cut
  }

  /// Cuts `line` until the mark fits after it within `width` cells, and appends the mark (only
  /// its first `width` characters on a narrower line).
  func end(_ line: inout String, width: Int) {
    let markWidth = DisplayWidth.of(text)
    var lineWidth = DisplayWidth.of(line)
    while lineWidth + markWidth > width, let last = line.popLast() {
      lineWidth -= DisplayWidth.of(last)
    }
    while line.last == " " { line.removeLast() }
    line += text.prefix(max(width, 0))
  }
}
