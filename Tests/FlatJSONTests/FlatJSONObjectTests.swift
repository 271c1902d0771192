import FlatJSON
import Testing

/// The one-pass reader of flat JSON objects: the values of known keys, or nil for anything it
/// leaves to a full decoder.
@Suite struct FlatJSONObjectTests {
  private let keys = FlatJSONObject.keys(["id", "n", "ok", "gone", "missing"])

  private func values(_ text: String, repairing: Bool = false) -> [FlatJSONObject.Value?]? {
    Array(text.utf8).withUnsafeBytes {
      FlatJSONObject.values(of: keys, in: $0, repairingUTF8: repairing)
    }
  }

  @Test func aFlatObjectGivesEachKnownKeysValue() {
    #expect(
      values(#" {"n": -42, "id": "a\"1\\\n", "ok": true, "gone": null, "other": "x"} "#) == [
        .string("a\"1\\\n"), .integer(-42), .bool(true), .null, nil,
      ])
    #expect(values("{}") == [nil, nil, nil, nil, nil])
  }

  @Test(arguments: [
    #"{"id": {"a": 1}}"#, #"{"id": [1]}"#, #"{"other": [1]}"#, #"{"other": 1}"#,
    #"{"n": 1.5}"#, #"{"n": 1e3}"#, #"{"n": 01}"#, #"{"n": -0}"#, #"{"n": 1234567890123456789}"#,
    #"{"id": "\u0041"}"#, #"{"id": "a", "id": "b"}"#, #"{"i\u0064": "a"}"#, #"{"id": "a"} x"#,
    #"{"id": "a""#, #"["id"]"#, "{\"id\": \"tab\there\"}",
  ])
  func anythingElseIsLeftToTheDecoder(text: String) {
    #expect(values(text) == nil, "\(text)")
  }

  @Test func textThatIsNotUTF8IsLeftToTheDecoderUnlessRepaired() {
    let bytes: [UInt8] = Array(#"{"id": "a"#.utf8) + [0xFF] + Array(#""}"#.utf8)
    let strict = bytes.withUnsafeBytes { FlatJSONObject.values(of: keys, in: $0) }
    #expect(strict == nil)
    let repaired = bytes.withUnsafeBytes {
      FlatJSONObject.values(of: keys, in: $0, repairingUTF8: true)
    }
    #expect(repaired?.first == .string("a\u{FFFD}"))
  }

  @Test func textOfAValueIsAStringOrNullAndNothingElse() {
    #expect(FlatJSONObject.Value.text(.string("a")) == .some("a"))
    #expect(FlatJSONObject.Value.text(.null) == .some(nil))
    #expect(FlatJSONObject.Value.text(nil) == .some(nil))
    #expect(FlatJSONObject.Value.text(.integer(1)) == nil)
  }
}
