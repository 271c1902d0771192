import CBuildInfo

/// This build of ctfo and ctfo-server: the version, and the commit it was built from
/// (scripts/build-info.sh writes it before `make` builds).
public enum Release {
  public static let version = "0.3.0"

  /// Seven hex digits, or "unknown" for a build that `make` did not prepare.
  public static var commit: String { String(cString: ctfo_commit()) }

  /// What `--version` prints: `0.3.0 (abc1234)`.
  public static var line: String { "\(version) (\(commit))" }
}
