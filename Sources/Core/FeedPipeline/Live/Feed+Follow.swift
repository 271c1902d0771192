import CardText
import FeedCore

extension Feed {
  /// Follows a live source until it ends, fails or the task is cancelled: each update goes
  /// through a `LiveCollection` (the source's cards by id, which makes it a change) to `apply`.
  /// An end is said once as "`name`: all N cards read" ("1 card"); a failure once as
  /// "`name` failed: ...; N cards kept";
  /// either way the feed and the other sources go on, with the cards the source gave.
  ///
  ///     let stdin = SequenceSource(DeckStream(fd: 0, name: "stdin"))
  ///     let task = feed.follow(stdin, name: "stdin") { _ in nil }
  @discardableResult
  public func follow<Source: LiveSource>(
    _ source: Source, name: String, base: @escaping @Sendable (String) -> CardKey? = { _ in nil }
  ) -> Task<Void, Never> {
    state.withLock { $0.openSources += 1 }
    return Task {
      defer { closeSource() }
      var collection = LiveCollection()
      do {
        for try await update in source.updates() {
          if case .types(let types) = update {
            apply(LiveCollection.Change(), types: types, base: base)
            continue
          }
          let change = collection.apply(update)
          if !change.isEmpty { apply(change, base: base) }
        }
        guard !Task.isCancelled else { return }
        report("\(name): all \(Plural.count(collection.count, "card")) read")
      } catch {
        guard !Task.isCancelled else { return }
        report("\(name) failed: \(error); \(Plural.count(collection.count, "card")) kept")
      }
    }
  }

  /// A followed source ended: a feed left with nothing to deal is now unavailable, and a
  /// caller waiting in `next()` hears so.
  private func closeSource() {
    let (handoffs, effects) = state.withLock { s in
      s.openSources -= 1
      return handOffToWaiters(&s, effects: [])
    }
    finish(handoffs, effects)
  }
}
