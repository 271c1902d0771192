/// `ctfo next`'s plain forms, parsed without ArgumentParser.
///
/// ArgumentParser learns a command's options by reflection, and in a binary this size its
/// first type look-ups scan every protocol conformance: about 2 ms before any work, half of
/// what all of fortune takes. `ctfo next` is the command meant to run at every shell start,
/// so its everyday forms skip it. The quick parser accepts only what it can read with
/// certainty: `next` once, the global options before or after it, `-n`, `--width`, `--height`
/// and `--json` after it, each option once (`--deck` any number of times), values as
/// `--opt VALUE` or `--opt=VALUE` that are valid and do not start with `-`. Anything else,
/// `--help` and every mistake included, returns nil and goes to ArgumentParser, which then
/// parses, explains or rejects it. A test checks that both parsers agree.
extension NextRequest {
  public init?(quick arguments: [String]) {
    var request = NextRequest()
    var sawNext = false
    var seen = Set<String>()
    var i = 0
    while i < arguments.count {
      let argument = arguments[i]
      i += 1
      if argument == "next" {
        guard !sawNext else { return nil }
        sawNext = true
        continue
      }
      if argument == "--json" {
        guard sawNext, seen.insert(argument).inserted else { return nil }
        request.json = true
        continue
      }
      var name = argument
      var value: String
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        value = String(argument[argument.index(after: equals)...])
      } else {
        guard i < arguments.count else { return nil }
        value = arguments[i]
        i += 1
      }
      guard !value.isEmpty, !value.hasPrefix("-") else { return nil }
      guard name == "--deck" || seen.insert(name).inserted else { return nil }
      switch name {
      case "--home": request.globals.home = value
      case "--deck": request.globals.deck.append(value)
      case "--seed":
        guard let seed = UInt64(value) else { return nil }
        request.globals.seed = seed
      case "--lookahead":
        guard let n = Int(value) else { return nil }
        request.globals.lookahead = n
      case "--undo-limit":
        guard let n = Int(value) else { return nil }
        request.globals.undoLimit = n
      case "--on-replace": request.globals.onReplace = value
      case "--on-launch": request.globals.onLaunch = value
      case "-n":
        guard sawNext, let n = Int(value), n >= 0 else { return nil }
        request.count = n
      case "--width", "--height":
        guard sawNext, let n = Int(value), n >= 1 else { return nil }
        if name == "--width" { request.width = n } else { request.height = n }
      default:
        return nil
      }
    }
    guard sawNext else { return nil }
    self = request
  }
}
