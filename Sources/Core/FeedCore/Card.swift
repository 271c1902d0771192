/// One card of the feed: the data a source fetches, before any layout.
///
/// Text fields are untrusted until `CardText` has sanitised them.
public struct Card: Sendable, Hashable, Codable {
  public var id: String
  public var type: String
  public var title: String?
  public var body: String
  public var source: String?
  public var url: String?
  /// Text shown only in the full-card view: a trivia answer, a punchline. A ctfo extension
  /// of the deck format.
  public var reveal: String?
  /// Why the server dealt the card soon, for the whole-card view: "scored 0.93: you often
  /// CTFO haiku" (ctfo.md, "Personalization").
  public var why: String?

  public init(
    id: String, type: String, title: String? = nil, body: String, source: String? = nil,
    url: String? = nil, reveal: String? = nil, why: String? = nil
  ) {
    self.why = why
    self.id = id
    self.type = type
    self.title = title
    self.body = body
    self.source = source
    self.url = url
    self.reveal = reveal
  }
}

/// A card type's metadata, declared by a deck's header line.
public struct CardType: Sendable, Hashable, Codable {
  public var name: String
  public var label: String
  /// One of the eight curses colours by name ("red", "cyan", ...), or nil for the default.
  public var colour: String?
  public var description: String?

  public init(name: String, label: String? = nil, colour: String? = nil, description: String? = nil)
  {
    self.name = name
    self.label = label ?? name
    self.colour = colour
    self.description = description
  }
}

/// A card type and how many cards it has: a source's catalog (ordinals 0..<cards).
public struct TypeCount: Sendable, Hashable {
  public var type: CardType
  public var cards: Int

  public init(type: CardType, cards: Int) {
    self.type = type
    self.cards = cards
  }
}

extension Card {
  /// The source of the cards the project wrote itself: cited nowhere.
  public static let ownSource = "ctfo"

  /// The source to cite with the whole card (and its answer); nil for the project's own cards.
  public var citedSource: String? {
    guard let source, !source.isEmpty, source != Self.ownSource else { return nil }
    return source
  }

  /// The source the card's face may show: a card with an answer keeps its source (and link)
  /// for its whole view, as a trivia source may give the answer away.
  public var faceSource: String? { reveal?.isEmpty == false ? nil : citedSource }

  /// The link the card's face may show, by the same rule.
  public var faceURL: String? { reveal?.isEmpty == false || url?.isEmpty != false ? nil : url }
}
