import Foundation
import Testing

/// The bundled decks (Resources/decks/*.jsonl) as data: every line parses, ids are unique, links
/// are well-formed https, no trivia card gives its answer away before it is revealed, and past
/// corrections of the cards stay made.
@Suite struct DeckContentTests {
  struct Card {
    var file: String
    var line: Int
    var fields: [String: Any]
    var id: String { fields["id"] as? String ?? "" }
    var type: String { fields["type"] as? String ?? "" }
    subscript(key: String) -> String { fields[key] as? String ?? "" }
    /// Every text field, for checks that look at the whole card.
    var text: String {
      ["title", "body", "source", "reveal"].map { self[$0] }.joined(separator: "\n")
    }
  }

  static let decksDirectory: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Resources/decks")

  static func deckFiles() throws -> [URL] {
    try FileManager.default.contentsOfDirectory(at: decksDirectory, includingPropertiesForKeys: nil)
      .filter { $0.pathExtension == "jsonl" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
  }

  /// Every line of every deck: a header (`deck`, `types`) or a card. Lines that are not JSON
  /// objects are returned in `bad` as FILE:LINE.
  static func load() throws -> (cards: [Card], bad: [String]) {
    var cards: [Card] = []
    var bad: [String] = []
    for file in try deckFiles() {
      let text = try String(contentsOf: file, encoding: .utf8)
      for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated()
      {
        if line.isEmpty { continue }
        let name = "\(file.lastPathComponent):\(index + 1)"
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)),
          let fields = object as? [String: Any]
        else {
          bad.append(name)
          continue
        }
        if fields["types"] != nil && fields["id"] == nil { continue }  // the header
        cards.append(Card(file: file.lastPathComponent, line: index + 1, fields: fields))
      }
    }
    return (cards, bad)
  }

  static func card(_ id: String) throws -> Card {
    try #require(try load().cards.first { $0.id == id }, "no card \(id)")
  }

  @Test func decksAreFound() throws {
    #expect(try Self.deckFiles().count >= 6)
    #expect(try Self.load().cards.count > 600)
  }

  @Test func everyLineIsACardWithTheRequiredFields() throws {
    let (cards, bad) = try Self.load()
    #expect(bad.isEmpty, "lines that are not JSON objects: \(bad)")
    let incomplete = cards.filter { card in
      ["id", "type", "body"].contains { (card.fields[$0] as? String)?.isEmpty ?? true }
    }
    #expect(
      incomplete.isEmpty,
      "cards without id, type or body: \(incomplete.map { "\($0.file):\($0.line)" })")
    let notText = cards.filter { card in
      ["title", "source", "url", "reveal"].contains {
        card.fields[$0] != nil && !(card.fields[$0] is String)
      }
    }
    #expect(notText.isEmpty, "optional fields that are not strings: \(notText.map(\.id))")
  }

  @Test func idsAreUniqueAcrossDecks() throws {
    let ids = try Self.load().cards.map(\.id)
    let repeated = Dictionary(grouping: ids, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
    #expect(repeated.isEmpty, "ids used more than once: \(repeated)")
  }

  /// https, a host with a dot, no spaces, and URLComponents accepts it.
  static func isWellFormedHTTPS(_ url: String) -> Bool {
    guard !url.contains(where: { $0.isWhitespace }),
      url.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7f }),
      let components = URLComponents(string: url), components.scheme == "https",
      let host = components.host, host.contains("."), !host.hasPrefix("."), !host.hasSuffix("."),
      components.user == nil, components.password == nil
    else { return false }
    return true
  }

  @Test func urlCheckRejectsWhatItShould() {
    #expect(Self.isWellFormedHTTPS("https://en.wikipedia.org/wiki/Platypus"))
    #expect(Self.isWellFormedHTTPS("https://man7.org/linux/man-pages/man1/shuf.1.html"))
    #expect(Self.isWellFormedHTTPS("https://en.wiktionary.org/wiki/%C3%BCberm%C3%A4%C3%9Fig"))
    #expect(!Self.isWellFormedHTTPS("http://en.wikipedia.org/wiki/Platypus"))
    #expect(!Self.isWellFormedHTTPS("https://localhost/x"))
    #expect(!Self.isWellFormedHTTPS("https://en.wikipedia.org/wiki/Mount Everest"))
    #expect(!Self.isWellFormedHTTPS("https://en.wiktionary.org/wiki/übermäßig"))
    #expect(!Self.isWellFormedHTTPS("en.wikipedia.org/wiki/Platypus"))
    #expect(!Self.isWellFormedHTTPS(""))
  }

  @Test func everyURLIsWellFormedHTTPS() throws {
    let cards = try Self.load().cards
    let bad = cards.filter { $0.fields["url"] != nil && !Self.isWellFormedHTTPS($0["url"]) }
    #expect(bad.isEmpty, "bad urls: \(bad.map { "\($0.id): \($0["url"])" })")
  }

  /// Facts, trivia, words and tips link to their source. Not every card
  /// has a page to link to, so this asks for most of them, not all.
  @Test(arguments: ["fact", "trivia", "word", "tip"])
  func mostReferenceCardsHaveAURL(type: String) throws {
    let cards = try Self.load().cards.filter { $0.type == type }
    let linked = cards.filter { !$0["url"].isEmpty }
    #expect(
      linked.count * 10 >= cards.count * 8,
      "\(type): \(linked.count) of \(cards.count) cards have a url")
  }

  // MARK: Trivia faces

  /// Words that say nothing about an answer, or that a question must name to be asked at all
  /// ("Which king of Korea…", "What is the name of the captain…").
  static let stopWords: Set<String> = [
    "the", "that", "this", "with", "from", "which", "what", "their", "there", "them", "they",
    "have", "were", "been", "also", "about", "into", "than", "then", "only", "king", "captain",
    "empire", "strait",
  ]

  /// Lowercased words of letters, without diacritics (so Dvořák and Dvorak match).
  static func words(_ text: String) -> [String] {
    text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
      .split { !$0.isLetter }.map(String.init)
  }

  /// The answer proper: the reveal up to its first sentence or clause break ("Canberra. It
  /// was…", "Kilimanjaro, in Tanzania…", "Ulaanbaatar (Улаанбаатар)…", "South Africa: …").
  static func answer(of reveal: String) -> String {
    var answer = Substring(reveal)
    for separator in [". ", ", ", ": ", "; ", " (", " — ", " – "] {
      if let range = answer.range(of: separator) { answer = answer[..<range.lowerBound] }
    }
    return String(answer)
  }

  /// The answer's words of four letters or more, less the stop words.
  static func keyWords(ofAnswer reveal: String) -> Set<String> {
    Set(words(answer(of: reveal)).filter { $0.count >= 4 && !stopWords.contains($0) })
  }

  /// The key words of `reveal` that `face` contains, as words (or as their plural).
  static func giveaways(face: String, reveal: String) -> [String] {
    let faceWords = Set(words(face))
    return keyWords(ofAnswer: reveal).filter {
      faceWords.contains($0) || faceWords.contains($0 + "s") || faceWords.contains($0 + "es")
    }.sorted()
  }

  @Test func keyWordsAreTheAnswerProper() {
    #expect(
      Self.keyWords(ofAnswer: "Canberra. It was purpose-built as a compromise.") == ["canberra"])
    #expect(Self.keyWords(ofAnswer: "The Strait of Gibraltar, about 13 km wide.") == ["gibraltar"])
    #expect(Self.keyWords(ofAnswer: "Antonín Dvořák: Symphony") == ["antonin", "dvorak"])
    #expect(Self.keyWords(ofAnswer: "Ulaanbaatar (Улаанбаатар), whose name") == ["ulaanbaatar"])
    #expect(
      Self.giveaways(face: "Geography\nCapital?\nBritannica: Canberra", reveal: "Canberra. Built")
        == ["canberra"])
    #expect(Self.giveaways(face: "Which big cats run fastest?", reveal: "The cheetah, at…") == [])
  }

  /// What a trivia card shows before its answer: title, body and source (the app shows the
  /// source only with the answer; `ctfo next` and older builds still show it).
  @Test func noTriviaFaceContainsItsAnswer() throws {
    let trivia = try Self.load().cards.filter { $0.type == "trivia" }
    #expect(trivia.allSatisfy { !$0["reveal"].isEmpty }, "every trivia card has an answer")
    let spoiled = trivia.compactMap { card -> String? in
      let face = [card["title"], card["body"], card["source"]].joined(separator: "\n")
      let hits = Self.giveaways(face: face, reveal: card["reveal"])
      return hits.isEmpty ? nil : "\(card.id): \(hits.joined(separator: ", "))"
    }
    #expect(spoiled.isEmpty, "\(spoiled.count) trivia cards show their answer: \(spoiled)")
  }

  /// These facts answered these questions almost word for word. The fact may
  /// name the answer, but must not share with the question the clues that lead to it.
  static let spoilerPairs: [(fact: String, trivia: String)] = [
    ("fact-012", "trivia-090"), ("fact-110", "trivia-113"), ("fact-054", "trivia-110"),
    ("fact-113", "trivia-117"), ("fact-006", "trivia-080"), ("fact-047", "trivia-108"),
    ("fact-081", "trivia-120"), ("fact-046", "trivia-107"), ("fact-006", "trivia-051"),
  ]

  /// Words too common to count as a clue ("born around 69 BCE, about 2,500 years later").
  static let commonWords: Set<String> = [
    "about", "after", "around", "before", "being", "born", "called", "came", "during", "each",
    "first", "found", "into", "known", "later", "made", "make", "many", "more", "most", "much",
    "name", "named", "often", "once", "other", "over", "same", "some", "still", "such", "time",
    "used", "very", "well", "when", "where", "while", "world", "year", "years",
  ]

  /// Numbers of two digits or more ("born around 69 BCE"), which are clues too.
  static func numbers(_ text: String) -> [String] {
    text.split { !$0.isASCII || !$0.isNumber }.map(String.init).filter { $0.count >= 2 }
  }

  /// A fact spoils a question when it names the question's answer and repeats at least
  /// `threshold` of the question's other clues: its words of four letters or more, less the
  /// stop and common words, and its numbers.
  static func spoils(fact: Card, trivia: Card, threshold: Int = 2) -> [String]? {
    let factText = fact.text
    let factWords = Set(words(factText)).union(numbers(factText))
    let answer = keyWords(ofAnswer: trivia["reveal"])
    guard !answer.isEmpty, answer.isSubset(of: factWords) else { return nil }
    let clues = Set(words(trivia["body"]).filter { $0.count >= 4 }).union(numbers(trivia["body"]))
      .subtracting(stopWords).subtracting(commonWords).subtracting(answer).intersection(factWords)
    return clues.count >= threshold ? clues.sorted() : nil
  }

  @Test func noFactSpoilsAQuestion() throws {
    let cards = try Self.load().cards
    let facts = cards.filter { $0.type == "fact" }
    let trivia = cards.filter { $0.type == "trivia" }
    var found: [String] = []
    for question in trivia {
      for fact in facts {
        if let clues = Self.spoils(fact: fact, trivia: question) {
          found.append("\(fact.id)/\(question.id): \(clues.joined(separator: " "))")
        }
      }
    }
    #expect(found.isEmpty, "\(found.count) facts spoil questions: \(found)")
  }

  @Test func theListedSpoilerPairsAreRewritten() throws {
    for pair in Self.spoilerPairs {
      let fact = try Self.card(pair.fact)
      let trivia = try Self.card(pair.trivia)
      let clues = Self.spoils(fact: fact, trivia: trivia, threshold: 1)
      #expect(clues == nil, "\(pair.fact) spoils \(pair.trivia): \(clues ?? [])")
    }
  }

  // MARK: Corrected facts

  @Test func imprecisionsAreCorrected() throws {
    let fungus = try Self.card("fact-065")
    #expect(!fungus.text.contains("about 9 square kilometres"))
    #expect(fungus.text.contains("10 square kilometres") || fungus.text.contains("10 km²"))

    let day = try Self.card("fact-078")
    #expect(day.text.contains("2.3 milliseconds"), "tidal friction alone: about 2.3 ms per century")
    #expect(day.text.contains("1.8 milliseconds"), "the observed net lengthening")
    #expect(day.text.contains("rebound"), "post-glacial rebound offsets part of it")

    let cleopatra = try Self.card("trivia-080")
    #expect(
      !cleopatra.text.contains("three centuries"),
      "in 69 BCE the Ptolemies had ruled for about 236 years")

    let lego = try Self.card("fact-070")
    #expect(lego.text.contains("I gather"), "Latin legō means 'I gather, choose, read'")

    let lease = try Self.card("tip-025")
    #expect(lease.text.contains("--force-if-includes"))
    #expect(lease.text.contains("fetch"))
    #expect(lease.text.contains("2.30"))
  }

  @Test func portabilityIsStated() throws {
    let braces = try Self.card("tip-039")["body"]
    #expect(braces.contains("dash") && braces.contains("bash") && braces.contains("zsh"))
    #expect(try Self.card("tip-023")["body"].contains("Linux"))
    #expect(try Self.card("tip-138")["body"].contains("gshuf"))
    #expect(try Self.card("tip-029")["body"].contains("|| [[ -n $line ]]"))
  }

  @Test(arguments: [
    ("joke-108", "Filipe Fortes"), ("joke-111", "Brenan Keller"), ("joke-024", "Leon Bambrick"),
    ("joke-024", "Phil Karlton"), ("joke-088", "LaughLab"),
  ])
  func borrowedJokesAreCredited(id: String, credit: String) throws {
    let joke = try Self.card(id)
    #expect(joke["source"].contains(credit), "\(id) source: \(joke["source"])")
  }
}
