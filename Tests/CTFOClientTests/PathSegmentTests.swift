import CTFOClient
import TestFixtures
import Testing

/// A card id in a request's path (`APIClient.pathSegment`): only RFC 3986's unreserved ASCII
/// goes as it is, every other byte of its UTF-8 as `%XX`, and decoding gives the id back, for
/// random ids of any script, emoji, controls and the path's own delimiters.
struct PathSegmentTests {
  static let pieces: [String] = [
    "a", "Z", "7", "-", ".", "_", "~", "/", "?", "#", "%", " ", "+", "é", "Ã", "ß", "ж", "中",
    "🦑", "👩‍👩‍👧", "\u{0}", "\u{1B}", "\u{7F}", "\u{85}", "\u{202E}", "\u{FEFF}", "..",
  ]

  /// The bytes a segment stands for (Foundation's decoding drops a leading BOM).
  static func decoded(_ segment: String) -> [UInt8]? {
    var bytes: [UInt8] = []
    var rest = segment.utf8[...]
    while let byte = rest.popFirst() {
      guard byte == UInt8(ascii: "%") else {
        bytes.append(byte)
        continue
      }
      guard rest.count >= 2, let value = UInt8(String(decoding: rest.prefix(2), as: UTF8.self), radix: 16)
      else { return nil }
      bytes.append(value)
      rest = rest.dropFirst(2)
    }
    return bytes
  }

  @Test func everyIdGoesAsUnreservedASCIIOrPercentAndComesBack() {
    var random = SeededGenerator(seed: 4_404)
    for _ in 0..<3_000 {
      let id = (0..<Int.random(in: 1...12, using: &random))
        .map { _ in Self.pieces.randomElement(using: &random)! }.joined()
      let segment = APIClient.pathSegment(id)
      let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~%".utf8)
      #expect(segment.utf8.allSatisfy { allowed.contains($0) }, "\(id.debugDescription) → \(segment)")
      #expect(Self.decoded(segment) == Array(id.utf8), "\(id.debugDescription) → \(segment)")
    }
  }
}
