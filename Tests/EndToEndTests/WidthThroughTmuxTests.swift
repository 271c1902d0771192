import Foundation
import TestFixtures
import Testing

/// The width rule through the real terminal: cards made of every kind of cluster the
/// sanitiser lets through (scripts, marks, emoji sequences, flags, keycaps, tags, format
/// characters next to letters), drawn by the release binary's ncurses inside tmux at two sizes.
/// On every screen the card's borders sit in one column of tmux's grid on every row, found
/// with tmux's copy mode (the cells as the terminal drew them). A cluster drawn wider or
/// narrower than ncurses counted shifts the rest of its row, and its border with it.
@Suite struct WidthThroughTmuxTests {
  @Test(arguments: [(80, 24), (41, 14)])
  func everyBorderStaysInItsColumn(width: Int, height: Int) async throws {
    let seed =
      ProcessInfo.processInfo.environment["CTFO_WIDTH_SEED"].flatMap(UInt64.init)
      ?? UInt64.random(in: 1...UInt64(UInt32.max))
    let cards = 30
    let app = try AppUnderTest(
      deck: ClusterDeck.make(cards: cards, seed: seed), width: width, height: height)
    defer { app.stop() }
    var seen: Set<String> = []
    var previous: String?
    for _ in 0..<cards {
      let screen = try await app.tmux.waitFor("a card after \(previous ?? "none")") { screen in
        ClusterDeck.marker(in: screen).map { $0 != previous } ?? false
      }
      let marker = ClusterDeck.marker(in: screen)!
      // A frame may be caught half drawn: poll until it is whole, and fail with what is wrong.
      var problems: [String] = []
      var last: [String] = []
      do {
        try await Poll.until("\(marker) drawn whole", seconds: 5) {
          last = try app.tmux.screen()
          problems = try BoxColumns.problems(app.tmux, last, width: width)
          // The same frame before and after the measure: not one caught while it changed.
          let after = try app.tmux.screen()
          return problems.isEmpty && ClusterDeck.marker(in: last) == marker && after == last
        }
      } catch {
        let shown = last.joined(separator: "\n")
        Issue.record(
          "seed \(seed) (CTFO_WIDTH_SEED), card \(marker) at \(width)x\(height): \(problems)\n\(shown)"
        )
        return
      }
      seen.insert(marker)
      previous = marker
      try app.tmux.send("Right")
    }
    #expect(seen.count == cards, "seed \(seed): every card came up once")
  }
}

extension WidthThroughTmuxTests {
  /// The measure itself: a box printed by a program that counts a ZWJ family as ncurses does
  /// (6 columns: the C library's width of each scalar) while tmux draws it in 2. The row's right
  /// side lands 4 columns left of the box's, and the measure says so; the plain rows pass.
  @Test func theMeasureSeesABorderThatDrifted() async throws {
    let family = "👨\u{200D}👩\u{200D}👧"
    let box = [
      " ┌────────┐", " │abcdefgh│", " │\(family)  │", " │漢字ab  │", " └────────┘",
    ]
    let script = box.map { "\($0)\\n" }.joined()
    let tmux = try TmuxDriver(command: "printf '\(script)'; exec sleep 600", width: 30, height: 8)
    defer { tmux.kill() }
    let screen = try await tmux.waitFor(text: "└")
    let problems = try BoxColumns.problems(tmux, screen, width: 30)
    #expect(problems.count == 1, "\(problems)")
    #expect(problems.first?.hasPrefix("row 2: │ at [1, 6], the box's sides at 1, 10") == true)
  }
}

