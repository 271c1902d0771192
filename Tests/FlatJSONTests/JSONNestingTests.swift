import FlatJSON
import Testing

/// The depth check every deck line and server answer passes before a decoder sees it.
@Suite struct JSONNestingTests {
  @Test func nestingIsCountedOutsideStringsOnly() {
    #expect(!JSONNesting.exceeds(Array(#"{"a":"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}"#.utf8)))
    #expect(!JSONNesting.exceeds(Array(#"{"a":"\"[[["}"#.utf8), limit: 1))
    #expect(JSONNesting.exceeds(Array("[[1]]".utf8), limit: 1))
    #expect(!JSONNesting.exceeds(Array("[1][2][3]".utf8), limit: 1))
  }
}

extension JSONNestingTests {
  @Test func thirtyTwoLevelsPassAndThirtyThreeAreRefused() {
    for opening in ["[", "{\"a\":"] {
      let deepest = String(repeating: opening, count: JSONNesting.limit)
      #expect(!JSONNesting.exceeds(Array(deepest.utf8)), "\(opening)")
      #expect(JSONNesting.exceeds(Array((deepest + opening).utf8)), "\(opening)")
    }
  }

  @Test func closedBracketsGiveTheirLevelBack() {
    let siblings = Array(
      repeating: String(repeating: "[", count: 32) + String(repeating: "]", count: 32), count: 3)
    #expect(!JSONNesting.exceeds(Array(siblings.joined(separator: ",").utf8)))
  }
}
