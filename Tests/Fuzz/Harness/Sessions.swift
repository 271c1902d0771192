import FeedCore
import HTTP
import Store

@testable import CTFOClient
@testable import CTFOWire

#if canImport(Glibc)
  import Glibc
#endif

/// An auth's or a pull's answer taken into the client's state as `ctfo` takes it: the session
/// (token, clock offset, cache key), then a state database (`ServerStore.apply`, the status,
/// the notice, the scores, an analytics event stamped with the stored offset). The first byte
/// chooses: bit 0 auth or pull, bits 1-3 this machine's clock (numbers at their edges among
/// them), bit 4 whether the pull keeps ordinals as the running app's do.
///
/// Checks that nothing traps, that the session holds only values a request can carry (a token
/// and cache key that fit a header, an offset within a year) and that a pull's cards are either
/// applied or named as left out.
enum SessionHarness {
  static let clocks: [Int64] = [
    0, 1, -1, 1_700_000_000_000, .max, .min, .max - 1, 253_402_300_799_999,
  ]

  /// One database for the run, in memory's file system where there is one.
  static let database: StateDatabase = {
    let base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
    let folder = "\(base)/ctfo-fuzz-sessions-\(getpid())"
    mkdir(folder, 0o700)
    do { return try StateDatabase(path: folder + "/state.sqlite") } catch {
      fatalError("ctfo-fuzz: cannot open the state database: \(error)")
    }
  }()

  static func run(_ bytes: UnsafeRawBufferPointer) {
    guard let first = bytes.first else { return }
    let clock = clocks[Int(first >> 1) & 7]
    let answer = HTTPResponse(status: 200, body: Array(bytes.dropFirst()))
    let store = ServerStore(database: database)
    guard var session = try? store.session(for: "http://127.0.0.1:1") else {
      fatalError("ctfo-fuzz: cannot read the session")
    }
    if first & 1 == 0 {
      guard (try? APIClient.take(auth: answer, sent: clock, received: clock, into: &session)) != nil
      else { return }
      precondition(ServerSession.isSane(offset: session.clockOffset), "\(session.clockOffset)")
      precondition(session.token.map(ServerSession.fitsHeader) == true, "the token")
      _ = session.serverTime(at: clock)
      save(session, store)
    } else {
      let pulled = try? APIClient.take(pull: answer, of: .hot, into: &session)
      guard let pull = pulled else { return }
      precondition(session.cacheKeys["hot"].map(ServerSession.fitsHeader) != false, "the key")
      do {
        let applied = try store.apply(
          pull, session: session, at: clock, keepOrdinals: first & 16 != 0)
        precondition(
          applied.cards + applied.refused.count == pull.cards.count + pull.refused.count,
          "\(pull.cards.count) cards, \(pull.refused.count) refused: \(applied)")
        // The app's notices and `ctfo status`'s, at one time of this machine, on one clock.
        let status = try store.status(at: clock)
        let notices = try store.notices(at: clock)
        precondition(
          notices.map(\.text).sorted() == status.notifications.sorted(),
          "the app's notices \(notices) are not ctfo status's \(status.notifications)")
        _ = try store.scores(of: Set(pull.cards.map(\.type)))
      } catch {
        fatalError("ctfo-fuzz: cannot apply the pull: \(error)")
      }
    }
    do {
      try Outbox(database: database).record(
        [AnalyticsEvent("Fuzz", [:])], at: 1_700_000_000, context: .init(app: "fuzz", locale: "C"))
    } catch {
      fatalError("ctfo-fuzz: cannot record an event: \(error)")
    }
  }

  private static func save(_ session: ServerSession, _ store: ServerStore) {
    do { try store.save(session) } catch { fatalError("ctfo-fuzz: cannot save: \(error)") }
  }
}
