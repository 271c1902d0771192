import CardText
import FeedCore
import FeedPipeline
import Foundation

/// A deck file read whole into memory: a header line with the types, then one card per line.
///
/// A stand-in for running the interactive app before the real deck index is merged.
/// `CTFO_TEST_FETCH_DELAY_MS` delays every fetch, as the real sources will.
struct JSONLinesDeck: CardSource {
  private struct Header: Decodable {
    struct TypeInfo: Decodable {
      var label: String?
      var colour: String?
      var description: String?
    }
    var types: [String: TypeInfo]
  }

  let types: [CardType]
  let cards: [String: [Card]]
  let delay: Duration

  init(paths: [String], delayMilliseconds: Int) throws {
    var types: [CardType] = []
    var cards: [String: [Card]] = [:]
    for path in paths {
      let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
      guard let first = lines.first else { continue }
      let header = try JSONDecoder().decode(Header.self, from: Data(first.utf8))
      for (name, info) in header.types.sorted(by: { $0.key < $1.key }) {
        types.append(CardType(name: name, label: info.label, colour: info.colour))
      }
      for line in lines.dropFirst() where !line.isEmpty {
        let card = try JSONDecoder().decode(Card.self, from: Data(line.utf8))
        cards[card.type, default: []].append(card)
      }
    }
    self.types = types
    self.cards = cards
    delay = .milliseconds(delayMilliseconds)
  }

  func catalog() async throws -> [TypeCount] {
    types.map { TypeCount(type: $0, cards: cards[$0.name]?.count ?? 0) }
  }

  func fetch(type: String, ordinal: Int) async throws -> Card {
    if delay > .zero { try await Task.sleep(for: delay) }
    var card = cards[type]![ordinal]
    card.title = card.title.map(Sanitizer.sanitize)
    card.body = Sanitizer.sanitize(card.body)
    card.source = card.source.map(Sanitizer.sanitize)
    card.reveal = card.reveal.map(Sanitizer.sanitize)
    return card
  }
}
