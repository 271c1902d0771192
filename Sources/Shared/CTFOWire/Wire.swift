/// The JSON of the CTFO API (openapi.yaml): what `ctfo` sends and what `ctfo-server` answers.
///
/// Times are integer milliseconds since the epoch; ids are opaque strings. Everything the
/// server sends is untrusted: the client checks sizes and the card fields before anything is
/// stored, and `CardText` sanitises the text before it is drawn.
public enum Wire {
  /// `POST /v1/auth`.
  public struct AuthRequest: Codable, Sendable, Equatable {
    public struct Device: Codable, Sendable, Equatable {
      public var platform: String
      public var app: String
      public var locale: String

      public init(platform: String, app: String, locale: String) {
        self.platform = platform
        self.app = app
        self.locale = locale
      }
    }
    public struct User: Codable, Sendable, Equatable {
      public var id: String?

      public init(id: String?) { self.id = id }
    }
    public var installId: String
    public var device: Device
    public var user: User
    public var clientTime: Int64

    public init(installId: String, device: Device, user: User, clientTime: Int64) {
      self.installId = installId
      self.device = device
      self.user = user
      self.clientTime = clientTime
    }
  }

  public struct AuthResponse: Codable, Sendable, Equatable {
    public var token: String
    public var tokenExpiresAt: Int64
    public var cacheKey: String
    public var distinctId: String
    public var serverTime: Int64

    public init(
      token: String, tokenExpiresAt: Int64, cacheKey: String, distinctId: String, serverTime: Int64
    ) {
      self.token = token
      self.tokenExpiresAt = tokenExpiresAt
      self.cacheKey = cacheKey
      self.distinctId = distinctId
      self.serverTime = serverTime
    }
  }

  /// The `200` answer of `GET /v1/pull`: the change since the client's cache key, or
  /// everything (`full`) when the server does not know that key.
  public struct Pull: Codable, Sendable, Equatable {
    public var cacheKey: String
    public var full: Bool
    public var serverTime: Int64?
    public var types: [CardType]
    public var cards: [Card]
    public var removed: [String]
    public var scores: [Score]
    public var user: User?
    /// The elements of `types`, `cards`, `removed`, `scores` and the user's notifications that
    /// are none (no `id`, `"body": 7`, `"score": null`), and a user status that is no text,
    /// each named by its id or its place: left out, the rest of the pull kept. Never sent.
    public var refused: [String]

    public init(
      cacheKey: String, full: Bool, serverTime: Int64? = nil, types: [CardType] = [],
      cards: [Card] = [], removed: [String] = [], scores: [Score] = [], user: User? = nil,
      refused: [String] = []
    ) {
      self.cacheKey = cacheKey
      self.full = full
      self.serverTime = serverTime
      self.types = types
      self.cards = cards
      self.removed = removed
      self.scores = scores
      self.user = user
      self.refused = refused
    }

    enum CodingKeys: String, CodingKey {
      case cacheKey, full, serverTime, types, cards, removed, scores, user
    }

    /// The refusals come in one order however the pull is decoded (`Wire.decodePull` decodes
    /// the long arrays last): the types', the user's, then the cards', removed ids' and
    /// scores'.
    public init(from decoder: any Decoder) throws {
      let c = try decoder.container(keyedBy: CodingKeys.self)
      cacheKey = try c.decode(String.self, forKey: .cacheKey)
      full = try c.decodeIfPresent(Bool.self, forKey: .full) ?? false
      serverTime = try c.decodeIfPresent(Int64.self, forKey: .serverTime)
      var refused: [String] = []
      types = Pulled.sorted(
        try c.decodeIfPresent([Pulled<CardType>].self, forKey: .types) ?? [], into: &refused)
      do {
        user = try c.decodeIfPresent(User.self, forKey: .user)
        refused += user?.refused ?? []
      } catch {
        user = nil
        refused.append("the user: not a user object")
      }
      cards = Pulled.sorted(
        try c.decodeIfPresent([Pulled<Card>].self, forKey: .cards) ?? [], into: &refused)
      removed = Pulled.sorted(
        try c.decodeIfPresent([Pulled<RemovedID>].self, forKey: .removed) ?? [],
        into: &refused
      ).map(\.id)
      scores = Pulled.sorted(
        try c.decodeIfPresent([Pulled<Score>].self, forKey: .scores) ?? [], into: &refused)
      self.refused = refused
    }
  }

