import Foundation
import Store

/// A temporary folder with a state database, removed when the test ends.
final class TestHome {
  let url: URL
  private(set) var database: StateDatabase

  init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("ctfo-store-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    database = try StateDatabase(path: url.appendingPathComponent("state.sqlite").path)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  var index: DeckIndex { DeckIndex(database: database) }
  var state: StateStore { StateStore(database: database) }

  /// Opens the database again, as a new launch would.
  func reopen() throws {
    database = try StateDatabase(path: url.appendingPathComponent("state.sqlite").path)
  }

  /// Writes `lines` (joined by LF) to `name` and returns its path.
  @discardableResult
  func deck(_ name: String, _ lines: [String]) throws -> String {
    try Self.write(lines, to: url, name)
  }

  /// Writes `lines` (joined by LF) to `name` in `folder` (made if missing); returns its path.
  static func write(_ lines: [String], to folder: URL, _ name: String) throws -> String {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent(name).path
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  func setModified(_ path: String, _ seconds: Double) throws {
    try FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSince1970: seconds)], ofItemAtPath: path)
  }
}

/// A card line of a deck file.
func cardLine(_ id: String, type: String = "fact", body: String? = nil) -> String {
  #"{"id": "\#(id)", "type": "\#(type)", "body": "\#(body ?? "Body of \(id)")"}"#
}