/// Where the card's borders stand in tmux's grid, and what is wrong with them.
enum BoxColumns {
  static func problems(_ tmux: TmuxDriver, _ screen: [String], width: Int) throws -> [String] {
    guard let top = screen.firstIndex(where: { $0.contains("┌") }),
      let bottom = screen[(top + 1)...].firstIndex(where: { $0.contains("└") })
    else { return ["no card box"] }
    let corners = try tmux.columns(of: "┌", rows: [top], most: 1)[top] ?? []
    let ends = try tmux.columns(of: "┐", rows: [top], most: 1)[top] ?? []
    guard let left = corners.first, let right = ends.first else { return ["no ┌…┐ on row \(top)"] }
    var problems: [String] = []
    if right >= width { problems.append("┐ at column \(right) of \(width)") }
    let sides = try tmux.columns(of: "│", rows: Array((top + 1)..<bottom))
    for row in (top + 1)..<bottom where sides[row] != [left, right] {
      problems.append(
        "row \(row): │ at \(sides[row] ?? []), the box's sides at \(left), \(right): \(screen[row])"
      )
    }
    let bottomLeft = try tmux.columns(of: "└", rows: [bottom], most: 1)[bottom] ?? []
    let bottomRight = try tmux.columns(of: "┘", rows: [bottom], most: 1)[bottom] ?? []
    if bottomLeft != [left] || bottomRight != [right] {
      problems.append("└┘ at \(bottomLeft), \(bottomRight) under ┌┐ at \(left), \(right)")
    }
    return problems
  }
}

/// A deck of cards made of generated clusters, each titled with an ASCII marker "Cnn".
enum ClusterDeck {
  /// Every kind of cluster the sanitiser may meet, and forms it must replace.
  static let pieces: [String] = [
    // Latin, marks, stacked marks
    "plain", "café", "e\u{301}", "a\u{308}\u{304}", "n\u{303}\u{323}\u{30A}", "Å", "ﬁ",
    // East Asian: wide, halfwidth, fullwidth, Hangul syllables and conjoining jamo
    "漢字", "ｶﾀｶﾅ", "ＡＢＣ", "한국어", "\u{1100}\u{1161}\u{11A8}", "𠀋", "〜",
    // Emoji: presentation, modifiers, ZWJ chains, flags, lone indicators, keycaps, tags, VS
    "😀", "👍🏽", "👨\u{200D}👩\u{200D}👧", "🧑\u{200D}💻", "🇬🇧", "🇯🇵🇫🇷", "🇬", "1\u{FE0F}\u{20E3}",
    "#\u{20E3}", "🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}", "❤\u{FE0F}",
    "☺\u{FE0E}", "©\u{FE0F}", "⌚", "☔", "⚡", "⌨", "🫠", "🪿", "🏳\u{FE0F}\u{200D}🌈",
    // Indic conjuncts, Thai, Arabic, Hebrew with points, Tamil
    "क्षत्रिय", "हिन्दी", "தமிழ்", "ภาษาไทย", "العربية", "שָׁלוֹם", "ཀྵ",
    // Format characters next to letters: ZWJ, ZWNJ, ZWSP, soft hyphen, word joiner, bidi marks
    "zero\u{200D}width", "a\u{200C}b", "a\u{200B}b", "soft\u{00AD}hyphen", "w\u{2060}j",
    "x\u{200E}y", "\u{202E}rtl", "tab\tin", "\u{FEFF}bom", "a\u{034F}b",
    // Symbols
    "…", "—", "№", "Ⅻ", "𝔸", "𓀀", "┃", "\u{2028}",
  ]

  static func make(cards: Int, seed: UInt64) -> String {
    var random = SeededGenerator(seed: seed)
    let header = #"{"deck":"w","types":{"w":{"label":"Width","colour":"cyan"}}}"#
    var lines = [header]
    for i in 0..<cards {
      func text(_ count: Int) -> String {
        (0..<count).map { _ in
          let piece = pieces[Int(random.next() % UInt64(pieces.count))]
          return random.next() % 3 == 0 ? piece : piece + " "
        }.joined()
      }
      let marker = "C" + (i < 10 ? "0\(i)" : "\(i)")
      let card: [String: String] = [
        "id": marker, "type": "w", "title": "\(marker) " + text(4), "body": text(12),
      ]
      let data = try! JSONSerialization.data(withJSONObject: card, options: [.sortedKeys])
      lines.append(String(decoding: data, as: UTF8.self))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The marker of the card on screen, when the feed shows one.
  static func marker(in screen: [String]) -> String? {
    guard screen.contains(where: { $0.contains("→ TFU") }) else { return nil }
    for row in screen {
      if let range = row.range(of: #"C\d\d"#, options: .regularExpression) {
        return String(row[range])
      }
    }
    return nil
  }
}
