import PropertyBased
import Testing

@testable import CTFOProgram

/// `ctfo next`'s hot path (`NextHotPath`) against ArgumentParser: the same request for every
/// argument list of its forms, and nothing for any other list, which ArgumentParser parses.
@Suite struct NextHotPathTests {
  /// Random choices, turned into lists by `hotForm` and `foreign`.
  private static let choices = Gen<UInt32>.value(in: 0...UInt32.max).array(of: 6)

  /// A count as a start-up file may write it: short, long, with leading zeros.
  private static func count(_ r: UInt32) -> String {
    switch r % 4 {
    case 0: "\(r % 10)"
    case 1: "\(r % 1000)"
    case 2: "00\(r % 100)"
    default: String(String(r % 1_000_000_000).prefix(9))
    }
  }

  /// A list of the hot path's forms: `next`, then `-n N`, `-s` or `-l`, each at most once
  /// (never `-s` with `-l`), in an order the choices give.
  static func hotForm(_ r: [UInt32]) -> [String] {
    var parts: [[String]] = []
    if r[0] % 2 == 0 { parts.append(["-n", count(r[1])]) }
    switch r[2] % 3 {
    case 0: parts.append(["-s"])
    case 1: parts.append(["-l"])
    default: break
    }
    if r[3] % 2 == 0 { parts.reverse() }
    return ["next"] + parts.joined()
  }

  /// Words that are no part of the hot path's forms, anywhere in a list.
  static let foreignWords = [
    "--json", "--reveal", "--width", "80", "--height", "-x", "--home", "/tmp", "--deck", "-n5",
    "-n=5", "-sl", "-ns", "--", "next", "help", "-h", "--help", "--version", "--seed", "-1", "+3",
    "1e3", "\u{0663}", "--no-analytics", "-S", "-N", "types", "",
  ]

  /// A list of the hot path's forms with one foreign word put in at a place the choices give.
  static func foreign(_ r: [UInt32]) -> [String] {
    var list = hotForm(r)
    let word = foreignWords[Int(r[4] % UInt32(foreignWords.count))]
    list.insert(word, at: 1 + Int(r[5] % UInt32(list.count)))
    return list
  }

  @Test func everyHotFormGivesArgumentParsersRequest() async {
    await propertyCheck(count: 500, input: Self.choices) { r in
      let list = Self.hotForm(r)
      let hot = NextHotPath.request(list)
      #expect(hot != nil, "\(list)")
      let parsed = try? CTFO.parseAsRoot(list) as? Next
      #expect(parsed != nil, "\(list)")
      #expect(hot == parsed?.request, "\(list)")
    }
  }

  @Test func anyOtherListGoesToArgumentParser() async {
    await propertyCheck(count: 500, input: Self.choices) { r in
      let list = Self.foreign(r)
      #expect(NextHotPath.request(list) == nil, "\(list)")
    }
    for list in [
      ["next", "-s", "-l"], ["next", "-l", "-s"], ["next", "-s", "-s"],
      ["next", "-n", "1", "-n", "2"], ["next", "-n"], ["next", "-n", "1234567890"],
      ["next", "-n", "-1"], ["--home", "/tmp", "next"], ["types"], [],
    ] {
      #expect(NextHotPath.request(list) == nil, "\(list)")
    }
  }

  /// The plainest forms, written out: the defaults are ArgumentParser's.
  @Test func plainNextIsOneCardOfAnyLength() throws {
    #expect(NextHotPath.request(["next"]) == NextRequest(count: 1))
    #expect(NextHotPath.request(["next", "-n", "3", "-s"]) == NextRequest(count: 3, length: .short))
    let parsed = try #require(try CTFO.parseAsRoot(["next"]) as? Next)
    #expect(parsed.request == NextRequest(count: 1))
  }
}
