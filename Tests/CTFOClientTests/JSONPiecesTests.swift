import FeedCore
import FoundationEssentials
import HTTP
import TestFixtures
import Testing

@testable import CTFOClient
@testable import CTFOWire

/// A large pull is decoded in pieces (yield points for the keys): the same pull as a
/// decode of the whole answer, and an error naming the same place.
@Suite struct JSONPiecesTests {
  static func answer(_ text: [UInt8]) -> HTTPResponse { HTTPResponse(status: 200, body: text) }

  @Test func aLargePullDecodesAsAWholeDecodeDoes() throws {
    let pull = WirePulls.pull(cards: 1000)
    let encoder = JSONEncoder()
    encoder.outputFormatting = .prettyPrinted  // white space between every token
    for text in [try encoder.encode(pull), try JSONEncoder().encode(pull)] {
      let bytes = Array(text)
      #expect(bytes.count >= APIClient.piecewiseSize)
      let pieces = try #require(
        JSONPieces.split(bytes, arrays: ["cards", "scores", "removed"], limit: 32))
      #expect(pieces.elements["cards"]?.count == 1000 && pieces.elements["removed"]?.count == 150)
      #expect(try APIClient.decodePull(Self.answer(bytes)) == pull)
      #expect(try APIClient.decodePull(Self.answer(bytes), piecewise: .max) == pull)
    }
  }

  @Test func emptyAndMissingArraysStayEmpty() throws {
    let text = Array(#"{ "cacheKey" : "k", "full":false, "cards" : [ ] , "types":[]}"#.utf8)
    let pull = try APIClient.decodePull(Self.answer(text), piecewise: 0)
    #expect(pull == Wire.Pull(cacheKey: "k", full: false))
  }

  /// A bad card is left out and named by its place in the whole array, both ways.
  @Test func aBadCardIsNamedByItsPlaceBothWays() throws {
    let text = String(decoding: try JSONEncoder().encode(WirePulls.pull(cards: 300)), as: UTF8.self)
      .replacing(#""id":"c200""#, with: #""id":200"#)
    let bytes = Array(text.utf8)
    let whole = try APIClient.decodePull(Self.answer(bytes), piecewise: .max)
    #expect(try APIClient.decodePull(Self.answer(bytes)) == whole)
    #expect(whole.refused == [#"card 201 of the pull: a bad "id""#] && whole.cards.count == 299)
  }

  /// A bad score or removed id is left out and named by its place in the whole array, both
  /// ways, as a bad card is.
  @Test(arguments: ["scores", "removed"])
  func aBadElementIsNamedAsTheWholeDecodeNamesIt(array: String) throws {
    var text = String(decoding: try JSONEncoder().encode(WirePulls.pull(cards: 300)), as: UTF8.self)
    let bad = array == "scores" ? #""cardId":"c200""# : #""gone,130]""#
    let broken = array == "removed" ? "130" : bad.replacing("\"c200\"", with: "200")
    text = text.replacing(bad, with: broken)
    let bytes = Array(text.utf8)
    let whole = try APIClient.decodePull(Self.answer(bytes), piecewise: .max)
    #expect(try APIClient.decodePull(Self.answer(bytes)) == whole)
    #expect(
      whole.refused == [
        array == "scores"
          ? #"score 201 of the pull: a bad "cardId""# : "removed id 131 of the pull: not an id"
      ])
    #expect(whole.scores.count + whole.removed.count == 300 + 150 - 1)
  }

  /// What the splitter does not take for one object is decoded whole, with the same outcome
  /// (FoundationEssentials' decoder takes a trailing comma and a repeated key).
  @Test(arguments: [
    #"{"cacheKey":"k","cards":[{"id":"a","type":"t","body":"b"},]}"#,
    #"{"cacheKey":"k","cards":[{"id":"a","type":"t","body":"b"}] x"#,
    #"{"cacheKey":"k","cards":[],"cards":[{"id":"a","type":"t","body":"b"}]}"#,
    #"{"cacheKey":"k","cards":[{"id":"a","type":"t","body":"b"}"#,
    #"{"cacheKey":"k","cards":["unterminated]}"#,
    #"[{"cacheKey":"k"}]"#,
    #"{"cacheKey":"k","cards":[],"c\u0061rds":[{"id":"a","type":"t","body":"b"}]}"#,
    #"{"cacheKey":"k","cards":[1[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]}"#,
    #"{"cacheKey":"k","cards":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}"#,
  ])
  func whatItCannotSplitIsDecodedWhole(text: String) {
    let bytes = Array(text.utf8)
    #expect(JSONPieces.split(bytes, arrays: ["cards"], limit: 32) == nil)
    func outcome(_ piecewise: Int) -> String {
      do { return "\(try APIClient.decodePull(Self.answer(bytes), piecewise: piecewise))" } catch {
        return "\(error)"
      }
    }
    #expect(outcome(0) == outcome(.max))
  }

  /// Strings that hold brackets, commas, quotes and backslashes split at the right places.
  @Test func elementsAreTheirExactText() throws {
    let elements = [#""a]\"\\""#, #"{"x":[1,{"y":"}"}]}"#, "12.5e3", "null", #"["[", "]"]"#]
    let text = Array((#"{"other":{"cards":[1]},"cards":[ "# + elements.joined(separator: " ,\n") + "\t]}").utf8)
    let pieces = try #require(JSONPieces.split(text, arrays: ["cards"], limit: 32))
    #expect(pieces.elements["cards"]!.map { String(decoding: text[$0], as: UTF8.self) } == elements)
    #expect(String(decoding: pieces.envelope, as: UTF8.self) == #"{"other":{"cards":[1]},"cards":[]}"#)
  }
}
