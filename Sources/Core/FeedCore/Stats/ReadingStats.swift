/// What a home's history says of its reader, for `ctfo stats` and the app's stats screen: the
/// swipes of each of the last 14 days, the streak of days with a swipe, and for each type its
/// reactions and how far through its round the feed is. Undone swipes do not count.
///
///     let stats = ReadingStats(swipesByDay: [20_000: 3], today: 20_001, types: [fact])
///     stats.days.last  // Day(day: 20_001, swipes: 0): today
///     stats.streak  // 1: yesterday had a swipe, so the streak still stands
public struct ReadingStats: Sendable, Hashable {
  /// How many days the chart of swipes covers, today included.
  public static let dayCount = 14

  /// One day of the chart: the day (days since 1970-01-01, in the reader's time zone) and its
  /// swipes.
  public struct Day: Sendable, Hashable {
    public var day: Int
    public var swipes: Int

    public init(day: Int, swipes: Int) {
      self.day = day
      self.swipes = swipes
    }

    /// The calendar date, "2026-11-28".
    public var date: String { CivilDate(day: day).description }
    /// 0 for Sunday to 6 for Saturday.
    public var weekday: Int { ((day % 7) + 11) % 7 }
  }

  /// One type: its reactions, the cards shown and not swiped, and its round.
  public struct TypeLine: Sendable, Hashable {
    public var type: String
    /// The deck's label (untrusted text: the screens sanitise it), or the name.
    public var label: String
    public var ctfo: Int
    public var tfu: Int
    public var tifb: Int
    /// Cards of the type shown and never swiped (the last of a run, or undone).
    public var unswiped: Int
    /// Cards of the type shown in its current round, and how many it has (0: none now).
    public var seenThisRound: Int
    public var cards: Int

    public init(
      type: String, label: String? = nil, ctfo: Int = 0, tfu: Int = 0, tifb: Int = 0,
      unswiped: Int = 0, seenThisRound: Int = 0, cards: Int = 0
    ) {
      self.type = type
      self.label = label ?? type
      self.ctfo = ctfo
      self.tfu = tfu
      self.tifb = tifb
      self.unswiped = unswiped
      self.seenThisRound = seenThisRound
      self.cards = cards
    }

    /// Its swipes.
    public var swipes: Int { ctfo + tfu + tifb }

    /// The share of its swipes that were CTFO or TFU, from 0 to 1; nil before the first.
    public var likedRate: Double? {
      swipes == 0 ? nil : Double(ctfo + tfu) / Double(swipes)
    }

    /// The liked rate in whole percent, as the screens and `--json` give it.
    public var likedPercent: Int? { likedRate.map { Int(($0 * 100).rounded()) } }

    /// Cards shown this round, never more than the type has now.
    public var roundSeen: Int { min(seenThisRound, cards) }

    /// The count of `reaction`.
    public func count(_ reaction: Reaction) -> Int {
      switch reaction {
      case .ctfo: ctfo
      case .tfu: tfu
      case .tifb: tifb
      }
    }
  }

  /// The last `dayCount` days, oldest first, today last.
  public var days: [Day]
  /// Every type, the most liked first: by liked rate, then CTFO, then swipes; types never
  /// swiped last, by name.
  public var types: [TypeLine]
  /// Days in a row with a swipe, up to today, or up to yesterday while today has none yet.
  public var streak: Int

  /// Builds the stats from the swipes of each day (`swipesByDay`, days since 1970-01-01 in the
  /// reader's time zone) and the types' counts.
  public init(swipesByDay: [Int: Int], today: Int, types: [TypeLine]) {
    days = ((today - Self.dayCount + 1)...today).map { Day(day: $0, swipes: swipesByDay[$0] ?? 0) }
    var day = (swipesByDay[today] ?? 0) > 0 ? today : today - 1
    var streak = 0
    while (swipesByDay[day] ?? 0) > 0 {
      streak += 1
      day -= 1
    }
    self.streak = streak
    self.types = types.sorted(by: Self.likedMore)
  }

  /// Every swipe that stands.
  public var swipes: Int { types.reduce(0) { $0 + $1.swipes } }
  /// Every card shown.
  public var shown: Int { types.reduce(0) { $0 + $1.swipes + $1.unswiped } }
  /// The most swipes of one day in the chart.
  public var busiestDay: Int { days.map(\.swipes).max() ?? 0 }

  private static func likedMore(_ a: TypeLine, _ b: TypeLine) -> Bool {
    switch (a.likedRate, b.likedRate) {
    case (nil, nil): return a.type < b.type
    case (nil, _): return false
    case (_, nil): return true
    case (let x?, let y?):
      if x != y { return x > y }
      if a.ctfo != b.ctfo { return a.ctfo > b.ctfo }
      if a.swipes != b.swipes { return a.swipes > b.swipes }
      return a.type < b.type
    }
  }
}

/// A date of the proleptic Gregorian calendar from a count of days since 1970-01-01 (Howard
/// Hinnant's `civil_from_days`).
public struct CivilDate: Sendable, Hashable, CustomStringConvertible {
  public var year: Int
  public var month: Int
  public var dayOfMonth: Int

  public init(day: Int) {
    let z = day + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    dayOfMonth = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
  }

  public var description: String {
    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    return "\(year)-\(two(month))-\(two(dayOfMonth))"
  }
}
