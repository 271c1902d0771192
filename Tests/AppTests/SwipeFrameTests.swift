import App
import CardPreparation
import FeedCore
import TestFixtures
import Testing

/// A ready card is drawn in the frame that answers the swipe: the swipe's write (its
/// tombstone, the next card's history row, the focus event, one transaction) goes to the
/// writer once that frame is drawn, and its commit changes nothing on screen but, when
/// another process wrote rows meanwhile, the card's number.
@Suite struct SwipeFrameTests {
  let a = Fixtures.prepared(Fixtures.asciiCard, width: 80, height: 24)
  let b = Fixtures.prepared(Fixtures.cjkCard, width: 80, height: 24)
  let c = Fixtures.prepared(Fixtures.emojiCard, width: 80, height: 24)

  private static func machine(motion: Motion = .none) -> AppMachine {
    AppMachine(
      screen: AppState(width: 80, height: 24, motion: motion),
      session: Session(window: UndoWindow(configuration: UndoConfiguration(limit: 5))),
      analytics: true, now: 0)
  }

  private static func writes(_ effects: [AppMachine.Effect]) -> [Session.Write] {
    effects.compactMap { effect in
      guard case .write(let write) = effect else { return nil }
      return write
    }
  }

  /// A machine with `--no-motion` showing `a` as history row 41, every write committed
  /// (1: AppStart, 2: a's row), the frame that shows it drawn.
  private func showingA() -> AppMachine {
    var machine = Self.machine()
    _ = machine.start(now: 1)
    _ = machine.reduce(.fed(.card(a)), now: 1)
    _ = machine.reduce(.frameDrawn, now: 1)
    _ = machine.reduce(
      .written([.committed(1, indices: []), .committed(2, indices: [41])]), now: 2)
    _ = machine.reduce(.app(.wake), now: 2)
    _ = machine.reduce(.frameDrawn, now: 2)
    #expect(machine.screen.feed == .card(ShownCard(prepared: a, position: 41)))
    return machine
  }

