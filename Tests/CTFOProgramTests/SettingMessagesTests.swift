import CTFOProgram
import Testing

/// A setting refused names where it came from once: the flag, or the file and line with the key.
@Suite struct SettingMessagesTests {
  private func refusal(_ flags: OptionValues) -> String? {
    var configuration = Configuration()
    do {
      try configuration.apply(flags: flags)
      return nil
    } catch {
      return error.description
    }
  }

  /// "--server: server: plain http ..." said the key twice.
  @Test func aFlagIsNamedOnce() {
    #expect(
      refusal(OptionValues(server: "http://example.com"))
        == "--server: plain http is refused for example.com, which is not this machine: use https://"
    )
    #expect(
      refusal(OptionValues(undoLimit: -3))
        == "--undo-limit must be a whole number from 0 to 1000 (got '-3')")
  }

  @Test func aFileNamesItsLineAndTheKey() {
    var configuration = Configuration()
    #expect(throws: CLIError.self) {
      try configuration.set("lookahead", to: "many", in: "config.toml:1")
    }
    do {
      try configuration.set("lookahead", to: "many", in: "config.toml:1")
    } catch {
      #expect(
        error.description
          == "config.toml:1: lookahead must be a whole number from 1 to 100 (got 'many')")
    }
  }
}
