import App
import CardText
import FeedCore
@testable import Screens
import TestFixtures
import Testing

/// `--ascii`: the feed, the whole card, the help and a slide-out of an ASCII card draw no
/// character above 0x7F, at every size; the same screens without it do draw box lines.
@Suite struct AsciiChromeTests {
  private func screens(ascii: Bool, width: Int, height: Int) -> [(String, CellGrid)] {
    var feed = Fixtures.showing(Fixtures.asciiCard, width: width, height: height, ascii: ascii)
    var states = [("feed", feed)]
    var whole = feed
    _ = whole.reduce(.key(.enter))
    states.append(("whole card", whole))
    var help = feed
    _ = help.reduce(.key(.character("?")))
    states.append(("help", help))
    _ = feed.reduce(.key(.right))
    states.append(("slide-out", feed))
    return states.map { name, state in
      var grid = CellGrid(width: width, height: height)
      AppScreen.render(state, into: &grid, colour: true)
      return (name, grid)
    }
  }

  @Test(arguments: [(80, 24), (40, 12), (200, 60)])
  func anAsciiCardDrawsOnlyAscii(width: Int, height: Int) {
    for (name, grid) in screens(ascii: true, width: width, height: height) {
      let wide = grid.cells.compactMap(\.cluster).filter { !$0.isASCII }
      #expect(wide.isEmpty, "\(name) at \(width)x\(height): \(String(wide))")
    }
    let plain = screens(ascii: false, width: width, height: height)
    #expect(plain[0].1.cells.contains { $0.cluster == "│" }, "the feed without --ascii")
  }

  @Test func eachGlyphFoldsToOneCharacterOfTheSameWidth() {
    for glyph in "┌┐└┘─│├┤┬┴┼═║→←↑↓…·•“”‘’–—" {
      let folded = AsciiChrome.folded(glyph)
      #expect(folded?.isASCII == true, "\(glyph)")
    }
    #expect(AsciiChrome.folded("日") == nil && AsciiChrome.folded("a") == nil)
  }
}
