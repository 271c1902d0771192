import CTFOClient
import CTFOServer
import CTFOWire
import Foundation
import HTTP
import Hummingbird
import Logging
import ServerFixtures
import Synchronization
import TestFixtures

/// The real CTFO server on 127.0.0.1 with a free port, in the test's process, on a store of its
/// own: routes, store and HTTP stack as `ctfo-server` runs them. Counts the requests by path.
final class LiveServer: Sendable {
  let port: Int
  let store: SQLiteCardStore
  private let folder: TemporaryFolder
  private let application: LoopbackApplication
  private let seen: RequestLog
  /// The test fault switch (`Faults`): rules and the log of requests.
  let faults = Faults()
  private let hasFaults: Bool
  /// What the server logged, one line an entry: its level, message and metadata.
  let logs = LoggedLines()
  /// The full pulls' shared parts the server keeps.
  let pulls = PullCache()

  /// The requests' paths, in order.
  var requests: [String] { seen.paths.withLock { $0 } }
  /// The store's file.
  var storePath: String { folder.path("server.sqlite") }

  init(
    cards: [Wire.Card] = LiveServer.cards(12), types: [Wire.CardType] = LiveServer.types,
    settings: ServerSettings = LiveServer.settings, faultSwitch: Bool = true,
    logRequests: Bool = false
  ) async throws {
    hasFaults = faultSwitch
    folder = try TemporaryFolder("ctfo-server")
    store = try SQLiteCardStore(path: folder.path("server.sqlite"))
    _ = try store.load(cards: cards, types: types)
    let seen = RequestLog()
    self.seen = seen
    // Without the fault switch, the pulls that need no waiting are answered on the event loop,
    // as ctfo-server answers them.
    let service = Routes.service(
      store: store, settings: settings, logRequests: logRequests,
      faults: faultSwitch ? faults : nil,
      pullCache: pulls, onRequest: { path in seen.paths.withLock { $0.append(path) } })
    application = try await LoopbackApplication(service, logger: logs.logger())
    port = application.port
  }

  func stop() async { await application.stop() }

  var endpoint: Endpoint { try! Endpoint(parsing: "http://127.0.0.1:\(port)") }

  func client(now: @escaping @Sendable () -> Int64 = APIClient.systemMilliseconds) -> APIClient {
    APIClient(
      transport: HTTPTransport(endpoint: endpoint),
      device: .init(platform: "linux", app: "ctfo-test", locale: "C"), now: now)
  }

  /// The settings of a test server: the credentials the test clients' Mixpanel and GA sinks
  /// send (AnalyticsDeliveryTests.Home).
  static var settings: ServerSettings {
    var settings = ServerSettings()
    settings.mixpanelToken = "project-token"
    settings.gaAPISecret = "secret"
    return settings
  }

  static let types = [
    Wire.CardType(name: "news", label: "News", colour: "yellow"),
    Wire.CardType(name: "tips", label: "Tips"),
  ]

  /// `n` cards, alternately news and tips: "c1", "c2", ...
  static func cards(_ n: Int, body: (Int) -> String = { "Body \($0)." }) -> [Wire.Card] {
    (1...n).map { i in
      Wire.Card(id: "c\(i)", type: i % 2 == 1 ? "news" : "tips", title: "Card \(i)", body: body(i))
    }
  }
}

/// The paths the server saw.
final class RequestLog: Sendable {
  let paths = Mutex<[String]>([])
}

extension Duration {
  /// The deadline of one request in these tests.
  static let request = Duration.seconds(10)
}
