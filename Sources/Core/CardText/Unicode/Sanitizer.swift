/// Makes untrusted text safe to draw.
///
///     Sanitizer.sanitize("tab\there\u{1B}[2J")      // "tab\there[2J"
///     Sanitizer.sanitize("👨‍👩‍👧 family")            // "👨 family"
public enum Sanitizer {
  /// The most combining marks kept in one grapheme cluster.
  public static let maximumMarksPerCluster = 4

  /// ZERO WIDTH JOINER: never output, as a terminal joins the glyph after it into its cell.
  private static let joiner: Unicode.Scalar = "\u{200D}"

  /// Whether `sanitize` always removes `scalar` (a control, a bidi control, an invisible format
  /// character, ZWJ), or it is a line or paragraph separator: what a name (a card's id, a
  /// type's) must not hold, since its printed form would differ from the name.
  public static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
    ScalarProperties(scalar).isRemoved || scalar == joiner || scalar == "\u{2028}"
      || scalar == "\u{2029}"
  }

  /// Removes what must never reach a terminal and normalises every grapheme cluster to a form
  /// on which the layout, ncurses and the terminal agree on width.
  ///
  /// Removed: C0 controls but LF and TAB, DEL, C1, bidi controls, invisible format characters,
  /// tag characters and noncharacters; combining marks past `maximumMarksPerCluster` in a
  /// cluster; every ZWJ (U+200D), as a terminal joins the glyph after it into its cell whatever
  /// the cluster. A cluster whose widths disagree (ZWJ and skin-tone sequences, VS16 on a narrow
  /// base, a lone regional indicator, a code point the C library lacks) becomes its first emoji,
  /// its longest prefix on which they agree, or U+FFFD. Everything else is left as it is.
  public static func sanitize(_ text: String) -> String {
    if isPlain(text.utf8) { return text }
    var text = text
    return text.withUTF8(sanitizeRuns)
  }

  /// Copies runs of plain bytes as they are and sends only the stretches around other bytes
  /// through `sanitizeClusters`. A stretch keeps one plain byte on each side where there is
  /// one (a combining mark may belong to the letter before it) and ends only where two plain
  /// bytes meet: between two ASCII characters there is always a grapheme break, so every
  /// cluster lies wholly inside a stretch or a run, and the result is the same as sanitising
  /// the whole text cluster by cluster.
  static func sanitizeRuns(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    var runStart = 0
    var i = 0
    while i < bytes.count {
      if isPlainByte(bytes[i]) {
        i += 1
        continue
      }
      let stretchStart = i > runStart ? i - 1 : i
      output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<stretchStart]))
      var end = i + 1
      while end < bytes.count
        && !(isPlainByte(bytes[end]) && (end + 1 == bytes.count || isPlainByte(bytes[end + 1])))
      {
        end += 1
      }
      end = min(end + 1, bytes.count)
      let stretch = String(
        decoding: UnsafeBufferPointer(rebasing: bytes[stretchStart..<end]), as: UTF8.self)
      output.append(contentsOf: sanitizeClusters(stretch).utf8)
      runStart = end
      i = end
    }
    output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
    return String(decoding: output, as: UTF8.self)
  }

  /// Sanitises cluster by cluster: the general path, for text that is not plain ASCII.
  static func sanitizeClusters(_ text: String) -> String {
    var output = String()
    output.reserveCapacity(text.utf8.count)
    var scalars: [Unicode.Scalar] = []
    for cluster in withoutRemoved(text) {
      guard cluster.utf8.count > 1 else {
        output.append(cluster)
        continue
      }
      scalars.removeAll(keepingCapacity: true)
      if appendCapped(cluster, to: &scalars) && ClusterWidth.agree(scalars) {
        output.append(cluster)
      } else {
        appendAgreeing(scalars, to: &output)
      }
    }
    return output
  }

  /// Decodes bytes from a file or the network, invalid UTF-8 becoming U+FFFD, and sanitises them.
  public static func sanitize(utf8 bytes: some Collection<UInt8>) -> String {
    sanitize(String(decoding: bytes, as: UTF8.self))
  }

  /// True when every byte is printable ASCII, LF or TAB: nothing to do.
  private static func isPlain(_ bytes: String.UTF8View) -> Bool {
    bytes.withContiguousStorageIfAvailable { $0.allSatisfy(isPlainByte) }
      ?? bytes.allSatisfy(isPlainByte)
  }

  @inline(__always)
  private static func isPlainByte(_ byte: UInt8) -> Bool {
    (byte >= 0x20 && byte < 0x7F) || byte == 0x0A || byte == 0x09
  }

  /// The text without the scalars that must never reach a terminal.
  private static func withoutRemoved(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: { ScalarProperties($0).isRemoved }) else {
      return text
    }
    var kept = String.UnicodeScalarView()
    for scalar in text.unicodeScalars where !ScalarProperties(scalar).isRemoved {
      kept.append(scalar)
    }
    return String(kept)
  }

  /// Appends the cluster's scalars but the combining marks past the cap and, unless it starts
  /// with an emoji, every ZWJ; false if it left any out or the cluster has a ZWJ.
  private static func appendCapped(_ cluster: Character, to scalars: inout [Unicode.Scalar])
    -> Bool
  {
    var marks = 0
    var whole = true
    let keepsJoiners = ScalarProperties(cluster.unicodeScalars.first!).isPictographic
    for scalar in cluster.unicodeScalars {
      if scalar == joiner {
        whole = false
        if !keepsJoiners { continue }
      }
      if !scalars.isEmpty && ScalarProperties(scalar).isMark {
        marks += 1
        if marks > maximumMarksPerCluster { continue }
      }
      scalars.append(scalar)
    }
    return whole && marks <= maximumMarksPerCluster
  }

  /// Appends the longest prefix of the cluster without a ZWJ on which the terminal and ncurses
  /// agree (for an emoji sequence, the first emoji), or U+FFFD; nothing if the cluster was only
  /// joiners.
  private static func appendAgreeing(_ scalars: [Unicode.Scalar], to output: inout String) {
    guard let first = scalars.first else { return }
    let isEmoji =
      ScalarProperties(first).isPictographic || ClusterWidth.isRegionalIndicator(first.value)
    var length = scalars.count
    while length > 0 {
      let prefix = scalars[..<length]
      if !prefix.contains(joiner) && ClusterWidth.agree(prefix) {
        output.unicodeScalars.append(contentsOf: prefix)
        return
      }
      length = isEmoji && length > 1 ? 1 : length - 1
    }
    output.unicodeScalars.append("\u{FFFD}")
  }
}
