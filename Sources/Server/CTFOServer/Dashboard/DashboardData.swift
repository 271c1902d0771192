/// What the operator's dashboard shows, read from aggregates every store keeps as events
/// arrive (never counted from the events per request): a million events stored cost the page
/// nothing more than ten.
public struct DashboardData: Sendable, Equatable {
  /// Events newly stored in one hour (hours since the epoch, by the time they were received).
  public struct Hour: Sendable, Equatable {
    public var hour: Int64
    public var events: Int
  }

  /// The final reactions of the CTFO sink to one card type, or to one card.
  public struct Reactions: Sendable, Equatable {
    /// The card type, or the card's id.
    public var key: String
    /// The card's title, for a card the store holds.
    public var title: String?
    public var ctfo: Int
    public var tfu: Int
    public var tifb: Int

    public var total: Int { ctfo + tfu + tifb }
  }

  /// A sink's refusals: records refused in a request that was read, and requests refused
  /// whole (the dead letters: nothing of them was stored).
  public struct Refused: Sendable, Equatable {
    public var sink: String
    public var records: Int
    public var requests: Int
  }

  /// An event name's count in a sink.
  public struct Name: Sendable, Equatable {
    public var sink: String
    public var name: String
    public var events: Int
  }

  /// The hours with events among the last `hoursShown`, oldest first (hours without are left
  /// out: the page shows them as 0).
  public var hours: [Hour] = []
  /// Reactions by card type, by type name.
  public var types: [Reactions] = []
  /// The cards with the highest CTFO rate among those with at least `minReactions`, at most
  /// `topCards`, the highest first.
  public var topCards: [Reactions] = []
  /// Installs that sent events in the last day, 7 days and 30 days.
  public var activeInstalls: [Int] = [0, 0, 0]
  public var refused: [Refused] = []
  /// The most frequent event names, at most `topNames`.
  public var names: [Name] = []

  public init() {}

  public static let hoursShown = 48
  public static let topCards = 20
  public static let topNames = 20
  /// The most card types the reactions chart shows (the served types, by name).
  public static let typesShown = 50
  /// The days `activeInstalls` counts back.
  public static let activeDays: [Int64] = [1, 7, 30]
  public static let hourMilliseconds: Int64 = 3_600_000
  public static let dayMilliseconds: Int64 = 86_400_000

  /// What a prune at `time` keeps of the totals: the hours from the first the chart shows, the
  /// installs seen since the longest period counted back.
  static func kept(at time: Int64) -> (hour: Int64, lastSeen: Int64) {
    (
      time / hourMilliseconds - Int64(hoursShown) + 1,
      time - (activeDays.max() ?? 30) * dayMilliseconds
    )
  }
}

/// The events of one `record` that were stored for the first time (copies of an event already
/// stored are not), summed as the dashboard's aggregates count them.
struct DashboardTally {
  var hours: [Int64: Int] = [:]
  var names: [[String]: Int] = [:]
  /// By card id: the type and the CTFO, TFU and TIFB counts.
  var cards: [String: (type: String, counts: [Int])] = [:]

  /// Counts one new event received at `time`.
  mutating func add(_ event: ReceivedEvent, install: String?, at time: Int64) {
    hours[time / DashboardData.hourMilliseconds, default: 0] += 1
    names[[event.sink, event.name], default: 0] += 1
  }

  /// Counts an install's final reaction to a served `card` of `type` changing from `old`
  /// (none: its first) to `new`: a card counts each install once, by its latest reaction.
  mutating func react(card: String, type: String, from old: String?, to new: String) {
    guard old != new, let slot = Self.slots.firstIndex(of: new) else { return }
    var entry = cards[card] ?? (type, [0, 0, 0])
    entry.counts[slot] += 1
    if let old, let was = Self.slots.firstIndex(of: old) { entry.counts[was] -= 1 }
    cards[card] = entry
  }

  /// The reactions counted, in the order of the aggregates' columns.
  static let slots = ["CTFO", "TFU", "TIFB"]

  var isEmpty: Bool { hours.isEmpty && cards.isEmpty }
}
