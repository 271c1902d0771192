import CTFOWire
import FeedCore
import Foundation
import Hummingbird
import Logging

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The personaliser's evaluation (`ctfo-server simulate`): a server on loopback
/// with a SQLite store in a temporary folder, driven over HTTP by simulated installs one after
/// another, each dealt as the client deals (types in turn; within a type the top score, equal
/// scores and unscored cards at random: FeedCore's `ScoredPool`), reacting by a hidden chance
/// `sigmoid(a + b·quality[card] + c·taste[install][topic[card]])`, its reactions posted to
/// `/v1/events` as the client posts them. A late cohort's like chance of what was dealt is
/// set beside a random choice within the type and the best possible for the install.
public struct Simulation: Sendable {
  public struct Settings: Sendable {
    public var installs = 200
    public var types = 4
    public var cardsPerType = 15
    public var topics = 4
    public var swipes = 24
    public var a = -0.5
    public var b = 1.5
    public var c = 1.0
    public var seed: UInt64 = 46
    /// The cohort measured: installs `cohort` (1-based, inclusive).
    public var cohort: ClosedRange<Int>?
    /// Pulls after every this many swipes (the first before the first swipe).
    public var pullEvery = 1
    public var personalisation = PersonalisationSettings()
    public init() {}

    /// The last quarter of the installs unless set.
    public var measured: ClosedRange<Int> { cohort ?? (installs - installs / 4 + 1)...installs }
  }

  /// One run's figures.
  public struct Outcome: Sendable {
    /// Mean like chance of the cohort's dealt cards; of a random card of the type; of the best.
    public var server = 0.0
    public var random = 0.0
    public var best = 0.0
    /// What knowing every card's quality (and nothing personal) would have dealt.
    public var knownPopularity = 0.0
    /// Share of the cohort's swipes that were CTFO.
    public var likedShare = 0.0
    /// Per card, the share of all installs it was dealt to.
    public var coverage: [Double] = []
    public var seconds = 0.0

    public var lift: Double { best > random ? (server - random) / (best - random) : 0 }
    public var knownPopularityLift: Double {
      best > random ? (knownPopularity - random) / (best - random) : 0
    }
  }

  public let settings: Settings
  public init(settings: Settings) { self.settings = settings }

  /// The hidden population: per card a type, topic and quality; per install a taste per topic.
  struct Population {
    var cards: [(id: String, type: Int, topic: Int, quality: Double)] = []
    var tastes: [[Double]] = []

    init(_ s: Settings) {
      var random = SeededRandom(seed: s.seed, "population")
      for type in 0..<s.types {
        for i in 0..<s.cardsPerType {
          cards.append(
            (
              String(format: "t%d-c%03d", type, i), type, Int(random.next() % UInt64(s.topics)),
              random.normal()
            ))
        }
      }
      tastes = (0..<s.installs).map { _ in (0..<s.topics).map { _ in random.normal() } }
    }

    func chance(install: Int, card: Int, _ s: Settings) -> Double {
      let card = cards[card]
      let x = s.a + s.b * card.quality + s.c * tastes[install][card.topic]
      return 1 / (1 + exp(-x))
    }
  }

