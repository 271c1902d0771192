import CBuildInfo

/// This build of ctfo and ctfo-server: the version, and the commit it was built from
/// (scripts/build-info.sh writes it before `make` builds).
public enum Release {
  public static let version = "0.3.0"

  /// Seven hex digits, or "unknown" for a build that `make` did not prepare.
  public static var commit: String { String(cString: ctfo_commit()) }

  /// What `--version` prints: `0.3.0 (abc1234)`.
  public static var line: String { "\(version) (\(commit))" }

  /// What the build was made with (scripts/build-info.sh): the Swift toolchain, then every
  /// package of the graph, direct and transitive, as `IDENTITY VERSION REVISION`
  /// (Package.resolved). Empty for a build that `make` did not prepare.
  public static var dependencies: [String] {
    String(cString: ctfo_dependencies()).split(separator: "\n").map(String.init)
  }

  /// What `--version --verbose` prints: the version line, then the dependencies.
  public static var verbose: String {
    ([line] + (dependencies.isEmpty ? ["dependencies unknown: built without make"] : dependencies))
      .joined(separator: "\n")
  }

  /// Whether a command line asks for `verbose`: `--version --verbose`, in either order.
  public static func asksForVerbose(_ arguments: [String]) -> Bool {
    arguments.count == 2 && Set(arguments) == ["--version", "--verbose"]
  }
}
