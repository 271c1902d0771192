import Foundation
import TestFixtures

/// A temporary folder for deck files, removed when the test ends: the deck tests need no
/// state database.
final class TestHome {
  private let folder: TemporaryFolder

  init() throws {
    folder = try TemporaryFolder("ctfo-decks")
  }

  var url: URL { folder.url }

  /// Writes `lines` (joined by LF) to `name` and returns its path.
  @discardableResult
  func deck(_ name: String, _ lines: [String]) throws -> String { try folder.deck(name, lines) }
}
