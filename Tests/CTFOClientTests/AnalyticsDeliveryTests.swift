import CTFOClient
import CTFOProgram
import CTFOServer
import CTFOWire
import FeedCore
import HTTP
import Store
import Synchronization
import TestFixtures
import Testing

/// Analytics from the outbox to the real CTFO server on loopback: the
/// server's own `POST /v1/events`, and its Mixpanel `/import` and GA `/mp/collect` routes,
/// with the fault switch's answers. The clock is injected: a backoff is a time to come back,
/// and the test moves the clock there instead of sleeping.
@Suite(.timeLimit(.minutes(2)))
struct AnalyticsDeliveryTests {
  /// A test clock in milliseconds since the epoch, moved by hand.
  final class TestClock: Sendable {
    private let time: Mutex<Int64>
    init(_ start: Int64 = APIClient.systemMilliseconds()) { time = Mutex(start) }
    var now: Int64 { time.withLock { $0 } }
    func advance(_ ms: Int64) { time.withLock { $0 += ms } }
    func set(_ ms: Int64) { time.withLock { $0 = ms } }
    var read: @Sendable () -> Int64 { { self.now } }
  }

  /// A client home whose analytics go to `server`'s three sinks.
  final class Home: Sendable {
    let folder: TemporaryFolder
    let database: StateDatabase
    let state: StateStore
    let outbox: Outbox
    let configuration: Configuration
    let pull: ServerPull
    let clock: TestClock
    /// This machine's clock, for the API client (auth measures the offset from it).
    let device: TestClock

    init(
      server: LiveServer, sinks: [SinkKind] = SinkKind.allCases, clock: TestClock = TestClock(),
      device: TestClock? = nil
    ) throws {
      folder = try TemporaryFolder("ctfo-analytics")
      database = try StateDatabase(path: folder.path("state.sqlite"))
      state = StateStore(database: database, analytics: AnalyticsSinks.context)
      outbox = Outbox(database: database)
      var configuration = Configuration()
      configuration.server = server.endpoint
      configuration.analytics.toServer = sinks.contains(.ctfo)
      if sinks.contains(.mixpanel) {
        configuration.analytics.mixpanelToken = "project-token"
        configuration.analytics.mixpanelURL = server.endpoint
      }
      if sinks.contains(.ga) {
        configuration.analytics.gaMeasurementID = "G-TEST"
        configuration.analytics.gaAPISecret = "secret"
        configuration.analytics.gaURL = server.endpoint
      }
      self.configuration = configuration
      self.clock = clock
      self.device = device ?? clock
      pull = ServerPull(configuration: configuration, database: database, now: self.device.read)!
    }

    func delivery(_ kind: SinkKind, jitter: Int64 = 1000) -> SinkDelivery {
      SinkDelivery(
        kind: kind, configuration: configuration, database: database, pull: pull,
        now: clock.read, jitter: { jitter })
    }

    /// Records `n` final reactions (and their focus) as the app does: each swipe's commit in
    /// the transaction of a state change. Returns the insert ids in order.
    @discardableResult
    func swipe(_ n: Int, from first: Int = 0, type: String = "news") async throws -> [String] {
      // On a thread of its own: the servers' handlers need the cooperative pool's threads.
      try await onThread { try self.swipeNow(n, from: first, type: type) }
    }

    private func swipeNow(_ n: Int, from first: Int, type: String) throws -> [String] {
      let before = Set(try outbox.all().map(\.insertID))
      for i in first..<first + n {
        let tombstone = Tombstone(
          historyIndex: i, cardID: "c\(i)", type: type, direction: [.up, .right, .left][i % 3])
        try state.apply(
          StateChange(
            effects: [.commit(tombstone)],
            events: [.focus(cardID: tombstone.cardID, type: type, milliseconds: 1200)],
            time: Double(device.now) / 1000))
      }
      return try outbox.all().map(\.insertID).filter { !before.contains($0) }
    }

    /// A pull as the app makes it, on a thread of its own.
    func pullNow() async throws -> ServerPull.Outcome {
      try await onThread { self.pull.run(deadline: .now + .request) }
    }

    func flush(
      _ kind: SinkKind, jitter: Int64 = 1000, within limit: Duration = .request
    ) async throws -> SinkDelivery.Outcome {
      let delivery = delivery(kind, jitter: jitter)
      return try await onThread { delivery.flush(deadline: .now + limit) }
    }
  }

