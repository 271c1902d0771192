import App
import FeedCore
import TestFixtures
import Testing

/// `o` in the whole-card view opens the card's link, only when it is http or https.
@Suite struct OpenLinkTests {
  private func wholeCard(url: String?, reveal: String? = nil) -> AppState {
    let card = Card(
      id: "l1", type: "fact", title: "Grep", body: "Context lines.", source: "GNU", url: url,
      reveal: reveal)
    var state = Fixtures.showing(card)
    _ = state.reduce(.key(.enter))
    return state
  }

  @Test func oOpensAnHttpsLinkAndAFailureIsAMessage() {
    var state = wholeCard(url: "https://www.gnu.org/software/grep/")
    #expect(state.reduce(.key(.character("o"))) == [.openURL("https://www.gnu.org/software/grep/")])
    #expect(state.reduce(.urlOpened(failure: "xdg-open could not open the link (status 3)")) == [])
    #expect(state.message == "xdg-open could not open the link (status 3)")
    #expect(state.reduce(.urlOpened(failure: nil)) == [])
    #expect(state.message == nil)
  }

  @Test(arguments: ["file:///etc/passwd", "javascript:alert(1)", "-oProxyCommand=x"])
  func otherSchemesAreRefusedWithAMessage(url: String) {
    var state = wholeCard(url: url)
    #expect(state.reduce(.key(.character("o"))) == [])
    #expect(state.message == "Only http and https links are opened")
  }

  @Test func aCardWithoutALinkSaysSo() {
    var state = wholeCard(url: nil, reveal: "Because.")
    #expect(state.reduce(.key(.character("o"))) == [])
    #expect(state.message == "This card has no link")
  }

  @Test func aCardWithALinkHasMoreToShow() {
    let card = Card(id: "l1", type: "fact", body: "Short.", url: "https://example.org/")
    let prepared = Fixtures.prepared(card, width: 80, height: 24)
    #expect(ShownCard(prepared: prepared, position: 0).hasMore)
  }

  @Test func theLinkIsNeverOpenedFromTheCardFace() {
    var state = Fixtures.showing(
      Card(id: "t1", type: "trivia", body: "Capital?", url: "https://x.org/", reveal: "A"))
    #expect(state.reduce(.key(.character("o"))) == [])
  }

  @Test(arguments: [
    ("https://www.gnu.org/software/grep/", true), ("http://example.org", true),
    ("HTTPS://EXAMPLE.ORG/a?b#c", true), ("http://", false), ("https:///path", false),
    ("ftp://example.org/", false), ("file:///etc/passwd", false), ("", false),
    ("http://exa mple.org/", false), ("http://example.org/\u{1b}[2J", false),
    ("http://example.org/\n", false), ("-https://example.org", false),
    ("http://example.org/\u{202e}", false),
  ])
  func onlyHttpAndHttpsLinksWithAHostAreOpenable(url: String, openable: Bool) {
    #expect(WebLink.isOpenable(url) == openable)
  }
}
