import CardText
import FeedCore
import Synchronization

/// The feed: keeps `lookahead` cards in preparation or ready, hands them out in order of
/// readiness, and applies settings and resizes. Safe to call from any thread; no call blocks.
///
/// STUB: the real engine lands with issue 2. This one only fetches in order.
public final class Feed: Sendable {
  private struct State {
    var ready: [PreparedCard] = []
    var next = 0
    var size: (width: Int, height: Int)
    var enabled: Set<String>
  }
  private let source: any CardSource
  private let catalog: [TypeCount]
  private let onReady: @Sendable () -> Void
  private let state: Mutex<State>

  /// - Parameters:
  ///   - onReady: called from a background thread whenever a card becomes ready (the app
  ///     writes its wake-up pipe here).
  public init(
    source: any CardSource, catalog: [TypeCount], enabled: Set<String>, lookahead: Int = 5,
    seed: UInt64? = nil, width: Int, height: Int, onReady: @escaping @Sendable () -> Void = {}
  ) {
    self.source = source
    self.catalog = catalog
    self.onReady = onReady
    state = Mutex(State(size: (width, height), enabled: enabled))
  }

  /// Starts preparing the first cards.
  public func start() { prepareOne() }

  /// The next ready card, or `.loading` when none is ready yet. Showing a card starts the
  /// preparation of one more.
  public func takeNext() -> FeedItem {
    let item: FeedItem = state.withLock { s in s.ready.isEmpty ? .loading : .card(s.ready.removeFirst()) }
    prepareOne()
    return item
  }

  /// Waits for the next card (for `ctfo next`).
  public func next() async -> FeedItem {
    while true {
      let item = takeNext()
      if case .loading = item { await Task.yield(); continue }
      return item
    }
  }

  /// Applies the settings: the enabled types.
  public func setEnabled(_ types: Set<String>) { state.withLock { $0.enabled = types } }

  /// Lays ready cards out again for a new text area, in the background.
  public func resize(width: Int, height: Int) { state.withLock { $0.size = (width, height) } }

  public var statuses: [TypeStatus] {
    let enabled = state.withLock { $0.enabled }
    return catalog.map {
      TypeStatus(type: $0.type, cards: $0.cards, enabled: enabled.contains($0.type.name), failing: false)
    }
  }

  /// Cancels every preparation.
  public func stop() {}

  private func prepareOne() {
    let (n, size, enabled) = state.withLock { s in
      defer { s.next += 1 }
      return (s.next, s.size, s.enabled)
    }
    let types = catalog.filter { enabled.contains($0.type.name) && $0.cards > 0 }
    guard !types.isEmpty else { return }
    let t = types[n % types.count]
    Task {
      guard let card = try? await source.fetch(type: t.type.name, ordinal: (n / types.count) % t.cards)
      else { return }
      let layout = CardLayout.layout(title: card.title, body: card.body, width: size.width, height: size.height)
      state.withLock { $0.ready.append(PreparedCard(card: card, layout: layout)) }
      onReady()
    }
  }
}
