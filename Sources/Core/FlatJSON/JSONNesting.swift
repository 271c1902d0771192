/// How deeply a JSON text nests its arrays and objects, counted before any decoder sees it.
///
/// FoundationEssentials' JSON decoder traps (SIGILL) on a text of exactly 513 opening brackets,
/// one past its depth limit of 512, while it words the error's place: one deck line or one
/// server answer would then stop ctfo. Nothing ctfo reads nests deeper than a few levels, so a
/// text over `limit` is refused here, with no decoder involved.
///
///     JSONNesting.exceeds(Array("[[1]]".utf8), limit: 1)  // true
public enum JSONNesting {
  /// The deepest nesting ctfo's inputs are allowed: a deck line or a server answer.
  public static let limit = 32

  /// Whether `bytes` open more than `limit` arrays or objects at once (strings skipped).
  public static func exceeds(_ bytes: some Sequence<UInt8>, limit: Int = limit) -> Bool {
    var depth = 0
    var strings = JSONStrings()
    for byte in bytes where !strings.holds(byte) {
      switch byte {
      case UInt8(ascii: "["), UInt8(ascii: "{"):
        depth += 1
        if depth > limit { return true }
      case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
      default: break
      }
    }
    return false
  }
}
