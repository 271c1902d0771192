import Foundation
import Store
import TestFixtures

/// A temporary folder with a state database, removed when the test ends.
final class TestHome {
  private let folder: TemporaryFolder
  private(set) var database: StateDatabase

  init() throws {
    folder = try TemporaryFolder("ctfo-store")
    database = try StateDatabase(path: folder.path("state.sqlite"))
  }

  var url: URL { folder.url }
  var index: DeckIndex { DeckIndex(database: database) }
  var state: StateStore { StateStore(database: database) }

  /// Opens the database again, as a new launch would.
  func reopen() throws {
    database = try StateDatabase(path: folder.path("state.sqlite"))
  }

  /// Writes `lines` (joined by LF) to `name` and returns its path.
  @discardableResult
  func deck(_ name: String, _ lines: [String]) throws -> String { try folder.deck(name, lines) }

  static func write(_ lines: [String], to folder: URL, _ name: String) throws -> String {
    try TemporaryFolder.write(lines, to: folder, name)
  }

  func setModified(_ path: String, _ seconds: Double) throws {
    try folder.setModified(path, seconds)
  }
}
