import Testing

@testable import CTFOWire

/// What a build says it was made from (`--version --verbose`, scripts/build-info.sh).
@Suite struct ReleaseTests {
  @Test func onlyVersionAndVerboseTogetherAskForTheList() {
    #expect(Release.asksForVerbose(["--version", "--verbose"]))
    #expect(Release.asksForVerbose(["--verbose", "--version"]))
    #expect(!Release.asksForVerbose(["--version"]))
    #expect(!Release.asksForVerbose(["--verbose"]))
    #expect(!Release.asksForVerbose(["--version", "--version"]))
    #expect(!Release.asksForVerbose(["--version", "--verbose", "next"]))
    #expect(!Release.asksForVerbose(["next", "--verbose"]))
  }

  /// The toolchain, then every package once, sorted, as IDENTITY VERSION REVISION: the direct
  /// dependencies and the transitive ones (swift-nio comes through Hummingbird and others).
  @Test func theListNamesTheToolchainAndEveryPackageOnce() throws {
    let lines = Release.dependencies
    try #require(!lines.isEmpty, "built without make (scripts/build-info.sh wrote no list)")
    #expect(lines[0].hasPrefix("Swift version "))
    let packages = lines.dropFirst().map { $0.split(separator: " ").map(String.init) }
    for fields in packages {
      #expect(fields.count == 3, "\(fields)")
      // Package.swift asks for versions only (`from:`): each package has one, the last too.
      #expect(fields.count > 1 && fields[1].first?.isNumber == true, "\(fields)")
      #expect(fields.last?.count == 40 && fields.last?.allSatisfy(\.isHexDigit) == true)
    }
    let names = packages.map { $0[0] }
    #expect(names == names.sorted() && Set(names).count == names.count)
    for direct in ["swift-argument-parser", "swift-collections", "hummingbird", "swift-nio"] {
      #expect(names.contains(direct))
    }
    #expect(Release.verbose.split(separator: "\n").first.map(String.init) == Release.line)
  }
}
