import CTFOProgram

/// The config reader. Checks that a file either parses, with every entry on one of its lines
/// and no key twice, or gives a problem on one of its lines whose message has no control
/// character.
enum ConfigHarness {
  static func run(_ bytes: UnsafeRawBufferPointer) {
    let lines = 1...(bytes.count(where: { $0 == 0x0A }) + 1)
    do {
      let entries = try ConfigReader.read(Array(bytes))
      for entry in entries {
        precondition(lines.contains(entry.line), "entry on line \(entry.line) of \(lines)")
      }
      precondition(Set(entries.map(\.key)).count == entries.count, "a key twice in \(entries)")
    } catch {
      precondition(lines.contains(error.line), "problem on line \(error.line) of \(lines)")
      precondition(
        !error.message.unicodeScalars.contains(where: isForbidden)
          && !error.message.contains("\n"),
        "unsafe message \(shown(error.message))")
    }
  }
}
