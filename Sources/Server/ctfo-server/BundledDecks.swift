import Foundation

/// The decks `ctfo-server` serves when it is given none, found as `ctfo` finds its bundled
/// decks: the folder `CTFO_BUNDLED_DECKS` names (none when it is empty), else the first folder
/// above this program that holds `share/ctfo/decks` (installed) or `Resources/decks` (built in
/// the source tree).
enum BundledDecks {
  /// The folder's `*.jsonl` files, by name.
  static func files(
    environment: [String: String] = ProcessInfo.processInfo.environment,
    executable: String? = try? FileManager.default.destinationOfSymbolicLink(
      atPath: "/proc/self/exe")
  ) -> [String] {
    let folder: String?
    if let forced = environment["CTFO_BUNDLED_DECKS"] {
      folder = forced.isEmpty ? nil : forced
    } else {
      folder = executable.flatMap(near)
    }
    guard let folder, let names = try? FileManager.default.contentsOfDirectory(atPath: folder)
    else { return [] }
    return names.filter { $0.hasSuffix(".jsonl") }.sorted().map { "\(folder)/\($0)" }
  }

  /// The first `share/ctfo/decks` or `Resources/decks` in a folder above `executable`.
  static func near(_ executable: String) -> String? {
    var folder = parent(of: executable)
    while !folder.isEmpty {
      for candidate in ["share/ctfo/decks", "Resources/decks"] {
        let path = folder == "/" ? "/\(candidate)" : "\(folder)/\(candidate)"
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue
        {
          return path
        }
      }
      if folder == "/" { break }
      folder = parent(of: folder)
    }
    return nil
  }

  private static func parent(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "" }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }
}
