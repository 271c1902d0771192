/// A store the server cannot use as it is.
public enum CardStoreError: Error, Equatable, CustomStringConvertible {
  /// A newer ctfo-server migrated the store past the versions known here.
  case newerSchema(store: String, version: Int, known: Int)
  /// The store's server could not be reached, or refused the connection; `reason` says why.
  case unreachable(store: String, reason: String)

  public var description: String {
    switch self {
    case .newerSchema(let store, let version, let known):
      "\(store) was migrated by a newer ctfo-server (schema version \(version); this one knows "
        + "up to \(known)): update ctfo-server"
    case .unreachable(let store, let reason):
      "cannot use \(store): \(reason)"
    }
  }

  /// The exit status of a command that meets it (sysexits): a store migrated by a newer build
  /// is a configuration to change (`EX_CONFIG`), an unreachable one a service down
  /// (`EX_UNAVAILABLE`).
  public var exitCode: Int32 {
    switch self {
    case .newerSchema: 78
    case .unreachable: 69
    }
  }
}
