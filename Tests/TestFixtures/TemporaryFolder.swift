import Foundation

/// A folder of its own under the system's temporary folder, removed when the value goes: a
/// test's home, with a writer of deck files.
///
///     let folder = try TemporaryFolder("ctfo-store")
///     let deck = try folder.deck("facts.jsonl", [cardLine("f1"), cardLine("f2")])
public final class TemporaryFolder: Sendable {
  public let url: URL

  public init(_ prefix: String = "ctfo-test") throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  /// The path of `name` inside the folder.
  public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

  /// Writes `lines` (joined by LF) to `name` and returns its path.
  @discardableResult
  public func deck(_ name: String, _ lines: [String]) throws -> String {
    try Self.write(lines, to: url, name)
  }

  /// Writes `lines` (joined by LF) to `name` in `folder` (made if missing); returns its path.
  public static func write(_ lines: [String], to folder: URL, _ name: String) throws -> String {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent(name).path
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// Sets the modification time of the file at `path`.
  public func setModified(_ path: String, _ seconds: Double) throws {
    try FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSince1970: seconds)], ofItemAtPath: path)
  }
}

/// A card line of a deck file.
public func cardLine(_ id: String, type: String = "fact", body: String? = nil) -> String {
  #"{"id": "\#(id)", "type": "\#(type)", "body": "\#(body ?? "Body of \(id)")"}"#
}