  private func received(_ server: LiveServer, _ sink: SinkKind) throws -> [ReceivedEvent] {
    try server.store.events(sink: sink.rawValue)
  }

  private func gaIDs(_ server: LiveServer) throws -> [String] {
    try received(server, .ga).compactMap {
      ImportEvent(json: $0.payload)?.properties["event_id"]?.text
    }
  }

  private func posts(_ server: LiveServer, _ path: String) -> Int {
    server.faults.log.byPath[path] ?? 0
  }

  @Test func everyEventReachesEverySinkOnceAndInOrderThenLeavesTheOutbox() async throws {
    let server = try await LiveServer()
    defer { Task { await server.stop() } }
    let home = try Home(server: server)
    var ids = try await home.swipe(6)
    #expect(ids.count == 13, "an Identify first, then a reaction and a focus per swipe")
    // Text that a careless splitter of the JSON array would cut.
    try home.outbox.record(
      [AnalyticsEvent("Tricky", ["q": .string(#"a,b]}{["\"],\\"#), "n": .string("é 😂 \u{1}")])],
      at: Double(home.clock.now) / 1000, context: AnalyticsSinks.context)
    ids.append(try home.outbox.all().last!.insertID)
    let payloads = try home.outbox.all().map(\.payload)
    let names = try home.outbox.all().map(\.name)
    #expect(names.first == "Identify")
    #expect(names.filter { ["CTFO", "TFU", "TIFB"].contains($0) } == [
      "CTFO", "TFU", "TIFB", "CTFO", "TFU", "TIFB",
    ])
    for sink in SinkKind.allCases {
      #expect(try await home.flush(sink) == .empty)
    }
    #expect(try received(server, .ctfo).map(\.insertID) == ids)
    #expect(try received(server, .ctfo).map(\.payload) == payloads, "the bytes recorded")
    #expect(try received(server, .mixpanel).map(\.insertID) == ids)
    #expect(try received(server, .mixpanel).map(\.payload) == payloads)
    #expect(try gaIDs(server) == ids)
    #expect(try received(server, .ctfo).allSatisfy { $0.copies == 1 })
    let reactions = try received(server, .ga).filter { $0.name == "reaction" }
    #expect(reactions.count == 6)
    #expect(try home.outbox.all().isEmpty, "every sink has every event: the outbox is empty")
    let status = try home.outbox.status(of: "ctfo")
    #expect(status.queued == 0 && status.delivered == 14 && status.deadLetters == 0)
  }

  @Test func anUndoneSwipeIsNeverReportedAndAnalyticsOffRecordsNothing() async throws {
    let server = try await LiveServer()
    defer { Task { await server.stop() } }
    let home = try Home(server: server)
    let t = Tombstone(historyIndex: 0, cardID: "c1", type: "news", direction: .up)
    try home.state.apply(StateChange(effects: [.entomb(t)], time: 1))
    try home.state.apply(StateChange(effects: [.restore(t)], time: 2))
    try home.state.apply(StateChange(effects: [.entomb(t)], time: 3))
    try home.state.apply(StateChange(effects: [.discard(t)], time: 4))
    #expect(try home.outbox.all().isEmpty)
    let off = StateStore(database: home.database, analytics: nil)
    try off.apply(StateChange(effects: [.commit(t)], enabled: ["news": false], time: 5))
    #expect(try home.outbox.all().isEmpty)
    var configuration = home.configuration
    configuration.analytics.enabled = false
    #expect(AnalyticsSinks.configured(configuration).isEmpty)
    #expect(AnalyticsSinks.configured(Configuration()).isEmpty, "nowhere unless configured")
  }

  /// Delivered events left in the outbox (by a version that deleted them in transactions of
  /// their own, killed between the acknowledgement and the delete) go at the next flush that
  /// finds nothing to send; one sink's acknowledgement alone never empties it.
  @Test func eventsAcknowledgedButNotPrunedLeaveAtTheNextFlush() async throws {
    let server = try await LiveServer()
    defer { Task { await server.stop() } }
    let home = try Home(server: server, sinks: [.ctfo])
    try await home.swipe(300)
    let batch = try home.outbox.batch(for: "ctfo", limit: 10_000, bytes: 1 << 30)
    #expect(batch.count == 601)
    // The acknowledgement without the pruning: as if killed between them.
    try home.outbox.delivered(batch, to: "ctfo", at: home.clock.now, sinks: [])
    #expect(try home.outbox.all().count == 601 && home.outbox.queued(for: "ctfo") == 0)
    #expect(try await home.flush(.ctfo) == .empty)
    #expect(try home.outbox.all().isEmpty, "none left")
    #expect(try received(server, .ctfo).isEmpty, "nothing sent again")

    // Events recorded after a batch was read stay when that batch is acknowledged.
    let first = try await home.swipe(3, from: 300)
    let read = try home.outbox.batch(for: "ctfo", limit: 10_000, bytes: 1 << 30)
    let later = try await home.swipe(2, from: 303)
    try home.outbox.delivered(read, to: "ctfo", at: home.clock.now, sinks: ["ctfo"])
    #expect(try home.outbox.all().map(\.insertID) == first + later, "nothing emptied yet")
    #expect(try home.outbox.queued(for: "ctfo") == later.count)
    #expect(try await home.flush(.ctfo) == .empty)
    #expect(try received(server, .ctfo).map(\.insertID) == later, "the later events, once")
    #expect(try home.outbox.all().isEmpty)
  }

  @Test func offlineForAnHourTheSinkBacksOffThenDeliversEachEventOnceInOrder() async throws {
    let server = try await LiveServer()
    defer { Task { await server.stop() } }
    let clock = TestClock()
    let home = try Home(server: server, sinks: [.ctfo], clock: clock)
    server.faults.set([Faults.Rule(path: "/v1/", action: .reset)])
    var ids = try await home.swipe(200)
    var swipes = 200
    var tries = 0
    var waits: [Int64] = []
    let start = clock.now
    while clock.now - start < 3_600_000 {
      let sent = server.faults.log.total
      guard case .waiting(let until) = try await home.flush(.ctfo) else {
        Issue.record("a sink that cannot connect delivered")
        return
      }
      tries += 1
      waits.append(until - clock.now)
      // Not yet due: nothing is sent.
      #expect(try await home.flush(.ctfo) == .waiting(until: until))
      #expect(server.faults.log.total == sent + 1, "one request per due attempt")
      ids += try await home.swipe(5, from: swipes)
      swipes += 5
      clock.set(until)
    }
    #expect(swipes >= 500, "an hour of swiping offline")
    #expect(Array(waits.prefix(6)) == [3000, 5000, 9000, 17000, 33000, 61000])
    #expect(waits.dropFirst(5).allSatisfy { $0 == 61000 }, "2 s doubling to 60 s, plus jitter")
    #expect(tries < 70)
    #expect(try received(server, .ctfo).isEmpty)
    server.faults.set([])
    #expect(try await home.flush(.ctfo) == .empty)
    #expect(try received(server, .ctfo).map(\.insertID) == ids)
    #expect(try home.outbox.all().isEmpty)
  }

  @Test(arguments: [
    Faults.Rule(path: "/v1/events", status: 500, times: 1),
    Faults.Rule(path: "/v1/events", status: 503, retryAfter: 30, times: 1),
    Faults.Rule(path: "/v1/events", action: .reset, times: 1),
    Faults.Rule(path: "/v1/events", action: .closeAfterCommit, times: 1),
    Faults.Rule(path: "/v1/events", status: 302, location: "http://127.0.0.1:9/x", times: 1),
    Faults.Rule(path: "/v1/events", status: 429, times: 1),
  ])
  func aFailureKeepsTheBatchAndTheRetryDeliversItOnce(rule: Faults.Rule) async throws {
    let server = try await LiveServer()
    defer { Task { await server.stop() } }
    let clock = TestClock()
    let home = try Home(server: server, sinks: [.ctfo], clock: clock)
    let ids = try await home.swipe(10)
    let sentTimes = try home.outbox.all().map(\.time)
    server.faults.set([rule])
    guard case .waiting(let until) = try await home.flush(.ctfo, jitter: 1500) else {
      Issue.record("\(rule): the batch was taken as delivered")
      return
    }
    #expect(until - clock.now == (rule.retryAfter.map { Int64($0) * 1000 } ?? 3500))
    let status = try home.outbox.status(of: "ctfo")
    #expect(status.queued == ids.count && status.failures == 1 && status.lastError != nil)
    clock.set(until)
    #expect(try await home.flush(.ctfo) == .empty)
    #expect(try home.outbox.status(of: "ctfo").nextAttempt == nil)
    let events = try received(server, .ctfo)
    #expect(events.map(\.insertID) == ids, "each event once, in order")
    #expect(events.map(\.time) == sentTimes, "a retry sends the times it recorded")
    if rule.action == .closeAfterCommit {
      #expect(events.allSatisfy { $0.copies == 2 }, "the lost answer's batch came twice")
    }
    #expect(try home.outbox.all().isEmpty)
  }

  /// After a failure the sink probes with a small batch (a network still down costs a read of
  /// 25 rows, not 2,000), then doubles back: 201 events go as 25, 50, 100 and the 26 left.
  @Test func theTryAfterAFailureIsASmallBatchThatGrowsBack() async throws {
    let server = try await LiveServer()
    defer { Task { await server.stop() } }
    let clock = TestClock()
    let home = try Home(server: server, sinks: [.ctfo], clock: clock)
    let ids = try await home.swipe(100)
    #expect(ids.count == 201)
    server.faults.set([Faults.Rule(path: "/v1/events", action: .reset, times: 1)])
    let delivery = home.delivery(.ctfo)
    guard case .waiting(let until) = try await onThread({ delivery.flush(deadline: .now + .request) })
    else {
      Issue.record("a reset connection was taken as a delivery")
      return
    }
    #expect(posts(server, "/v1/events") == 1)
    clock.set(until)
    #expect(try await onThread { delivery.flush(deadline: .now + .request) } == .empty)
    #expect(posts(server, "/v1/events") == 5, "the reset, then 25, 50, 100 and 26 events")
    #expect(try received(server, .ctfo).map(\.insertID) == ids)
  }

  @Test func aTimeoutIsAFailureAndTheLateCommitIsNotStoredTwice() async throws {
    let server = try await LiveServer()
    defer { Task { await server.stop() } }
    let clock = TestClock()
    let home = try Home(server: server, sinks: [.ctfo], clock: clock)
    let ids = try await home.swipe(4)
    server.faults.set([Faults.Rule(path: "/v1/events", delayMs: 3000, times: 1)])
    let delivery = home.delivery(.ctfo)
    let outcome = try await onThread { delivery.flush(deadline: .now + .milliseconds(500)) }
    guard case .waiting(let until) = outcome else {
      Issue.record("a batch with no answer was taken as delivered")
      return
    }
    // The held request commits after the client gave up, before or after the retry: the
    // server keeps one copy of each event either way.
    clock.set(until)
    #expect(try await home.flush(.ctfo) == .empty)
    #expect(try received(server, .ctfo).map(\.insertID) == ids)
  }

  @Test func retryAfterIsHonouredAndNothingIsSentBeforeIt() async throws {
    let server = try await LiveServer()
    defer { Task { await server.stop() } }
    let clock = TestClock()
    let home = try Home(server: server, sinks: [.mixpanel], clock: clock)
    try await home.swipe(3)
    server.faults.set([Faults.Rule(path: "/import", status: 429, retryAfter: 120, times: 1)])
    #expect(try await home.flush(.mixpanel) == .waiting(until: clock.now + 120_000))
    clock.advance(119_000)
    #expect(try await home.flush(.mixpanel) == .waiting(until: clock.now + 1000))
    #expect(posts(server, "/import") == 1)
    clock.advance(1000)
    #expect(try await home.flush(.mixpanel) == .empty)
    #expect(try received(server, .mixpanel).count == 7)
  }

  @Test func a413HalvesTheBatchUntilItFits() async throws {
    let server = try await LiveServer()
    defer { Task { await server.stop() } }
    let home = try Home(server: server, sinks: [.ctfo])
    let ids = try await home.swipe(4)  // 9 events with the Identify
    server.faults.set([Faults.Rule(path: "/v1/events", status: 413, times: 2)])
    #expect(try await home.flush(.ctfo) == .empty)
    #expect(try received(server, .ctfo).map(\.insertID) == ids)
    // 9 refused, 4 refused, then 2, 4 and 3 taken as the size grows back.
    #expect(posts(server, "/v1/events") == 5)
    #expect(try home.outbox.status(of: "ctfo").deadLetters == 0)
  }

  @Test func anEventTooLargeAloneIsADeadLetterAndTheQueueGoesOn() async throws {
    let server = try await LiveServer()
    defer { Task { await server.stop() } }
    let home = try Home(server: server, sinks: [.ctfo, .mixpanel])
    var ids = try await home.swipe(2)
    let huge = String(repeating: "x", count: (2 << 20) + 10)
    try home.outbox.record(
      [AnalyticsEvent("Poison", ["blob": .string(huge)])], at: Double(home.clock.now) / 1000,
      context: AnalyticsSinks.context)
    let poison = try home.outbox.all().last!.insertID
    ids += try await home.swipe(2, from: 2)
    for sink in [SinkKind.ctfo, .mixpanel] {
      #expect(try await home.flush(sink) == .empty)
      #expect(try received(server, sink).map(\.insertID) == ids.filter { $0 != poison })
      let dead = try home.outbox.deadLetters(of: sink.rawValue)
      #expect(dead.map(\.row.insertID) == [poison] && dead.first?.status == 413)
      #expect(try home.outbox.status(of: sink.rawValue).deadLetters == 1)
    }
    #expect(try home.outbox.all().isEmpty, "the dead letter keeps its copy; the outbox is done")
  }

  @Test func a400NamingFailedRecordsDeadLettersThemAndAcknowledgesTheRest() async throws {
    let server = try await LiveServer()
    defer { Task { await server.stop() } }
    let home = try Home(server: server, sinks: [.ctfo, .mixpanel])
    let before = try await home.swipe(2)
    // An event of 300 properties: Mixpanel (and our server) take at most 254.
    var wide = AnalyticsEvent("Wide")
    wide.properties = (0..<300).map { .init("p\($0)", .integer(Int64($0))) }
    try home.outbox.record([wide], at: Double(home.clock.now) / 1000, context: AnalyticsSinks.context)
    let poison = try home.outbox.all().last!.insertID
    let after = try await home.swipe(2, from: 2)
    for (sink, path) in [(SinkKind.ctfo, "/v1/events"), (.mixpanel, "/import")] {
      #expect(try await home.flush(sink) == .empty)
      #expect(try received(server, sink).map(\.insertID) == before + after)
      let dead = try home.outbox.deadLetters(of: sink.rawValue)
      #expect(dead.map(\.row.insertID) == [poison])
      #expect(dead.allSatisfy { $0.status == 400 && $0.reason.contains("properties") })
      #expect(posts(server, path) == 1, "no resend loop")
    }
    #expect(try home.outbox.all().isEmpty)
  }

  @Test func anEventOverAnHourAheadIsTakenAsNowNotRefused() async throws {
    let server = try await LiveServer()
    defer { Task { await server.stop() } }
    // This machine's clock runs 2 h fast, and no auth has measured it yet.
    let clock = TestClock()
    let fast = TestClock(clock.now + 2 * 3_600_000)
    let home = try Home(server: server, sinks: [.mixpanel], clock: clock, device: fast)
    let ids = try await home.swipe(2)
    #expect(try await home.flush(.mixpanel) == .empty)
    let events = try received(server, .mixpanel)
    #expect(events.map(\.insertID) == ids)
    #expect(events.allSatisfy { abs($0.time - APIClient.systemMilliseconds()) < 60_000 })
  }

  @Test func a401AuthenticatesAgainOnce() async throws {
    let server = try await LiveServer()
    defer { Task { await server.stop() } }
    let home = try Home(server: server, sinks: [.ctfo])
    let ids = try await home.swipe(2)
    let store = ServerStore(database: home.database)
    var session = try store.session(for: server.endpoint.description)
    session.token = "not-a-token"
    session.tokenExpiresAt = .max
    try store.save(session)
    #expect(try await home.flush(.ctfo) == .empty)
    #expect(try received(server, .ctfo).map(\.insertID) == ids)
    #expect(posts(server, "/v1/auth") == 1 && posts(server, "/v1/events") == 2)
  }

  @Test func oneSinkFailingNeverHoldsAnotherBack() async throws {
    let server = try await LiveServer()
    defer { Task { await server.stop() } }
    let clock = TestClock()
    let home = try Home(server: server, clock: clock)
    server.faults.set([
      Faults.Rule(path: "/import", status: 503), Faults.Rule(path: "/mp/collect", action: .reset),
    ])
    let ids = try await home.swipe(5)
    #expect(try await home.flush(.ctfo) == .empty)
    #expect(try received(server, .ctfo).map(\.insertID) == ids)
    guard case .waiting = try await home.flush(.mixpanel), case .waiting = try await home.flush(.ga)
    else {
      Issue.record("a failing sink reported its events delivered")
      return
    }
    #expect(try home.outbox.all().map(\.insertID) == ids, "kept until every sink has them")
    #expect(try home.outbox.status(of: "ctfo").queued == 0)
    let more = try await home.swipe(2, from: 5)
    #expect(try await home.flush(.ctfo) == .empty)
    #expect(try received(server, .ctfo).map(\.insertID) == ids + more)
    server.faults.set([])
    clock.advance(10_000)
    #expect(try await home.flush(.mixpanel) == .empty)
    #expect(try await home.flush(.ga) == .empty)
    #expect(try received(server, .mixpanel).map(\.insertID) == ids + more)
    #expect(try gaIDs(server) == ids + more)
    #expect(try home.outbox.all().isEmpty)
  }

  @Test(arguments: [2 * 3_600_000, -3 * 86_400_000] as [Int64])
  func aSkewedClockIsCorrectedByTheServersTime(skew: Int64) async throws {
    let server = try await LiveServer()
    defer { Task { await server.stop() } }
    let clock = TestClock()
    let skewed = TestClock(clock.now + skew)
    let home = try Home(server: server, sinks: [.ctfo, .mixpanel, .ga], clock: clock, device: skewed)
    // The launch pull authenticates: the offset is measured then, from the server's real time
    // (the device's test clocks stand still), so each event is stamped within the pull's span.
    let before = APIClient.systemMilliseconds()
    guard case .applied = try await home.pullNow() else {
      Issue.record("the pull failed")
      return
    }
    try await home.swipe(3)
    let span = (before - 1000)...(APIClient.systemMilliseconds() + 1000)
    let recorded = try home.outbox.all()
    #expect(recorded.allSatisfy { span.contains($0.time) }, "within the real time of the pull")
    server.faults.set([Faults.Rule(path: "/v1/events", status: 500, times: 1)])
    guard case .waiting(let until) = try await home.flush(.ctfo) else {
      Issue.record("a 500 was taken as delivered")
      return
    }
    clock.set(until)
    for sink in SinkKind.allCases { #expect(try await home.flush(sink) == .empty) }
    for sink in [SinkKind.ctfo, .mixpanel] {
      #expect(try received(server, sink).map(\.time) == recorded.map(\.time))
    }
    #expect(try received(server, .ga).map(\.time) == recorded.map(\.time))
  }

  @Test func aHundredThousandEventsGoInFiftyRequests() async throws {
    let server = try await LiveServer()
    defer { Task { await server.stop() } }
    let home = try Home(server: server, sinks: [.ctfo])
    let events = (0..<99_999).map {
      AnalyticsEvent.focus(cardID: "c\($0)", type: "news", milliseconds: Int64($0))
    }
    let time = Double(home.clock.now) / 1000
    try await onThread {
      try home.outbox.record(events, at: time, context: AnalyticsSinks.context)
    }
    #expect(try home.outbox.status(of: "ctfo").queued == 100_000)
    #expect(try await home.flush(.ctfo, within: .seconds(90)) == .empty)
    #expect(posts(server, "/v1/events") == 50)
    #expect(try received(server, .ctfo).count == 100_000)
    #expect(try home.outbox.all().isEmpty)
  }

  @Test func finalReactionsScoreTheUsersUnseenCards() async throws {
    let server = try await LiveServer(cards: LiveServer.cards(12))
    defer { Task { await server.stop() } }
    let home = try Home(server: server, sinks: [.ctfo])
    guard case .applied = try await home.pullNow() else {
      Issue.record("the first pull failed")
      return
    }
    // c1 and c3 (news) were swiped up, c2 (tips) left.
    for (i, id, type, direction) in [
      (0, "c1", "news", SwipeDirection.up), (1, "c3", "news", .up), (2, "c2", "tips", .left),
    ] {
      try home.state.apply(
        StateChange(
          effects: [.commit(Tombstone(historyIndex: i, cardID: id, type: type, direction: direction))],
          time: Double(home.clock.now) / 1000))
    }
    #expect(try await home.flush(.ctfo) == .empty)
    // The server makes the install's scores off the request path (its background task).
    _ = try server.store.rescorePending(limit: 10, at: home.clock.now)
    guard case .applied(let applied) = try await home.pullNow() else {
      Issue.record("the second pull brought nothing")
      return
    }
    #expect(applied.scores == 9, "the 4 unseen news and 5 unseen tips")
    let index = DeckIndex(database: home.database)
    let news = try #require(try index.card(id: "c5"))
    #expect(news.why?.hasSuffix(": new: few have seen it yet") == true, "\(news.why ?? "none")")
    let tips = try #require(try index.card(id: "c4"))
    #expect(tips.why?.hasPrefix("scored 1.") == true, "\(tips.why ?? "none")")
    #expect(try index.card(id: "c1")?.why == nil, "a seen card is not scored")
  }
}
