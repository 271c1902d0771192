import FeedCore

/// A source that waits before every fetch: lets tests and demos see the loading placeholder.
public struct DelayedSource<Base: CardSource>: CardSource {
  private let base: Base
  private let milliseconds: Int

  public init(base: Base, milliseconds: Int) {
    self.base = base
    self.milliseconds = milliseconds
  }

  public func catalog() async throws -> [TypeCount] { try await base.catalog() }

  public func fetch(type: String, ordinal: Int) async throws -> Card {
    try await Task.sleep(for: .milliseconds(milliseconds))
    return try await base.fetch(type: type, ordinal: ordinal)
  }
}
