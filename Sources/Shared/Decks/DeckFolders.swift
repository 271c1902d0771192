#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where decks are found on disk, for `ctfo` and `ctfo-server` alike: the bundled decks beside
/// the program, and the `*.jsonl` files of a folder. The C library alone, as `ctfo` links no
/// full Foundation (DECISIONS.md, "One binary, one store").
public enum DeckFolders {
  /// The bundled decks' folder and, for a message when there is none, where it was looked for:
  /// the folder `CTFO_BUNDLED_DECKS` names (none when it is empty), else the first folder above
  /// `executable` that holds `share/ctfo/decks` (installed: `bin/ctfo` finds
  /// `PREFIX/share/ctfo/decks`) or `Resources/decks` (a binary built in the source tree).
  public static func bundled(
    environment: (String) -> String?, executable: String?
  ) -> (folder: String?, searched: String) {
    if let forced = environment("CTFO_BUNDLED_DECKS") {
      return forced.isEmpty
        ? (nil, "nowhere (CTFO_BUNDLED_DECKS is empty)") : (forced, forced)
    }
    let folder = executable.flatMap(bundled(near:))
    return (
      folder,
      folder ?? "share/ctfo/decks and Resources/decks in "
        + "\(executable.map(parent) ?? "?") and every folder above it"
    )
  }

  /// The first `share/ctfo/decks` or `Resources/decks` in a folder above `executable`.
  public static func bundled(near executable: String) -> String? {
    var folder = parent(of: executable)
    while !folder.isEmpty {
      for candidate in ["share/ctfo/decks", "Resources/decks"] {
        let path = folder == "/" ? "/\(candidate)" : "\(folder)/\(candidate)"
        if isDirectory(path) { return path }
      }
      if folder == "/" { break }
      folder = parent(of: folder)
    }
    return nil
  }

  /// The `*.jsonl` files of `folder`, by name; none when it cannot be read.
  public static func jsonl(in folder: String?) -> [String] {
    guard let folder, let directory = opendir(folder) else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
        String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
      if name.hasSuffix(".jsonl") { names.append(name) }
    }
    return names.sorted().map { "\(folder)/\($0)" }
  }

  /// The decks of `folder`, by name: its `*.jsonl` files and its fortune files (each file
  /// with a strfile index beside it, and each `*.u8` or `*.fortune` file; a `riddles.u8` whose
  /// `riddles` is listed is the same deck, once). None when it cannot be read.
  public static func decks(in folder: String?) -> [String] {
    guard let folder else { return [] }
    let names = Set(entries(of: folder))
    return names.compactMap { deckName(of: $0, among: names) }.reduce(into: Set<String>()) {
      $0.insert($1)
    }.sorted().map { join(folder, $0) }
  }

  /// The deck a change of the file `name` in `folder` concerns: the file itself when it is a
  /// deck, the fortune file of an index (`riddles.dat`) or of a `.u8` twin; nil for any
  /// other file (an editor's `.facts.jsonl.swp`, `facts.jsonl~`, a README).
  public static func deckPath(ofName name: String, in folder: String) -> String? {
    let exists = { (other: String) in
      FileStamp.of(join(folder, other)).map { $0.size >= 0 } ?? false
    }
    if name.hasSuffix(".jsonl") { return join(folder, name) }
    if name.hasPrefix(".") || name.hasSuffix("~") { return nil }
    if name.hasSuffix(".dat") {
      let text = String(name.dropLast(4))
      return text.isEmpty || !exists(text) ? nil : deckPath(ofName: text, in: folder)
    }
    if name.hasSuffix(".u8"), name.count > 3, exists(String(name.dropLast(3))) {
      return join(folder, String(name.dropLast(3)))
    }
    if name.hasSuffix(".u8") || name.hasSuffix(".fortune") || exists(name + ".dat") {
      return join(folder, name)
    }
    return nil
  }

  /// The deck name `name` lists, knowing the folder's other names.
  private static func deckName(of name: String, among names: Set<String>) -> String? {
    if name.hasSuffix(".jsonl") { return name }
    if name.hasPrefix(".") || name.hasSuffix("~") || name.hasSuffix(".dat") { return nil }
    if name.hasSuffix(".u8"), names.contains(String(name.dropLast(3))) {
      return String(name.dropLast(3))
    }
    if name.hasSuffix(".u8") || name.hasSuffix(".fortune") || names.contains(name + ".dat") {
      return name
    }
    return nil
  }

  private static func join(_ folder: String, _ name: String) -> String {
    folder == "/" ? "/\(name)" : "\(folder)/\(name)"
  }

  private static func entries(of folder: String) -> [String] {
    guard let directory = opendir(folder) else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
        String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
      if name != ".", name != ".." { names.append(name) }
    }
    return names
  }

  /// This program's path (`/proc/self/exe`), or nil where it cannot be read.
  public static func executablePath() -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  static func parent(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "" }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  static func isDirectory(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
  }
}
