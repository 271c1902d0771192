import Decks
import Store
import TestFixtures
import Testing

/// The sync and `deck check` share the parser and word every problem alike.
@Suite struct DuplicateReportTests {
  @Test func syncAndCheckReportDuplicatesAlike() throws {
    let home = try TestHome()
    let first = try home.deck(
      "dup.jsonl",
      [
        cardLine("x"), cardLine("y"), cardLine("x"), cardLine("z"), cardLine("y"),
        cardLine("x"), cardLine("w"),
      ])
    let second = try home.deck("more.jsonl", [cardLine("w"), cardLine("x")])
    let checked = DeckCheck.check([first, second]).problems.map(\.description)
    #expect(
      checked == [
        "\(first):3: duplicate id \"x\" replaces \(first):1",
        "\(first):5: duplicate id \"y\" replaces \(first):2",
        "\(first):6: duplicate id \"x\" replaces \(first):3",
        "\(second):1: duplicate id \"w\" replaces \(first):7",
        "\(second):2: duplicate id \"x\" replaces \(first):6",
      ])
    #expect(try home.index.sync(decks: [first, second]).problems.map(\.description) == checked)
  }
}