  @Test func aReadyCardIsDrawnInTheFrameThatAnswersTheSwipe() {
    var machine = showingA()
    #expect(machine.reduce(.app(.key(.right)), now: 3) == [.takeFromFeed])
    let dealt = machine.reduce(.fed(.card(b)), now: 3)
    #expect(Self.writes(dealt).isEmpty, "nothing goes to the writer before the frame")
    // The frame that answers the key shows the next card, under the number its row will get.
    #expect(machine.screen.feed == .card(ShownCard(prepared: b, position: 42)))

    // Once it is drawn, one write: the swipe's tombstone with the next card's row.
    let tombstone = Tombstone(
      historyIndex: 41, cardID: a.card.id, type: a.card.type, direction: .right)
    let written = Self.writes(machine.reduce(.frameDrawn, now: 3.001))
    #expect(written.map(\.change.effects) == [[.entomb(tombstone)]])
    #expect(written.map(\.change.shown) == [[ShownRecord(b.card, shownAt: 3)]])
    #expect(written.map(\.sequence) == [3])

    // The commit: the analytics may go; the screen stays as it was drawn.
    #expect(
      machine.reduce(.written([.committed(3, indices: [42])]), now: 3.002) == [.deliverAnalytics])
    #expect(machine.reduce(.app(.wake), now: 3.002) == [])
    #expect(machine.screen.feed == .card(ShownCard(prepared: b, position: 42)))
    #expect(machine.session.current?.position == 42)
  }

  /// Another process (`ctfo next`) appended two rows before the swipe's commit: the card on
  /// screen takes the number its row got, and the next card follows it.
  @Test func theCommitRenumbersTheCardWhenAnotherProcessWroteRows() {
    var machine = showingA()
    _ = machine.reduce(.app(.key(.right)), now: 3)
    _ = machine.reduce(.fed(.card(b)), now: 3)
    #expect(machine.screen.feed == .card(ShownCard(prepared: b, position: 42)))
    _ = machine.reduce(.frameDrawn, now: 3)
    _ = machine.reduce(.written([.committed(3, indices: [44])]), now: 4)
    #expect(machine.screen.feed == .card(ShownCard(prepared: b, position: 44)))
    _ = machine.reduce(.frameDrawn, now: 4)
    _ = machine.reduce(.app(.key(.left)), now: 5)
    _ = machine.reduce(.fed(.card(c)), now: 5)
    #expect(machine.screen.feed == .card(ShownCard(prepared: c, position: 45)))
    let tombstone = Tombstone(
      historyIndex: 44, cardID: b.card.id, type: b.card.type, direction: .left)
    #expect(
      Self.writes(machine.reduce(.frameDrawn, now: 5)).map(\.change.effects) == [
        [.entomb(tombstone)]
      ])
  }

  /// An undo before the swipe's commit: the card on screen, whose row is still being
  /// written, waits to come back under the number it was shown with, and its place in the
  /// return queue is written with that row's number.
  @Test func anUndoBeforeTheCommitKeepsTheNumbers() {
    var machine = showingA()
    _ = machine.reduce(.app(.key(.right)), now: 3)
    _ = machine.reduce(.fed(.card(b)), now: 3)
    #expect(Self.writes(machine.reduce(.frameDrawn, now: 3)).map(\.sequence) == [3])
    #expect(machine.reduce(.app(.key(.character("u"))), now: 4) == [.findCard(id: a.card.id, for: .undo)])
    _ = machine.reduce(.found(a, for: .undo), now: 4)
    #expect(machine.screen.feed == .card(ShownCard(prepared: a, position: 41)))
    let undo = Self.writes(machine.reduce(.frameDrawn, now: 4))
    // The undo's change names b by its provisional number; the writer gives it b's row.
    #expect(undo.map(\.change.returning) == [ReturnQueue(waiting: [-3])])
    let numbered = undo[0].change.resolvingProvisional { $0 == -3 ? 42 : nil }
    #expect(numbered.returning == ReturnQueue(waiting: [42]))
    _ = machine.reduce(
      .written([.committed(3, indices: [42]), .committed(4, indices: [])]), now: 5)
    _ = machine.reduce(.frameDrawn, now: 5)
    _ = machine.reduce(.app(.key(.up)), now: 6)
    #expect(machine.screen.feed == .card(ShownCard(prepared: b, position: 42)))
  }

  /// The writer and the store as the app has them, in a few lines: changes commit in order,
  /// each change's rows numbered one past the newest row (another process's rows come in
  /// between at times), provisional numbers resolved as `StateWriter` resolves them.
  private struct FakeStore {
    /// The card of each history row, by number.
    var rows: [String] = []
    var queued: [Session.Write] = []
    var numbers: [Int: Int] = [:]
    /// What broke: a tombstone or a return place that names another card's row.
    var problems: [String] = []

    mutating func commit(elsewhere: Int) -> WriterReport {
      let write = queued.removeFirst()
      let change = write.change.resolvingProvisional { numbers[$0] }
      for effect in change.effects {
        switch effect {
        case .entomb(let t), .commit(let t), .restore(let t), .discard(let t):
          if rows.indices.contains(t.historyIndex) ? rows[t.historyIndex] != t.cardID : true {
            problems.append(
              "write \(write.sequence): \(t.cardID)'s tombstone names row \(t.historyIndex)")
          }
        default: break
        }
      }
      rows += Array(repeating: "elsewhere", count: change.shown.isEmpty ? 0 : elsewhere)
      let first = rows.count
      rows += change.shown.map(\.cardID)
      guard !change.shown.isEmpty else { return .committed(write.sequence, indices: []) }
      numbers[-Int(write.sequence)] = first
      return .committed(write.sequence, indices: Array(first..<rows.count))
    }
  }

  /// The run loop over the machine with `--no-motion` and a feed that always has a card
  /// ready: keys, frames and the writer's commits come in a random order.
  private struct Run {
    var machine = SwipeFrameTests.machine()
    var store = FakeStore()
    var cards: [String: PreparedCard] = [:]
    var dealt = 0
    let template: PreparedCard
    var now = 1.0

    init(template: PreparedCard) { self.template = template }

    mutating func send(_ action: AppMachine.Action) {
      now += 0.01
      perform(machine.reduce(action, now: now))
    }

    mutating func perform(_ effects: [AppMachine.Effect]) {
      for effect in effects {
        switch effect {
        case .takeFromFeed:
          dealt += 1
          var card = template
          card.card.id = "card-\(dealt)"
          card.card.title = "Card \(dealt)"
          cards[card.card.id] = card
          send(.fed(.card(card)))
        case .findCard(let id, .undo): send(.found(cards[id], for: .undo))
        case .write(let write): store.queued.append(write)
        default: break
        }
      }
    }

    /// Commits up to `count` queued writes, then the loop wakes with their reports.
    mutating func commit(_ count: Int, elsewhere: Int) {
      let reports = (0..<min(count, store.queued.count)).map { _ in
        store.commit(elsewhere: elsewhere)
      }
      send(.written(reports))
      send(.app(.wake))
    }
  }

  /// Random runs of swipes, undos, frames and commits (seeded): with a card always ready,
  /// the screen never shows the placeholder once the first card is dealt, nor a provisional
  /// number; every tombstone names its own card's row; once every write is in, the card on
  /// screen shows its row's number.
  @Test(arguments: 0..<40)
  func aSwipeNeverWaitsForItsCommitAndTheNumbersComeRight(seed: UInt64) {
    var random = SeededGenerator(seed: seed)
    var run = Run(template: a)
    run.perform(run.machine.start(now: run.now))
    run.send(.frameDrawn)
    run.commit(10, elsewhere: 0)
    for step in 0..<80 {
      switch Int.random(in: 0..<10, using: &random) {
      case 0..<5:
        run.send(.app(.key([Key.right, .left, .up].randomElement(using: &random)!)))
      case 5:
        run.send(.app(.key(.character("u"))))
      case 6, 7:
        run.send(.frameDrawn)
      default:
        let elsewhere = Int.random(in: 0..<8, using: &random) == 0 ? 2 : 0
        run.commit(Int.random(in: 1...3, using: &random), elsewhere: elsewhere)
      }
      guard case .card(let shown) = run.machine.screen.feed else {
        Issue.record("seed \(seed), step \(step): \(run.machine.screen.feed), a card was ready")
        return
      }
      #expect(shown.position >= 0, "seed \(seed), step \(step): shown as \(shown.position)")
    }
    // The keys typed ahead act, one frame each; every write goes in.
    for _ in 0..<200 {
      run.send(.frameDrawn)
      if run.machine.screen.typedAhead.isEmpty && run.store.queued.isEmpty { break }
      run.commit(1000, elsewhere: 0)
    }
    #expect(run.store.queued.isEmpty && run.machine.screen.typedAhead.isEmpty, "seed \(seed)")
    #expect(run.store.problems == [], "seed \(seed)")
    guard case .card(let shown) = run.machine.screen.feed else {
      Issue.record("seed \(seed): no card on screen at the end")
      return
    }
    #expect(
      run.store.rows.indices.contains(shown.position)
        && run.store.rows[shown.position] == shown.prepared.card.id,
      "seed \(seed): \(shown.prepared.card.id) shown as #\(shown.position); rows \(run.store.rows)")
  }
}
