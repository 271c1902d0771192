import FoundationEssentials
import TestFixtures
import Testing

@testable import CTFOWire

/// A bad element outside `cards` (a score, a removed id, a type, a notification, the user's
/// status) costs only itself, as a bad card does: left out and named, the rest of the pull
/// kept, whether the answer is decoded whole or in pieces.
@Suite struct BadPullElementsTests {
  static let pull = """
    {"cacheKey":"k","full":true,
     "types":[{"name":"news","label":"News"},{"label":"No name"},7],
     "cards":[{"id":"a","type":"news","body":"A."}],
     "removed":["gone",5,"also gone"],
     "scores":[{"cardId":"a","score":1.5,"scoredAt":10},{"cardId":5,"score":1,"scoredAt":1},
       {"cardId":"b","score":null,"scoredAt":1},{"cardId":"c","score":2},
       {"cardId":"d","score":3,"scoredAt":4}],
     "user":{"status":5,"notifications":[{"id":"n1","text":"Hello"},{"id":"n2"},
       {"id":5,"text":"x"},{"id":"n3","text":"x","createdAt":1.5},
       {"id":"n4","text":"Bye","expiresAt":9}]}}
    """

  @Test(arguments: [Int.max, 0])
  func eachBadElementIsLeftOutAndNamed(piecewise: Int) throws {
    let pull = try Wire.decodePull(Array(Self.pull.utf8), piecewise: piecewise)
    #expect(pull.types.map(\.name) == ["news"])
    #expect(pull.cards.map(\.id) == ["a"])
    #expect(pull.removed == ["gone", "also gone"])
    #expect(pull.scores.map(\.cardId) == ["a", "d"])
    #expect(pull.user?.status == nil)
    #expect(pull.user?.notifications.map(\.id) == ["n1", "n4"])
    #expect(
      pull.refused == [
        #"type 2 of the pull: no "name""#, "type 3 of the pull: not a type object",
        "the user's status: not a text", #"notification n2: no "text""#,
        #"notification 3 of the pull: a bad "id""#, "notification n3: a bad member",
        "removed id 2 of the pull: not an id",
        #"score 2 of the pull: a bad "cardId""#, #"the score of b: a bad "score""#,
        #"the score of c: no "scoredAt""#,
      ], "\(pull.refused)")
  }

  /// A user that is no object is left out; the pull is kept.
  @Test func aUserThatIsNoObjectIsLeftOut() throws {
    let pull = try Wire.decodePull(Array(#"{"cacheKey":"k","user":[1]}"#.utf8))
    #expect(pull.user == nil && pull.refused == ["the user: not a user object"])
  }

  /// What is not a pull at all is still refused whole.
  @Test func aPullWithoutItsCacheKeyIsRefused() {
    #expect(throws: Wire.Unreadable.self) {
      try Wire.decodePull(Array(#"{"scores":[]}"#.utf8))
    }
  }
}
