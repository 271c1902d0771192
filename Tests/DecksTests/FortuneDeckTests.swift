import FeedCore
import Foundation
import TestFixtures
import Testing

@testable import Decks

/// fortune's cookie files as decks, against Debian's `fortunes-min` (`make test` installs it)
/// and files written here with an index built as `strfile` builds it.
@Suite struct FortuneDeckTests {
  static let fortunes = "/usr/share/games/fortunes"

  /// The cookie file and its `.dat` as strfile writes them: a big-endian header, the offset of
  /// each cookie, the file's length last.
  static func write(
    _ cookies: [String], to folder: TemporaryFolder, _ name: String, index: Bool = true,
    flags: UInt32 = 0
  ) throws -> String {
    var text: [UInt8] = []
    var offsets: [UInt32] = []
    for cookie in cookies {
      offsets.append(UInt32(text.count))
      text += Array(cookie.utf8) + Array("\n%\n".utf8)
    }
    offsets.append(UInt32(text.count))
    let path = folder.path(name)
    try Data(text).write(to: URL(fileURLWithPath: path))
    if index {
      try Data(strfileIndex(offsets: offsets, flags: flags)).write(
        to: URL(fileURLWithPath: path + ".dat"))
    }
    return path
  }

  static func strfileIndex(offsets: [UInt32], flags: UInt32 = 0) -> [UInt8] {
    func word(_ value: UInt32) -> [UInt8] {
      [
        UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF),
        UInt8(value & 0xFF),
      ]
    }
    let lengths = zip(offsets, offsets.dropFirst()).map { $1 - $0 }
    return word(2) + word(UInt32(offsets.count - 1)) + word(lengths.max() ?? 0)
      + word(lengths.min() ?? 0) + word(flags) + [UInt8(ascii: "%"), 0, 0, 0]
      + offsets.flatMap(word)
  }

  @Test func debiansRiddlesAreOneTypeOfCardsTitledByTheirFirstLines() throws {
    let contents = try FortuneDeck.read("\(Self.fortunes)/riddles")
    #expect(contents.usedIndex && contents.problems.isEmpty)
    #expect(
      contents.type == CardType(name: "riddles", label: "Riddles", description: "fortune: riddles"))
    #expect(contents.cards.count == 128)
    let first = try #require(contents.cards.first)
    #expect(first.line == 1)
    #expect(first.card.title == "FORTUNE PROVIDES QUESTIONS FOR THE GREAT ANSWERS: #13")
    #expect(
      first.card.body == "A:\tDoc, Happy, Bashful, Dopey, Sneezy, Sleepy, & Grumpy\n"
        + "Q:\tWho were the Democratic presidential candidates?")
    #expect(first.card.source == "fortune: riddles")
    #expect(contents.cards[1].line == 5)
    #expect(Set(contents.cards.map(\.card.id)).count == 128)
  }

  @Test func attributionLinesBecomeTheSource() throws {
    let contents = try FortuneDeck.read("\(Self.fortunes)/literature")
    #expect(contents.problems.isEmpty)
    let banker = try #require(contents.cards.first { $0.card.body.hasPrefix("A banker") })
    #expect(banker.card.source == "Mark Twain")
    // A wrapped paragraph is not cut into a title and the rest.
    #expect(banker.card.title == nil)
    #expect(
      banker.card.body == "A banker is a fellow who lends you his umbrella when the sun is "
        + "shining\nand wants it back the minute it begins to rain.")
    let horse = try #require(contents.cards.first { $0.card.body.hasPrefix("A horse!") })
    #expect(horse.card.source == "Wm. Shakespeare, \"Richard III\"")
    let classic = try #require(contents.cards.first { $0.card.body.hasPrefix("A classic") })
    #expect(classic.card.source == "Mark Twain, \"The Disappearance of Literature\"")
    // A `-- by` line in the middle of a cookie is its text, not an attribution.
    let lite = try #require(
      contents.cards.first { $0.card.body.hasPrefix("A Tale of Two Cities LITE(tm)") })
    #expect(lite.card.body.contains("-- by Charles Dickens"))
  }

  /// Every Debian file reads to the same cards with its index and without: the index only
  /// splits the text faster.
  @Test(arguments: ["fortunes", "literature", "riddles", "riddles.u8"])
  func theIndexSplitsTheTextAsItsLinesDo(name: String) throws {
    let folder = try TemporaryFolder("ctfo-fortune")
    let copy = folder.path(FortuneDeck.baseName(of: name))
    // The bytes, not a link: `riddles.u8` is a link to `riddles`.
    try Data(contentsOf: URL(fileURLWithPath: "\(Self.fortunes)/\(name)")).write(
      to: URL(fileURLWithPath: copy))
    let indexed = try FortuneDeck.read("\(Self.fortunes)/\(name)")
    let plain = try FortuneDeck.read(copy)
    #expect(indexed.usedIndex && !plain.usedIndex)
    #expect(indexed.cards.map(\.card) == plain.cards.map(\.card))
    #expect(indexed.cards.map(\.line) == plain.cards.map(\.line))
    #expect(indexed.hash == plain.hash)
  }

  @Test func aStaleIndexIsSaidAndTheTextReadWithoutIt() throws {
    let folder = try TemporaryFolder("ctfo-fortune")
    let path = folder.path("riddles")
    try FileManager.default.copyItem(atPath: "\(Self.fortunes)/riddles", toPath: path)
    try FileManager.default.copyItem(atPath: "\(Self.fortunes)/riddles.dat", toPath: path + ".dat")
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data("A new riddle?\nwith its answer\n%\n".utf8))
    try handle.close()
    let contents = try FortuneDeck.read(path)
    #expect(!contents.usedIndex && contents.cards.count == 129)
    #expect(contents.problems.map(\.path) == [path + ".dat"])
    #expect(contents.problems.first?.message.contains("stale") == true)
    #expect(contents.cards.last?.card.title == "A new riddle?")
  }

  /// Random cookies written with and without an index read back as written: text, title,
  /// attribution, and the line each starts on.
  @Test func randomCookiesReadBackAsWritten() throws {
    var random = SeededGenerator(seed: 47)
    let words = ["tea", "Zebra", "naïve", "日本", "a--b", "%%", "x\ty", "  indented", "Q:", "é"]
    for round in 0..<40 {
      var cookies: [(text: String, lines: [String], by: String?)] = []
      for _ in 0..<Int.random(in: 1...30, using: &random) {
        let lines = (0..<Int.random(in: 1...5, using: &random)).map { _ in
          (0..<Int.random(in: 1...6, using: &random)).map { _ in
            words.randomElement(using: &random)!
          }.joined(separator: " ")
        }.map { $0 == "%" ? "%%" : $0 }
        let by =
          Bool.random(using: &random) ? "Author \(Int.random(in: 0...9, using: &random))" : nil
        let text = (lines + (by.map { ["\t\t-- \($0)"] } ?? [])).joined(separator: "\n")
        cookies.append((text, lines, by))
      }
      let folder = try TemporaryFolder("ctfo-fortune")
      let withIndex = try Self.write(cookies.map(\.text), to: folder, "a\(round)")
      let without = try Self.write(cookies.map(\.text), to: folder, "b\(round)", index: false)
      let a = try FortuneDeck.read(withIndex)
      let b = try FortuneDeck.read(without)
      #expect(a.usedIndex && !b.usedIndex)
      #expect(a.cards.map(\.card.body) == b.cards.map(\.card.body))
      var line = 1
      for (cookie, read) in zip(cookies, a.cards) {
        #expect(read.line == line)
        line += cookie.text.split(separator: "\n", omittingEmptySubsequences: false).count + 1
        let whole = [read.card.title, read.card.body].compactMap { $0 }.joined(separator: "\n")
        let expected = cookie.lines.map {
          $0.trimmingCharacters(in: .whitespaces).isEmpty ? "" : $0
        }
        #expect(
          whole.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            == expected.joined(separator: "\n").split(separator: "\n").map {
              $0.trimmingCharacters(in: .whitespaces)
            }, "round \(round)")
        #expect(read.card.source == (cookie.by ?? "fortune: a\(round)"))
      }
      #expect(a.cards.count == cookies.count)
    }
  }

  @Test func rotatedFilesAreReadAsPlainText() throws {
    let folder = try TemporaryFolder("ctfo-fortune")
    let path = try Self.write(
      ["Jul qvq gur puvpxra pebff gur ebnq?\nGb trg gb gur bgure fvqr."], to: folder, "off",
      flags: FortuneIndex.rotated)
    let card = try #require(try FortuneDeck.read(path).cards.first?.card)
    #expect(card.title == "Why did the chicken cross the road?")
    #expect(card.body == "To get to the other side.")
  }

  @Test func overstrikesLatin1AndRepeatsAreCleanedUp() throws {
    let folder = try TemporaryFolder("ctfo-fortune")
    let path = folder.path("old")
    let bytes: [UInt8] =
      Array("It's a very *__\u{8}\u{8}UN*lucky week.\n%\nCaf".utf8) + [0xE9] + Array("\n%\n".utf8)
      + Array("Same\n%\nSame\n%\n".utf8)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let cards = try FortuneDeck.read(path).cards.map(\.card)
    #expect(cards.map(\.body) == ["It's a very *UN*lucky week.", "Café", "Same", "Same"])
    #expect(cards[3].id == cards[2].id + "-2")
  }

  @Test func deckCheckReadsFortuneFilesAsDecks() throws {
    let report = DeckCheck.check(["\(Self.fortunes)/riddles", "\(Self.fortunes)/fortunes"])
    #expect(report.problems == [])
    #expect(report.types == ["riddles": 128, "fortunes": 431])
  }

  @Test func theFormatIsToldByNameIndexOrFirstCharacter() throws {
    let folder = try TemporaryFolder("ctfo-fortune")
    let json = try folder.deck("cards", [cardLine("a")])
    let cookies = try folder.deck("sayings", ["One", "%", "Two"])
    #expect(DeckFormat.of(json) == .jsonLines)
    #expect(DeckFormat.of(cookies) == .fortune)
    #expect(DeckFormat.of("\(Self.fortunes)/riddles") == .fortune)
    #expect(DeckFormat.of("\(Self.fortunes)/riddles.u8") == .fortune)
  }

  @Test func theDecksFolderListsFortuneFilesOnce() throws {
    let folder = try TemporaryFolder("ctfo-fortune")
    try folder.deck("a.jsonl", [cardLine("a")])
    _ = try Self.write(["One", "Two"], to: folder, "riddles")
    try FileManager.default.createSymbolicLink(
      atPath: folder.path("riddles.u8"), withDestinationPath: "riddles")
    try folder.deck("mine.u8", ["Three", "%", "Four"])
    try folder.deck("README", ["not a deck"])
    try folder.deck(".riddles.swp", ["x"])
    let root = folder.url.path
    #expect(
      DeckFolders.decks(in: root) == ["a.jsonl", "mine.u8", "riddles"].map { "\(root)/\($0)" })
    #expect(DeckFolders.deckPath(ofName: "riddles.dat", in: root) == "\(root)/riddles")
    #expect(DeckFolders.deckPath(ofName: "riddles.u8", in: root) == "\(root)/riddles")
    #expect(DeckFolders.deckPath(ofName: "README", in: root) == nil)
    #expect(DeckFolders.deckPath(ofName: ".riddles.swp", in: root) == nil)
  }

  @Test func aBadIndexIsSaidAndNotTrusted() throws {
    let folder = try TemporaryFolder("ctfo-fortune")
    let path = try Self.write(["One", "Two"], to: folder, "x")
    try Data([1, 2, 3]).write(to: URL(fileURLWithPath: path + ".dat"))
    let contents = try FortuneDeck.read(path)
    #expect(contents.cards.map(\.card.body) == ["One", "Two"])
    #expect(contents.problems.map(\.path) == [path + ".dat"])
  }
}
