import App
import FeedCore
import TestFixtures
import Testing

/// `y` copies the card on the feed, or in its whole view: title, text, source and link,
/// sanitised, at most 8 KiB; `clipboard = false` turns it off and says so.
@Suite struct CopyKeyTests {
  let card = Card(
    id: "c1", type: "fact", title: "Grep\u{1B}[2J", body: "Context\u{7} lines.\nTwo.",
    source: "GNU", url: "https://www.gnu.org/software/grep/")

  @Test func yCopiesTheCardOnTheFeedAndInItsWholeView() {
    var state = Fixtures.showing(card)
    let text = "Grep[2J\n\nContext lines.\nTwo.\n\nGNU\n\nhttps://www.gnu.org/software/grep/"
    #expect(ClipboardText.of(card) == text)
    #expect(state.reduce(.key(.character("y"))) == [.copy(text)])
    #expect(state.message == "Copied the card to the clipboard (\(text.utf8.count) bytes)")
    _ = state.reduce(.key(.enter))
    #expect(state.reduce(.key(.character("y"))) == [.copy(text)])
  }

  @Test func clipboardFalseCopiesNothingAndSaysSo() {
    var state = Fixtures.showing(card, clipboard: false)
    #expect(state.reduce(.key(.character("y"))) == [])
    #expect(state.message == "Copying is off (clipboard = false in config.toml)")
  }

  @Test func aLongCardIsCutToEightKiBBetweenTwoCharacters() {
    let long = Card(id: "c2", type: "fact", body: String(repeating: "a👍", count: 4000))
    let text = ClipboardText.of(long)
    #expect(text.utf8.count <= ClipboardText.maxBytes)
    #expect(text.utf8.count > ClipboardText.maxBytes - 4)
    #expect(long.body.hasPrefix(text))
  }
}
