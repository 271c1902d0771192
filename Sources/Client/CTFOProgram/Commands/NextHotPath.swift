/// The forms of `ctfo next` a shell's start-up file runs, recognised before ArgumentParser:
/// `next`, then at most one each of `-n N` (N in decimal digits), `-s` and `-l` (not both), in
/// any order. They build the request ArgumentParser would and run the same code
/// (`Next.run(_:)`); any other argument list goes to ArgumentParser, whose parse costs more
/// than the whole of such a run (DECISIONS.md, "Start-up").
enum NextHotPath {
  /// The request for `arguments` (without the program's name), or nil when they are not one
  /// of the hot path's forms.
  static func request(_ arguments: [String]) -> NextRequest? {
    guard arguments.first == "next" else { return nil }
    var count: Int?
    var length: CardLength?
    var rest = arguments.dropFirst()
    while let argument = rest.popFirst() {
      switch argument {
      case "-n":
        guard count == nil, let value = rest.popFirst(), let n = decimal(value) else { return nil }
        count = n
      case "-s", "-l":
        guard length == nil else { return nil }
        length = argument == "-s" ? .short : .long
      default:
        return nil
      }
    }
    return NextRequest(count: count ?? Next.defaultCount, length: length)
  }

  /// `text` as a count when it is one to nine ASCII digits (no sign, no overflow).
  private static func decimal(_ text: String) -> Int? {
    let digits = text.utf8
    guard (1...9).contains(digits.count), digits.allSatisfy({ (0x30...0x39).contains($0) })
    else { return nil }
    return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
  }
}
