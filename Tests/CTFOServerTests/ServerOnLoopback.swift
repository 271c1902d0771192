import CTFOServer
import CTFOWire
import Foundation
import Hummingbird
import Logging
import ServerFixtures
import Synchronization
import TestFixtures

/// ctfo-server's routes and HTTP stack on 127.0.0.1 with a free port, in the test's process, as
/// `ctfo-server` runs them (pulls that need no waiting answered on the event loop), on a
/// SQLite store of its own, or on a store the test wraps around it.
final class ServerOnLoopback: Sendable {
  let port: Int
  let store: SQLiteCardStore
  private let folder: TemporaryFolder
  private let application: LoopbackApplication

  /// `wrap` makes the store the routes use from the SQLite one (a test's `HeldStore`).
  /// What the server logged at `debug` and above, one line an entry.
  let logs = LoggedLines()

  init(
    settings: ServerSettings = ServerSettings(),
    wrap: (SQLiteCardStore) -> any CardStore = { $0 }
  ) async throws {
    folder = try TemporaryFolder("ctfo-server")
    let store = try SQLiteCardStore(path: folder.path("server.sqlite"))
    self.store = store
    _ = try store.load(
      cards: (1...6).map {
        Wire.Card(id: "c\($0)", type: $0 % 2 == 1 ? "news" : "tips", body: "b")
      },
      types: [Wire.CardType(name: "news"), Wire.CardType(name: "tips")])
    let logger = logs.logger()
    application = try await LoopbackApplication(
      Routes.service(store: wrap(store), settings: settings, logger: logger), logger: logger)
    port = application.port
  }

  func stop() async { await application.stop() }

  /// One request on a new connection, on a thread of its own (the server's handlers need the
  /// cooperative pool); nil when no answer came within `seconds`.
  func exchange(_ request: String, within seconds: Double = 10) async throws -> RawMessage? {
    let port = port
    return try await onThread { try RawConnection.exchange(port: port, request, within: seconds) }
  }

  /// The head of a request with `headers` and a body of `length` bytes.
  static func head(
    _ method: String, _ path: String, length: Int? = nil, headers: [String] = []
  ) -> String {
    RawConnection.head(method, path, length: length, headers: headers)
  }

  /// An auth request's whole text for `install`.
  static func auth(_ install: String, headers: [String] = []) -> String {
    let body =
      #"{"installId":"\#(install)","device":{"platform":"linux","app":"t","locale":"C"},"user":{},"clientTime":0}"#
    return head("POST", "/v1/auth", length: body.utf8.count, headers: headers) + body
  }

  /// A token for `install`.
  func token(_ install: String) async throws -> String {
    let answer = try await exchange(Self.auth(install))
    let json = try JSONSerialization.jsonObject(with: Data((answer?.body ?? "").utf8))
    guard let token = (json as? [String: Any])?["token"] as? String else {
      throw NoToken(description: "no token for \(install): \(String(describing: answer))")
    }
    return token
  }

  /// A `POST /v1/events` of `count` events with `token`, each on card `c1`.
  static func events(_ count: Int, token: String, tag: String = "e") -> String {
    let events = (0..<count).map {
      #"{"event":"focus","properties":{"time":1763900000123,"distinct_id":"x","$insert_id":"\#(tag)-\#($0)","card_id":"c1","card_type":"news"}}"#
    }
    let body = "[" + events.joined(separator: ",") + "]"
    return head(
      "POST", "/v1/events", length: body.utf8.count, headers: ["Authorization: Bearer \(token)"])
      + body
  }
}

/// An auth that gave no token.
struct NoToken: Error, CustomStringConvertible {
  var description: String
}

/// A store that holds every batch of more than one event in `record` (and, if asked, every
/// `revision`) until the test lets it go: what a slow bulk upload or a store that hangs is to
/// the server, without timing.
final class HeldStore: CardStore {
  let base: SQLiteCardStore
  private let state = Mutex<(held: Int, waiting: [CheckedContinuation<Void, Never>], open: Bool)>(
    (0, [], false))

  init(_ base: SQLiteCardStore, holdsRevisions: Bool = false) {
    self.base = base
    self.holdsRevisions = holdsRevisions
  }

  /// Batches held now.
  var held: Int { state.withLock { $0.held } }

  /// Lets every held batch (and every later one) go.
  func release() {
    let waiting = state.withLock { state in
      state.open = true
      defer { state.waiting = [] }
      return state.waiting
    }
    for continuation in waiting { continuation.resume() }
  }

  func record(events: [ReceivedEvent], install: String?, at time: Int64) async throws {
    if events.count > 1 { await hold() }
    try base.record(events: events, install: install, at: time)
  }

  func changes(since revision: Int64?, feed: PullFeed, bodyLimit: Int, install: String?)
    async throws -> Changes
  { try base.changes(since: revision, feed: feed, bodyLimit: bodyLimit, install: install) }
  func ownChanges(install: String, feed: PullFeed) async throws -> Changes {
    try await base.ownChanges(install: install, feed: feed)
  }
  func revision(install: String?, feed: PullFeed) async throws -> Int64 {
    if holdsRevisions {
      revisionsAsked.withLock { $0 += 1 }
      await hold()
    }
    return try base.revision(install: install, feed: feed)
  }

  /// Whether `revision` is held too (the query `/readyz` asks), as a store that hangs.
  let holdsRevisions: Bool
  /// How many times `revision` was asked while held.
  let revisionsAsked = Mutex(0)

  /// Waits until `release`, unless it came already.
  private func hold() async {
    await withCheckedContinuation { continuation in
      let go = state.withLock { state in
        guard !state.open else { return true }
        state.held += 1
        state.waiting.append(continuation)
        return false
      }
      if go { continuation.resume() }
    }
  }
  func epoch() async throws -> String { try base.epoch() }
  func card(id: String) async throws -> Wire.Card? { try base.card(id: id) }
  func load(cards: [Wire.Card], types: [Wire.CardType]) async throws -> LoadReport {
    try base.load(cards: cards, types: types)
  }
  func score(cardId: String, score: Double, at time: Int64) async throws -> Bool {
    try base.score(cardId: cardId, score: score, at: time)
  }
  func setStatus(install: String, to status: String) async throws -> Bool {
    try base.setStatus(install: install, to: status)
  }
  func notify(id: String, text: String, at time: Int64) async throws {
    try base.notify(id: id, text: text, at: time)
  }
  func issueToken(hash: [UInt8], installId: String, expiresAt: Int64) async throws -> String {
    try base.issueToken(hash: hash, installId: installId, expiresAt: expiresAt)
  }
  func install(forToken hash: [UInt8], at time: Int64) async throws -> String? {
    try base.install(forToken: hash, at: time)
  }
  func prune(at time: Int64, eventsBefore: Int64?) async throws -> PruneReport {
    try base.prune(at: time, eventsBefore: eventsBefore)
  }
  func events(sink: String) async throws -> [ReceivedEvent] { try base.events(sink: sink) }
  func eventReport(sink: String) async throws -> String { try base.eventReport(sink: sink) }
  func countRefused(sink: String, records: Int, requests: Int) async throws {
    try base.countRefused(sink: sink, records: records, requests: requests)
  }
  func dashboard(at time: Int64, minReactions: Int) async throws -> DashboardData {
    try base.dashboard(at: time, minReactions: minReactions)
  }
}
