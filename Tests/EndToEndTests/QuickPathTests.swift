import Foundation
import Testing

/// `ctfo` answers a plain `ctfo next` itself when the state needs nothing done, and hands
/// everything else to `ctfo-full`. These tests install both (as `make install` lays them out)
/// into a temporary prefix, and take `ctfo-full` away to show which runs need it.
@Suite struct QuickPathTests {
  /// `PREFIX/bin/ctfo`, `PREFIX/libexec/ctfo/ctfo-full`, `PREFIX/share/ctfo/decks/*.jsonl`.
  final class Installation {
    let prefix: String
    var ctfo: String { prefix + "/bin/ctfo" }
    var full: String { prefix + "/libexec/ctfo/ctfo-full" }
    private let builtFull: String

    init() throws {
      prefix = NSTemporaryDirectory() + "ctfo-prefix-" + UUID().uuidString
      let fm = FileManager.default
      builtFull = (CommandLine.binary as NSString).deletingLastPathComponent + "/ctfo-full"
      for folder in ["bin", "libexec/ctfo", "share/ctfo/decks"] {
        try fm.createDirectory(atPath: prefix + "/" + folder, withIntermediateDirectories: true)
      }
      try Self.install(CommandLine.binary, at: ctfo)
      let decks = CommandLine.repositoryRoot + "/Resources/decks"
      for name in try fm.contentsOfDirectory(atPath: decks) where name.hasSuffix(".jsonl") {
        try fm.copyItem(atPath: decks + "/" + name, toPath: prefix + "/share/ctfo/decks/" + name)
      }
      try installFull()
    }

    func installFull() throws { try Self.install(builtFull, at: full) }

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
    func removeFull() throws { try FileManager.default.removeItem(atPath: full) }

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

  @Test func anInstalledCtfoFindsItsFullBinaryAndItsDecks() throws {
    let installation = try Installation()
    let cli = try installation.commandLine()
    defer { cli.remove() }
    let types = try cli.run(["types", "--json"])
    #expect(types.status == 0, "\(types.stderr)")
    #expect(types.objects.count == 6)
    #expect(types.objects.allSatisfy { ($0["cards"] as? Int ?? 0) > 0 })
    let next = try cli.run(["next", "-n", "3", "--json"])
    #expect(next.status == 0 && next.objects.count == 3, "\(next.stderr)")
  }

  @Test func aPlainNextRunsWithoutTheFullBinaryAndDealsWhatItDeals() throws {
    let installation = try Installation()
    let quick = try installation.commandLine()
    let full = try installation.commandLine()
    defer {
      quick.remove()
      full.remove()
    }
    // A new home has no state yet: its first run is the full binary's (it syncs the decks).
    let arguments = ["next", "-n", "200", "--seed", "5", "--json", "--width", "50"]
    let byFull = try full.run(arguments)
    #expect(try quick.run(["next"]).status == 0)
    try installation.removeFull()
    let byQuick = try quick.run(arguments)
    #expect(byQuick.status == 0, "\(byQuick.stderr)")
    #expect(byQuick.stdout == byFull.stdout && ids(byQuick).count == 200)
    // History holds both runs of the quick home, numbered in order.
    try installation.installFull()
    let history = try quick.run(["history", "-n", "500", "--json"])
    #expect(history.objects.count == 201)
    #expect(history.objects.first?["index"] as? Int == 200)
  }

  @Test func everythingElseNeedsTheFullBinaryAndSaysSoWhenItIsMissing() throws {
    let installation = try Installation()
    let cli = try installation.commandLine()
    defer { cli.remove() }
    #expect(try cli.run(["next"]).status == 0)
    try installation.removeFull()
    for arguments in [["types"], ["next", "--help"], ["next", "-n", "300"], ["next", "-n", "x"], []] {
      let result = try cli.run(arguments)
      #expect(result.status == 127, "\(arguments)")
      #expect(result.stdout.isEmpty)
      #expect(result.stderr.contains("cannot find ctfo-full"), "\(arguments): \(result.stderr)")
    }
    // A deck that changed needs a sync, which only the full binary does.
    let deck = try cli.write("decks/mine.jsonl", #"{"id":"m1","type":"mine","body":"new"}"# + "\n")
    #expect(try cli.run(["next"]).status == 127, "\(deck) needs a sync")
  }

  @Test func aChangedConfigFileIsReadAgainBeforeTheQuickPathUsesIt() throws {
    let installation = try Installation()
    let cli = try installation.commandLine()
    let reference = try installation.commandLine()
    defer {
      cli.remove()
      reference.remove()
    }
    // Small pools start over while cards are in flight: there the lookahead shows.
    let small = (0..<3).map { #"{"id": "x\#($0)", "type": "x", "body": "b"}"# }
      + (0..<5).map { #"{"id": "y\#($0)", "type": "y", "body": "b"}"# }
    for home in [cli, reference] { _ = try home.write("decks/small.jsonl", small.joined(separator: "\n")) }
    let arguments = ["next", "-n", "200", "--seed", "9", "--json"]
    let withFlag = try reference.run(arguments + ["--lookahead", "40"])
    let withoutFlag = try reference.run(arguments)
    #expect(ids(withFlag) != ids(withoutFlag), "the lookahead must change the deal for this test")

    #expect(try cli.run(["next"]).status == 0)
    _ = try cli.write("config.toml", "lookahead = 40\n")
    try installation.removeFull()
    #expect(try cli.run(arguments).status == 127, "a changed config file needs ctfo-full")
    try installation.installFull()
    #expect(ids(try cli.run(arguments)) == ids(withFlag), "ctfo-full reads the new setting")
    try installation.removeFull()
    #expect(ids(try cli.run(arguments)) == ids(withFlag), "and the quick path uses it after")
    #expect(ids(try cli.run(arguments + ["--lookahead", "8"])) == ids(withoutFlag), "a flag wins")

    try installation.installFull()
    _ = try cli.write("config.toml", "lookahead = \"many\"\n")
    let bad = try cli.run(["next"])
    #expect(bad.status != 0 && bad.stdout.isEmpty)
    #expect(bad.stderr.contains("config.toml") && bad.stderr.contains("lookahead"))
  }
}
