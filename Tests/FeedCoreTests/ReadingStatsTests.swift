import FeedCore
import Foundation
import Testing

/// The reader's stats from counts: the 14 days, the streak, the types most liked first, and
/// the calendar dates of day numbers.
@Suite struct ReadingStatsTests {
  @Test func theChartCoversTheLastFourteenDaysEndingToday() {
    let stats = ReadingStats(swipesByDay: [100: 2, 113: 5, 114: 9, 99: 40], today: 113, types: [])
    #expect(stats.days.count == 14)
    #expect(stats.days.first == ReadingStats.Day(day: 100, swipes: 2))
    #expect(stats.days.last == ReadingStats.Day(day: 113, swipes: 5))
    #expect(stats.busiestDay == 5, "days outside the chart are not in it")
  }

  @Test(arguments: [
    ([10: 1, 9: 3, 8: 1, 6: 1], 10, 3),
    ([9: 3, 8: 1, 6: 1], 10, 2),  // today has none yet: the streak up to yesterday stands
    ([8: 1, 7: 1], 10, 0),
    ([10: 1], 10, 1),
    ([Int: Int](), 10, 0),
  ])
  func theStreakCountsDaysInARowUpToTodayOrYesterday(days: [Int: Int], today: Int, streak: Int) {
    #expect(ReadingStats(swipesByDay: days, today: today, types: []).streak == streak)
  }

  @Test func typesComeMostLikedFirstAndNeverSwipedLast() {
    let types = [
      ReadingStats.TypeLine(type: "a", ctfo: 1, tfu: 1, tifb: 2),  // 50%
      ReadingStats.TypeLine(type: "b", tfu: 3, tifb: 1),  // 75%
      ReadingStats.TypeLine(type: "c", ctfo: 3, tifb: 1),  // 75%, more CTFO
      ReadingStats.TypeLine(type: "e", unswiped: 4, cards: 9),
      ReadingStats.TypeLine(type: "d", cards: 3),
    ]
    let stats = ReadingStats(swipesByDay: [:], today: 0, types: types)
    #expect(stats.types.map(\.type) == ["c", "b", "a", "d", "e"])
    #expect(stats.types[0].likedRate == 0.75)
    #expect(stats.types[3].likedRate == nil)
    #expect(stats.swipes == 4 + 4 + 4)
    #expect(stats.shown == 12 + 4)
  }

  /// Every day from 1900 to 2200 has the date and weekday Foundation's Gregorian calendar
  /// gives it in UTC.
  @Test func dayNumbersAreTheirCalendarDates() {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    for day in stride(from: -25_567, through: 84_000, by: 7) {
      let date = Date(timeIntervalSince1970: Double(day) * 86_400)
      let parts = calendar.dateComponents([.year, .month, .day, .weekday], from: date)
      let civil = CivilDate(day: day)
      let expected: [Int] = [parts.year!, parts.month!, parts.day!]
      #expect([civil.year, civil.month, civil.dayOfMonth] == expected, "day \(day)")
      let weekday = ReadingStats.Day(day: day, swipes: 0).weekday
      #expect(weekday + 1 == parts.weekday, "day \(day)")
    }
    #expect(CivilDate(day: 20_420).description == "2025-11-28")
    #expect(CivilDate(day: 11_016).description == "2000-02-29")
  }
}
