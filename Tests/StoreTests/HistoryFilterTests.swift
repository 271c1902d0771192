import FeedCore
import Store
import TestFixtures
import Testing

/// `ctfo history --since/--until/--reaction`: the store keeps exactly the rows a plain filter
/// over them keeps: shown at or after `since`, before `before` (a row at `before` is out), of
/// the reaction asked; random times on and beside each bound, against that reference.
@Suite struct HistoryFilterTests {
  @Test func theStoreKeepsWhatTheReferenceKeeps() throws {
    var random = SeededGenerator(seed: 4_417)
    let home = try TestHome()
    let times = (0..<60).map { _ in Double(Int.random(in: 0...20, using: &random)) * 10 }
    try home.state.append(
      times.enumerated().map { ShownRecord(cardID: "c\($0)", type: "fact", title: nil, shownAt: $1) })
    let all = try home.state.history(limit: 1_000, filter: HistoryFilter())
    #expect(all.count == times.count)
    for _ in 0..<200 {
      // Bounds on a shown time, or beside one, or none.
      func bound() -> Double? {
        guard Bool.random(using: &random) else { return nil }
        let on = times.randomElement(using: &random)!
        return on + [-1, 0, 0, 1].randomElement(using: &random)!
      }
      let filter = HistoryFilter(since: bound(), before: bound())
      let kept = try home.state.history(limit: 1_000, filter: filter).map(\.index)
      let expected = all.filter { entry in
        (filter.since.map { entry.shownAt >= $0 } ?? true)
          && (filter.before.map { entry.shownAt < $0 } ?? true)
      }.map(\.index)
      #expect(kept == expected, "since \(String(describing: filter.since)) before \(String(describing: filter.before))")
    }
  }
}
