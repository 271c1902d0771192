/// Makes untrusted text safe to draw.
///
///     Sanitizer.sanitize("tab\there\u{1B}[2J")      // "tab\there[2J"
///     Sanitizer.sanitize("👨‍👩‍👧 family")            // "👨 family"
public enum Sanitizer {
  /// The most combining marks kept in one grapheme cluster.
  public static let maximumMarksPerCluster = 4

  /// Removes what must never reach a terminal and normalises every grapheme cluster to a form
  /// on which the layout, ncurses and the terminal agree on width.
  ///
  /// Removed: C0 controls but LF and TAB, DEL, C1, bidi controls, invisible format characters,
  /// tag characters and noncharacters; combining marks past `maximumMarksPerCluster` in a
  /// cluster. A cluster whose widths disagree (ZWJ and skin-tone sequences, VS16 on a narrow
  /// base, a lone regional indicator, a code point the C library lacks) becomes its first emoji,
  /// its longest prefix on which they agree, or U+FFFD. Everything else is left as it is.
  public static func sanitize(_ text: String) -> String {
    if isPlain(text.utf8) { return text }
    var kept = String.UnicodeScalarView()
    for scalar in text.unicodeScalars where !ScalarProperties(scalar).isRemoved {
      kept.append(scalar)
    }
    var output = String()
    output.reserveCapacity(text.utf8.count)
    var scalars: [Unicode.Scalar] = []
    for cluster in String(kept) {
      scalars.removeAll(keepingCapacity: true)
      appendCapped(cluster, to: &scalars)
      appendAgreeing(scalars, to: &output)
    }
    return output
  }

  /// Decodes bytes from a file or the network, invalid UTF-8 becoming U+FFFD, and sanitises them.
  public static func sanitize(utf8 bytes: some Collection<UInt8>) -> String {
    sanitize(String(decoding: bytes, as: UTF8.self))
  }

  /// True when every byte is printable ASCII, LF or TAB: nothing to do.
  private static func isPlain(_ bytes: String.UTF8View) -> Bool {
    let plain = bytes.withContiguousStorageIfAvailable { buffer in
      buffer.allSatisfy { ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x0A || $0 == 0x09 }
    }
    return plain ?? bytes.allSatisfy { ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x0A || $0 == 0x09 }
  }

  /// The cluster's scalars without the combining marks past the cap.
  private static func appendCapped(_ cluster: Character, to scalars: inout [Unicode.Scalar]) {
    var marks = 0
    for scalar in cluster.unicodeScalars {
      if !scalars.isEmpty && ScalarProperties(scalar).isMark {
        marks += 1
        if marks > maximumMarksPerCluster { continue }
      }
      scalars.append(scalar)
    }
  }

  /// Appends the cluster, or the form of it on which the terminal and ncurses agree.
  private static func appendAgreeing(_ scalars: [Unicode.Scalar], to output: inout String) {
    let first = scalars[0]
    if first == "\n" || first == "\t" || ClusterWidth.agree(scalars) {
      output.unicodeScalars.append(contentsOf: scalars)
      return
    }
    let properties = ScalarProperties(first)
    let isEmoji = properties.isPictographic || ClusterWidth.isRegionalIndicator(first.value)
    var length = isEmoji ? 1 : scalars.count - 1
    while length > 0 {
      let prefix = scalars[..<length]
      if prefix.last != "\u{200D}" && ClusterWidth.agree(prefix) {
        output.unicodeScalars.append(contentsOf: prefix)
        return
      }
      length = isEmoji ? 0 : length - 1
    }
    output.unicodeScalars.append("\u{FFFD}")
  }
}
