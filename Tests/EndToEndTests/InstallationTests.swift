import Foundation
import Testing

/// `ctfo` is one program: installed as `make install` lays it out into a temporary prefix, it
/// runs the app's commands alone, finds its decks, and reads the config file on every run.
@Suite struct InstallationTests {
  /// `PREFIX/bin/ctfo` and `PREFIX/share/ctfo/decks/*.jsonl`, nothing else.
  final class Installation {
    let prefix: String
    var ctfo: String { prefix + "/bin/ctfo" }

    /// `decks: false` leaves the program alone in its folder, as a copied binary is.
    init(decks withDecks: Bool = true) throws {
      prefix = NSTemporaryDirectory() + "ctfo-prefix-" + UUID().uuidString
      let fm = FileManager.default
      for folder in withDecks ? ["bin", "share/ctfo/decks"] : ["bin"] {
        try fm.createDirectory(atPath: prefix + "/" + folder, withIntermediateDirectories: true)
      }
      try Self.install(CommandLine.binary, at: ctfo)
      guard withDecks else { return }
      let decks = CommandLine.repositoryRoot + "/Resources/decks"
      for name in try fm.contentsOfDirectory(atPath: decks) where name.hasSuffix(".jsonl") {
        try fm.copyItem(atPath: decks + "/" + name, toPath: prefix + "/share/ctfo/decks/" + name)
      }
    }

