/// The state database cannot be used as it is.
public enum StoreError: Error, Hashable, CustomStringConvertible {
  /// A newer ctfo wrote the schema (`PRAGMA user_version` beyond the migrations known here).
  case newerSchema(path: String, version: Int, known: Int)
  /// The folder of the database, or its lock file, could not be made or opened.
  case file(path: String, reason: String)

  public var description: String {
    switch self {
    case .newerSchema(let path, let version, let known):
      "\(path) was written by a newer ctfo (schema version \(version); this one knows up to "
        + "\(known)): update ctfo"
    case .file(let path, let reason): "\(path): \(reason)"
    }
  }
}