  /// An element of one of a pull's arrays, and how a refused one is named.
  protocol PulledElement: Decodable {
    /// The member that names an element (`id`); nil when the element is its own name.
    static var nameKey: String? { get }
    /// An element named `name` in a refusal: `the score of c1`.
    static func named(_ name: Substring) -> String
    /// An element named by its place (from 1): `score 3 of the pull`.
    static func placed(_ place: Int) -> String
    /// Why a value that is not even the element's kind (`7` for an object) is refused.
    static var notOne: String { get }
  }

  /// An element of one of a pull's arrays: the element, or why it is none. Decoding one never
  /// fails, so that a bad element costs only itself.
  enum Pulled<Element: PulledElement>: Decodable {
    case element(Element)
    case refused(name: String?, reason: String)

    private struct Key: CodingKey {
      var stringValue: String
      var intValue: Int? { nil }
      init(stringValue: String) { self.stringValue = stringValue }
      init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) {
      do { self = .element(try Element(from: decoder)) } catch {
        let object = try? decoder.container(keyedBy: Key.self)
        let name = Element.nameKey.flatMap { key in
          try? object?.decode(String.self, forKey: Key(stringValue: key))
        }
        self = .refused(name: name, reason: Self.reason(error, isObject: object != nil))
      }
    }

    /// The error's words: the member missing or bad. The decoder names no member for some
    /// (a fraction where an integer goes): then an object has "a bad member".
    private static func reason(_ error: any Error, isObject: Bool) -> String {
      switch error as? DecodingError {
      case .keyNotFound(let key, _)?: return "no \"\(key.stringValue)\""
      case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?,
        .dataCorrupted(let context)?:
        guard let key = context.codingPath.last, key.intValue == nil else { break }
        return "a bad \"\(key.stringValue)\""
      default: break
      }
      return isObject && Element.nameKey != nil ? "a bad member" : Element.notOne
    }

    /// The elements; the others named in `refused` by name (at most 64 characters) or by
    /// place (from 1).
    static func sorted(_ pulled: [Pulled], into refused: inout [String]) -> [Element] {
      var elements: [Element] = []
      elements.reserveCapacity(pulled.count)
      for (place, element) in pulled.enumerated() {
        switch element {
        case .element(let element): elements.append(element)
        case .refused(let name?, let reason) where !name.isEmpty:
          refused.append("\(Element.named(name.prefix(64))): \(reason)")
        case .refused(_, let reason): refused.append("\(Element.placed(place + 1)): \(reason)")
        }
      }
      return elements
    }
  }

  /// An element of a pull's `removed`: a card's id.
  struct RemovedID: PulledElement {
    var id: String

    init(from decoder: any Decoder) throws {
      id = try decoder.singleValueContainer().decode(String.self)
    }

    static var nameKey: String? { nil }
    static func named(_ name: Substring) -> String { "removed \(name)" }
    static func placed(_ place: Int) -> String { "removed id \(place) of the pull" }
    static var notOne: String { "not an id" }
  }

  public struct CardType: Codable, Sendable, Equatable {
    public var name: String
    public var label: String?
    public var colour: String?
    public var description: String?

    public init(
      name: String, label: String? = nil, colour: String? = nil, description: String? = nil
    ) {
      self.name = name
      self.label = label
      self.colour = colour
      self.description = description
    }
  }

  /// A card as the server sends it. A pull may leave out a long card's body (`body` null,
  /// `bodyOmitted` true): `GET /v1/cards/{id}` gives it whole.
  public struct Card: Codable, Sendable, Equatable {
    public var id: String
    public var type: String
    public var title: String?
    public var body: String?
    public var bodyOmitted: Bool?
    public var source: String?
    public var url: String?
    public var reveal: String?
    public var publishedAt: Int64?