    /// A hard link to the built program, else a copy written on a descriptor that no other
    /// test's child can inherit. (A plain copy's descriptor, inherited by a process another
    /// test starts meanwhile, made the copy "busy" for exec: ETXTBSY, seen as exit 127.)
    private static func install(_ program: String, at path: String) throws {
      if link(program, path) == 0 { return }
      let data = try Data(contentsOf: URL(fileURLWithPath: program))
      let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
      guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown) }
      defer { close(descriptor) }
      try data.withUnsafeBytes { bytes in
        var offset = 0
        while offset < bytes.count {
          let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
          guard written > 0 else { throw CocoaError(.fileWriteUnknown) }
          offset += written
        }
      }
    }

    /// A command line with a fresh home that runs this installation's `ctfo`.
    func commandLine() throws -> CommandLine {
      var cli = try CommandLine()
      cli.program = ctfo
      // The installed binary finds its own decks; the environment must not point elsewhere.
      cli.environment["CTFO_BUNDLED_DECKS"] = nil
      return cli
    }

    deinit { try? FileManager.default.removeItem(atPath: prefix) }
  }

  private func ids(_ result: CommandLine.Result) -> [String] {
    result.objects.map { $0["id"] as! String }
  }

  @Test func theInstalledProgramRunsEveryCommandAlone() throws {
    let installation = try Installation()
    let cli = try installation.commandLine()
    defer { cli.remove() }
    let types = try cli.run(["types", "--json"])
    #expect(types.status == 0, "\(types.stderr)")
    #expect(types.objects.count == 6)
    #expect(types.objects.allSatisfy { ($0["cards"] as? Int ?? 0) > 0 })
    let next = try cli.run(["next", "-n", "1", "--json"])
    #expect(next.status == 0 && next.objects.count == 1, "\(next.stderr)")
    let history = try cli.run(["history", "-n", "5", "--json"])
    #expect(history.status == 0 && history.objects.count == 1, "\(history.stderr)")
    #expect(history.objects.first?["id"] as? String == ids(next).first)
    let help = try cli.run(["--help"])
    #expect(help.status == 0 && help.stdout.contains("USAGE"), "\(help.stderr)")
    let contents = try FileManager.default.contentsOfDirectory(atPath: installation.prefix)
    #expect(contents.sorted() == ["bin", "share"])
  }

  /// A program copied away from its decks says so, with the folders it searched, and fails
  /// (it printed no type and an empty feed).
  @Test func aProgramWithNoDecksSaysWhereItLookedAndFails() throws {
    let installation = try Installation(decks: false)
    let cli = try installation.commandLine()
    defer { cli.remove() }
    for arguments in [["types"], ["next"], ["disable", "fact"], []] {
      let result = try cli.run(arguments)
      #expect(result.status == 66, "\(arguments): \(result.stderr)")
      #expect(result.stdout.isEmpty, "\(arguments)")
      #expect(result.stderr.hasPrefix("ctfo: no decks found"), "\(arguments): \(result.stderr)")
      for folder in [cli.home + "/decks", installation.prefix + "/bin", "share/ctfo/decks"] {
        #expect(result.stderr.contains(folder), "\(arguments): \(result.stderr)")
      }
    }
    let deck = try cli.write("one.jsonl", #"{"id":"a1","type":"a","body":"x"}"# + "\n")
    #expect(try cli.run(["--deck", deck, "next"]).status == 0)
  }

  @Test func aChangedConfigFileIsReadOnTheNextRun() throws {
    let installation = try Installation()
    let cli = try installation.commandLine()
    let reference = try installation.commandLine()
    defer {
      cli.remove()
      reference.remove()
    }
    // Types smaller than the lookahead: there the lookahead shows in the deal.
    let small =
      (0..<3).map { #"{"id": "x\#($0)", "type": "x", "body": "b"}"# }
      + (0..<5).map { #"{"id": "y\#($0)", "type": "y", "body": "b"}"# }
    for home in [cli, reference] {
      _ = try home.write("decks/small.jsonl", small.joined(separator: "\n"))
      _ = try home.write("config.toml", "undo-limit = 3\n")
    }
    // A first run with the old setting, in both homes alike: each run goes on with its home's
    // rounds, so the same seed deals the same only from the same state.
    for home in [cli, reference] { #expect(try home.run(["next", "--seed", "1"]).status == 0) }
    let arguments = ["next", "-n", "200", "--seed", "9", "--json"]
    let withFlag = try reference.run(arguments + ["--lookahead", "40"])
    #expect(withFlag.status == 0, "\(withFlag.stderr)")
    _ = try cli.write("config.toml", "lookahead = 40\n")
    #expect(ids(try cli.run(arguments)) == ids(withFlag), "the new setting is read")
  }

  @Test(arguments: [
    ("[.]", "config.toml:1:"), ("[[[", "config.toml:1:"), ("[[[a]]]", "config.toml:1:"),
    ("lookahead = \"many\"\n", "config.toml:1: lookahead must be"),
    ("undo-limit = 2\nundo-limit = 3\n", "config.toml:2: 'undo-limit' is set twice"),
    ("lookahead = 5\u{0}\n", "config.toml:1:"), ("colour = 1\n", "unknown setting 'colour'"),
    ("[other]\n", "config.toml:1: tables other than [keys]"),
    ("[keys]\nswipe-rigth = \"l\"\n", "config.toml:2: unknown action 'swipe-rigth'"),
    ("[keys]\nquit = \"Quit\"\n", "config.toml:2: unknown key 'Quit'"),
    ("[keys]\nquit = \"q\"\nundo = \"s\"\n", "config.toml:3: 's' is bound to settings too"),
    ("[keys]\nquit = \"C-c\"\n", "config.toml:2: 'C-c' cannot be bound: Ctrl-C always quits"),
  ])
  func aBadConfigFileIsOneLineAndExit78AndTouchesNothing(text: String, message: String) throws {
    let installation = try Installation()
    let cli = try installation.commandLine()
    defer { cli.remove() }
    #expect(try cli.run(["next"]).status == 0)
    _ = try cli.write("config.toml", text)
    for arguments in [["next"], ["types"], ["history"], []] {
      let result = try cli.run(arguments)
      #expect(result.status == 78, "\(arguments): \(result.stderr)")
      #expect(result.stdout.isEmpty)
      #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
      #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }
    _ = try cli.write("config.toml", "")
    let history = try cli.run(["history", "--json"])
    #expect(history.objects.count == 1, "\(history.stderr)")
  }

  @Test func aConfigFileWithInvalidUTF8IsRefused() throws {
    let installation = try Installation()
    let cli = try installation.commandLine()
    defer { cli.remove() }
    let path = try cli.write("config.toml", "x")
    try Data([0x6C, 0x6F, 0x6F, 0x6B, 0x61, 0xFF, 0x0A]).write(to: URL(fileURLWithPath: path))
    let result = try cli.run(["types"])
    #expect(result.status == 78 && result.stderr.contains("config.toml:1: not valid UTF-8"))
  }
}