  /// Runs the population against a server whose store scores with `personalisation`.
  public func run(personalisation: PersonalisationSettings) async throws -> Outcome {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ctfo-simulate-\(getpid())-\(UInt64.random(in: 0...UInt64.max))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = try SQLiteCardStore(path: folder.appendingPathComponent("server.sqlite").path)
    store.personalisation = personalisation
    let population = Population(settings)
    _ = try store.load(
      cards: population.cards.map {
        Wire.Card(id: $0.id, type: "type\($0.type)", title: "Card \($0.id)", body: "b")
      }, types: (0..<settings.types).map { Wire.CardType(name: "type\($0)") })
    let (ports, continuation) = AsyncStream<Int>.makeStream()
    let logger = Logger(label: "ctfo-simulate") { _ in SwiftLogNoOpLogHandler() }
    let service = Routes.service(store: store, logRequests: false, logger: logger)
    let app = Application(
      router: service.router, server: service.server,
      configuration: .init(address: .hostname("127.0.0.1", port: 0)),
      onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) },
      logger: logger)
    let server = Task { try await app.runService(gracefulShutdownSignals: []) }
    defer { server.cancel() }
    var iterator = ports.makeAsyncIterator()
    let port = await iterator.next() ?? 0
    let settings = settings
    let start = DispatchTime.now()
    var outcome = try await withCheckedThrowingContinuation {
      (done: CheckedContinuation<Outcome, any Error>) in
      Thread.detachNewThread {
        do {
          done.resume(
            returning: try Self.drive(
              port: port, population: population, settings: settings, store: store))
        } catch {
          done.resume(throwing: error)
        }
      }
    }
    outcome.seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    server.cancel()
    _ = try? await server.value
    return outcome
  }

  /// The installs, one after another, on this thread.
  static func drive(
    port: Int, population: Population, settings s: Settings, store: SQLiteCardStore
  ) throws -> Outcome {
    let http = LoopbackHTTP(port: port)
    let decoder = JSONDecoder()
    let types = (0..<s.types).map { type in population.cards.indices.filter { population.cards[$0].type == type } }
    let ordinal = Dictionary(
      uniqueKeysWithValues: population.cards.indices.map {
        (population.cards[$0].id, (type: population.cards[$0].type, ordinal: types[population.cards[$0].type].firstIndex(of: $0)!))
      })
    var dealt = [Int](repeating: 0, count: population.cards.count)
    var outcome = Outcome()
    var measuredSwipes = 0
    let span = Int64(s.installs * (s.swipes + 2)) * 5_000
    let origin = Clock.milliseconds() - span
    func settle() throws {
      while try store.rescorePending(limit: 256, at: Clock.milliseconds()) > 0 {}
    }
    for install in 0..<s.installs {
      let id = "sim-\(install)"
      let auth =
        #"{"installId":"\#(id)","device":{"platform":"linux","app":"simulate","locale":"C"},"user":{},"clientTime":0}"#
      let answer = try http.request(
        "POST", "/v1/auth", headers: ["Content-Type: application/json"], body: Array(auth.utf8))
      guard answer.status == 200,
        let json = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any],
        let token = json["token"] as? String
      else { throw LoopbackHTTP.Failure(description: "auth: \(answer.status)") }
      var rng = SeededRandom(seed: s.seed, "client", id)
      var pools = types.map { ScoredPool(count: $0.count, salt: rng.next()) }
      var cacheKey: String?
      func pull() throws {
        try settle()
        var headers = ["Authorization: Bearer \(token)"]
        if let cacheKey { headers.append("If-None-Match: \"\(cacheKey)\"") }
        let answer = try http.request("GET", "/v1/pull?feed=hot", headers: headers)
        guard answer.status == 200 else {
          if answer.status == 304 { return }
          throw LoopbackHTTP.Failure(description: "pull: \(answer.status)")
        }
        let pulled = try decoder.decode(Wire.Pull.self, from: Data(answer.body))
        cacheKey = pulled.cacheKey
        for score in pulled.scores {
          guard let place = ordinal[score.cardId] else { continue }
          pools[place.type].update(
            place.ordinal,
            to: ScoredPool.Score(value: score.score, timestamp: Double(score.scoredAt)))
        }
      }
      let measured = s.measured.contains(install + 1)
      for swipe in 0..<s.swipes {
        if swipe % s.pullEvery == 0 { try pull() }
        let type = swipe % s.types
        guard let drawn = pools[type].promote(using: &rng) else { continue }
        let card = types[type][drawn]
        dealt[card] += 1
        let chance = population.chance(install: install, card: card, s)
        if measured {
          let unseen = types[type].indices.filter { $0 == drawn || pools[type].isUnseen($0) }
            .map { types[type][$0] }
          let chances = unseen.map { population.chance(install: install, card: $0, s) }
          outcome.server += chance
          outcome.random += chances.reduce(0, +) / Double(chances.count)
          outcome.best += chances.max() ?? 0
          let known = unseen.max { population.cards[$0].quality < population.cards[$1].quality }!
          outcome.knownPopularity += population.chance(install: install, card: known, s)
          measuredSwipes += 1
        }
        // The same install meets the same card the same way in every run (common random
        // numbers): CTFO by its chance, else TFU a quarter of the time, else TIFB.
        var draw = SeededRandom(seed: s.seed, "reaction", id, population.cards[card].id)
        let u = draw.unit()
        let name = u < chance ? "CTFO" : u < chance + (1 - chance) / 4 ? "TFU" : "TIFB"
        if measured, name == "CTFO" { outcome.likedShare += 1 }
        let time = origin + Int64(install * (s.swipes + 2) + swipe) * 5_000
        let event =
          #"[{"event":"\#(name)","properties":{"time":\#(time),"distinct_id":"\#(id)","$insert_id":"s\#(install)-\#(swipe)","card_id":"\#(population.cards[card].id)"}}]"#
        let posted = try http.request(
          "POST", "/v1/events",
          headers: ["Authorization: Bearer \(token)", "Content-Type: application/json"],
          body: Array(event.utf8))
        guard posted.status == 200 else {
          throw LoopbackHTTP.Failure(
            description: "events: \(posted.status) \(String(decoding: posted.body, as: UTF8.self))")
        }
      }
    }
    let n = Double(max(1, measuredSwipes))
    outcome.server /= n
    outcome.random /= n
    outcome.best /= n
    outcome.knownPopularity /= n
    outcome.likedShare /= n
    outcome.coverage = dealt.map { Double($0) / Double(s.installs) }
    return outcome
  }

  /// What `ctfo-server simulate` prints: the learned order and a popularity-only one on the
  /// same population.
  public func report() async throws -> String {
    let learned = try await run(personalisation: settings.personalisation)
    var popular = settings.personalisation
    popular.personal = false
    let popularity = try await run(personalisation: popular)
    let cohort = settings.measured
    func f(_ x: Double) -> String { String(format: "%.3f", x) }
    let gain = popularity.likedShare > 0 ? learned.likedShare / popularity.likedShare - 1 : 0
    let minimum = learned.coverage.min() ?? 0
    let below = learned.coverage.filter { $0 < 0.01 }.count
    return """
      population: \(settings.installs) installs, \(settings.types) types x \(settings.cardsPerType) cards, \(settings.topics) topics, \(settings.swipes) swipes, like chance sigmoid(\(settings.a) + \(settings.b) q + \(settings.c) taste), seed \(settings.seed)
      cohort: installs \(cohort.lowerBound)-\(cohort.upperBound) (mean like chance of what was dealt)
      order            server  random  best    lift   liked share
      learned          \(f(learned.server))   \(f(learned.random))   \(f(learned.best))   \(f(learned.lift))  \(f(learned.likedShare))
      popularity-only  \(f(popularity.server))   \(f(popularity.random))   \(f(popularity.best))   \(f(popularity.lift))  \(f(popularity.likedShare))
      known popularity \(f(learned.knownPopularity))   (lift \(f(learned.knownPopularityLift)))
      liked share, learned over popularity-only: \(String(format: "%+.1f", gain * 100)) %
      coverage: every card dealt to at least \(String(format: "%.1f", minimum * 100)) % of installs; \(below) cards below 1 %
      time: learned \(String(format: "%.1f", learned.seconds)) s, popularity-only \(String(format: "%.1f", popularity.seconds)) s

      """
  }
}