    public init(
      id: String, type: String, title: String? = nil, body: String?, bodyOmitted: Bool? = nil,
      source: String? = nil, url: String? = nil, reveal: String? = nil, publishedAt: Int64? = nil
    ) {
      self.id = id
      self.type = type
      self.title = title
      self.body = body
      self.bodyOmitted = bodyOmitted
      self.source = source
      self.url = url
      self.reveal = reveal
      self.publishedAt = publishedAt
    }

    /// Whether the pull left the body out.
    public var needsBody: Bool { body == nil || bodyOmitted == true }
  }

  public struct Score: Codable, Sendable, Equatable, Hashable {
    public var cardId: String
    public var score: Double
    public var scoredAt: Int64
    /// Why the card scored so, for the user ("you often CTFO haiku"); nil when not said.
    public var reason: String?

    public init(cardId: String, score: Double, scoredAt: Int64, reason: String? = nil) {
      self.cardId = cardId
      self.score = score
      self.scoredAt = scoredAt
      self.reason = reason
    }
  }

  public struct User: Codable, Sendable, Equatable {
    public var status: String?
    public var notifications: [Notification]
    /// A status that is no text and the notifications that are none, named: left out, the
    /// rest kept. Never sent.
    public var refused: [String] = []

    public init(status: String?, notifications: [Notification]) {
      self.status = status
      self.notifications = notifications
    }

    enum CodingKeys: String, CodingKey { case status, notifications }

    public init(from decoder: any Decoder) throws {
      let c = try decoder.container(keyedBy: CodingKeys.self)
      do { status = try c.decodeIfPresent(String.self, forKey: .status) } catch {
        status = nil
        refused.append("the user's status: not a text")
      }
      notifications = Pulled.sorted(
        try c.decodeIfPresent([Pulled<Notification>].self, forKey: .notifications) ?? [],
        into: &refused)
    }
  }

  public struct Notification: Codable, Sendable, Equatable {
    public var id: String
    public var text: String
    public var createdAt: Int64?
    public var expiresAt: Int64?

    public init(id: String, text: String, createdAt: Int64? = nil, expiresAt: Int64? = nil) {
      self.id = id
      self.text = text
      self.createdAt = createdAt
      self.expiresAt = expiresAt
    }
  }

  /// Every error answer: `{"error": {"code", "message"}}`.
  public struct ErrorAnswer: Codable, Sendable, Equatable {
    public struct Detail: Codable, Sendable, Equatable {
      public var code: String
      public var message: String

      public init(code: String, message: String) {
        self.code = code
        self.message = message
      }
    }
    public var error: Detail

    public init(error: Detail) { self.error = error }
  }
}

extension Wire.Card: Wire.PulledElement {
  static var nameKey: String? { "id" }
  static func named(_ name: Substring) -> String { String(name) }
  static func placed(_ place: Int) -> String { "card \(place) of the pull" }
  static var notOne: String { "not a card object" }
}

extension Wire.CardType: Wire.PulledElement {
  static var nameKey: String? { "name" }
  static func named(_ name: Substring) -> String { "type \(name)" }
  static func placed(_ place: Int) -> String { "type \(place) of the pull" }
  static var notOne: String { "not a type object" }
}

extension Wire.Score: Wire.PulledElement {
  static var nameKey: String? { "cardId" }
  static func named(_ name: Substring) -> String { "the score of \(name)" }
  static func placed(_ place: Int) -> String { "score \(place) of the pull" }
  static var notOne: String { "not a score object" }
}

extension Wire.Notification: Wire.PulledElement {
  static var nameKey: String? { "id" }
  static func named(_ name: Substring) -> String { "notification \(name)" }
  static func placed(_ place: Int) -> String { "notification \(place) of the pull" }
  static var notOne: String { "not a notification object" }
}
