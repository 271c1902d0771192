import Prometheus
import Synchronization

/// What `GET /metrics` shows, in Prometheus's text format: requests by route and status,
/// latency by route, pulls, events, store errors and open connections.
///
/// Every label comes from a fixed set (`RouteName`, `StatusLabel`, the sinks), never from what
/// a client sent, so no request can add a series: the registry's size is bounded whatever comes.
public final class ServerMetrics: Sendable {
  /// Where the series live; `/metrics` writes it out.
  public let registry = PrometheusCollectorRegistry()
  /// Pulls answered with a body, and with `304`.
  public let pullsWithBody: Counter
  public let pullsNotModified: Counter
  /// Pulls whose body was sent from bytes held in memory, not built for the request: the pull
  /// route counts them.
  public let pullsFromMemory: Counter
  /// Store calls that failed: a request answered `503` for it, or `/readyz` refused.
  public let storeErrors: Counter
  /// Connections open now.
  public let connectionsOpen: Gauge
  private let ingested: [String: Counter]
  private let rejected: [String: Counter]
  /// Made on first use: a route's latency histogram, and a counter per route and status.
  private let series = Mutex(Series())

  /// The analytics sinks events are counted by.
  static let sinks = ["ctfo", "mixpanel", "ga"]

  /// The upper bounds of the latency buckets: from a pull from memory to a slow store.
  static let latencyBuckets: [Duration] = [
    .microseconds(500), .milliseconds(1), .microseconds(2500), .milliseconds(5),
    .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
    .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5),
  ]

  private struct Series {
    var latency = [DurationHistogram?](repeating: nil, count: RouteName.allCases.count)
    var requests = [Counter?](
      repeating: nil, count: RouteName.allCases.count * StatusLabel.count)
  }

  public init() {
    func name(_ metric: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
      MetricNameDescriptor(namespace: "ctfo", metricName: metric, unitName: unit, helpText: help)
    }
    let pulls = name("pulls_served", "total", "Pulls answered, by answer.")
    pullsWithBody = registry.makeCounter(descriptor: pulls, labels: [("answer", "body")])
    pullsNotModified = registry.makeCounter(
      descriptor: pulls, labels: [("answer", "not_modified")])
    pullsFromMemory = registry.makeCounter(
      descriptor: name("pulls_from_memory", "total", "Pull bodies sent from memory."))
    storeErrors = registry.makeCounter(
      descriptor: name("store_errors", "total", "Store calls that failed."))
    connectionsOpen = registry.makeGauge(
      descriptor: name("connections_open", "", "HTTP connections open now."))
    let ingestedName = name("events_ingested", "total", "Analytics events stored, by sink.")
    let rejectedName = name("events_rejected", "total", "Analytics events refused, by sink.")
    var ingested: [String: Counter] = [:]
    var rejected: [String: Counter] = [:]
    for sink in Self.sinks {
      ingested[sink] = registry.makeCounter(descriptor: ingestedName, labels: [("sink", sink)])
      rejected[sink] = registry.makeCounter(descriptor: rejectedName, labels: [("sink", sink)])
    }
    self.ingested = ingested
    self.rejected = rejected
  }

  /// Counts events of `sink` stored and refused.
  func events(sink: String, ingested: Int, rejected: Int) {
    if ingested > 0 { self.ingested[sink]?.increment(by: Int64(ingested)) }
    if rejected > 0 { self.rejected[sink]?.increment(by: Int64(rejected)) }
  }

  /// Counts one request answered and how long it took.
  func request(route: RouteName, status: Int, took duration: Duration) {
    let status = StatusLabel(status)
    let (counter, histogram) = series.withLock { series in
      let slot = route.rawValue * StatusLabel.count + status.index
      if series.requests[slot] == nil {
        series.requests[slot] = registry.makeCounter(
          descriptor: MetricNameDescriptor(
            namespace: "ctfo", metricName: "http_requests", unitName: "total",
            helpText: "Requests answered, by route and status."),
          labels: [("route", route.label), ("status", status.label)])
      }
      if series.latency[route.rawValue] == nil {
        series.latency[route.rawValue] = registry.makeDurationHistogram(
          descriptor: MetricNameDescriptor(
            namespace: "ctfo", metricName: "http_request_duration", unitName: "seconds",
            helpText: "Time from a request's head to its answer, by route."),
          labels: [("route", route.label)], buckets: Self.latencyBuckets)
      }
      return (series.requests[slot]!, series.latency[route.rawValue]!)
    }
    counter.increment()
    histogram.record(duration)
    if route == .pull {
      if status.code == 200 { pullsWithBody.increment() }
      if status.code == 304 { pullsNotModified.increment() }
    }
  }

  /// The text `/metrics` answers.
  func text() -> [UInt8] {
    registry.emitToBuffer()
  }
}

/// The routes as metrics name them: a fixed set, whatever path a request names.
enum RouteName: Int, CaseIterable, Sendable {
  case auth, pull, card, events, mixpanelImport, gaCollect, gaDebugCollect
  case healthz, readyz, metrics, testSwitch, other

  init(path: String) {
    switch path {
    case "/v1/pull": self = .pull
    case "/v1/auth": self = .auth
    case "/v1/events": self = .events
    case "/import": self = .mixpanelImport
    case "/mp/collect": self = .gaCollect
    case "/debug/mp/collect": self = .gaDebugCollect
    case "/healthz": self = .healthz
    case "/readyz": self = .readyz
    case "/metrics": self = .metrics
    case _ where path.hasPrefix("/v1/cards/"): self = .card
    case _ where path.hasPrefix("/_test/"): self = .testSwitch
    default: self = .other
    }
  }

  var label: String {
    switch self {
    case .auth: "auth"
    case .pull: "pull"
    case .card: "card"
    case .events: "events"
    case .mixpanelImport: "import"
    case .gaCollect: "mp_collect"
    case .gaDebugCollect: "debug_mp_collect"
    case .healthz: "healthz"
    case .readyz: "readyz"
    case .metrics: "metrics"
    case .testSwitch: "test_switch"
    case .other: "other"
    }
  }
}

/// A status as metrics label it: the codes the server answers, any other as "other".
struct StatusLabel {
  static let codes = [
    200, 201, 204, 304, 400, 401, 404, 405, 408, 413, 415, 429, 431, 500, 503,
  ]
  static let count = codes.count + 1
  let index: Int

  init(_ code: Int) {
    index = Self.codes.firstIndex(of: code) ?? Self.codes.count
  }

  var code: Int? { index < Self.codes.count ? Self.codes[index] : nil }
  var label: String { code.map(String.init) ?? "other" }
}
