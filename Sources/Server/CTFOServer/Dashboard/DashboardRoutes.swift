import Crypto
import Foundation
import Hummingbird
import Mustache
import NIOCore

/// The operator's dashboard: `GET /dashboard`, one page rendered on the server (swift-mustache,
/// every value HTML-escaped) with inline SVG charts and a table beside each, no script and no
/// asset from elsewhere, under a Content-Security-Policy that allows nothing else.
///
/// Operators only: the token of `--admin-token-file`, sent as a bearer token or as the cookie
/// `POST /dashboard/login` sets (its SHA-256, never the token), compared in constant time;
/// without it (or with no token file) the answer is 401 with the login form.
enum DashboardRoutes {
  /// Reactions a card needs to be among the top cards.
  static let minReactions = 3
  /// The chart's drawing height, in SVG units.
  static let chartHeight = 120.0
  static let cookie = "ctfo_admin"

  static func add(
    to router: Router<CTFOContext>, store: any ReportStore, settings: ServerSettings,
    uploads: Uploads, limits: Limits
  ) {
    let admin = settings.adminTokenHash
    for method in [HTTPRequest.Method.get, .head] {
      router.on("/dashboard", method: method) { request, _ in
        guard let admin, authorized(request, admin: admin) else {
          return loginPage(status: .unauthorized)
        }
        let data = try await store.dashboard(at: settings.clock(), minReactions: minReactions)
        return page(dashboard.render(context(data, now: settings.clock())), status: .ok)
      }
    }
    router.get("/dashboard/login") { _, _ in loginPage(status: .ok) }
    // A browser asks for an icon on its own: an empty answer, not a 404 in its console.
    router.get("/favicon.ico") { _, _ in Response(status: .noContent) }
    // Each client address may try a few tokens a minute, before its body is read.
    let login = uploads.limits(largest: 4096) { request, context in
      try limits.charge(login: request, context)
      return nil
    }
    router.group().add(middleware: login).post("/dashboard/login") { request, _ in
      let body = try await request.body.collect(upTo: 4096)
      let token = formValue("token", in: String(buffer: body)) ?? ""
      guard let admin, constantTimeEqual(Token.hash(token), admin) else {
        return loginPage(status: .unauthorized)
      }
      var headers = securityHeaders()
      headers[.location] = "/dashboard"
      headers[.setCookie] =
        "\(cookie)=\(Token.hex(admin)); Path=/dashboard; HttpOnly; SameSite=Strict; Max-Age=86400"
      return Response(status: .seeOther, headers: headers)
    }
  }

  /// Whether `request` carries the admin token: `Authorization: Bearer TOKEN`, or the cookie
  /// holding the token's SHA-256 in hex.
  static func authorized(_ request: Request, admin: [UInt8]) -> Bool {
    if let header = request.headers[.authorization], header.hasPrefix("Bearer ") {
      return constantTimeEqual(Token.hash(String(header.dropFirst(7))), admin)
    }
    for header in request.headers[values: .cookie] {
      for part in header.split(separator: ";") {
        let pair = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
        guard pair.count == 2, pair[0] == cookie else { continue }
        if constantTimeEqual(Array(String(pair[1]).utf8), Array(Token.hex(admin).utf8)) {
          return true
        }
      }
    }
    return false
  }

  /// Equal bytes, compared in a time that depends on their length only.
  static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    var difference: UInt8 = 0
    for i in a.indices { difference |= a[i] ^ b[i] }
    return difference == 0
  }

  /// The value of `name` in an `application/x-www-form-urlencoded` body.
  static func formValue(_ name: String, in body: String) -> String? {
    for pair in body.split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard parts.count == 2, parts[0] == name else { continue }
      return String(parts[1]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
    return nil
  }

  // MARK: - The page

  /// What the template gets: every number, label and bar geometry worked out here.
  static func context(_ data: DashboardData, now: Int64) -> [String: Any] {
    let hour = now / DashboardData.hourMilliseconds
    let counts = Dictionary(data.hours.map { ($0.hour, $0.events) }) { a, b in a + b }
    let hours = ((hour - Int64(DashboardData.hoursShown) + 1)...hour).map { ($0, counts[$0] ?? 0) }
    let most = hours.map(\.1).max() ?? 0
    let hourBars: [[String: Any]] = hours.enumerated().map { index, entry in
      let height = scaled(entry.1, of: most)
      return [
        "label": hourLabel(entry.0), "value": entry.1, "x": index * 10,
        "y": format(chartHeight - height), "height": format(height),
      ]
    }
    let mostTotal = data.types.map(\.total).max() ?? 0
    let typeBars: [[String: Any]] = data.types.enumerated().map { index, type in
      var top = chartHeight
      var segments: [[String: Any]] = []
      for (reaction, value) in [("CTFO", type.ctfo), ("TFU", type.tfu), ("TIFB", type.tifb)] {
        let height = scaled(value, of: mostTotal)
        top -= height
        segments.append([
          "reaction": reaction, "class": reaction.lowercased(), "value": value,
          "y": format(top), "height": format(height),
        ])
      }
      return [
        "type": type.key, "x": index * 60 + 10, "labelX": index * 60 + 30, "segments": segments,
        "ctfo": type.ctfo, "tfu": type.tfu, "tifb": type.tifb,
      ]
    }
    let top: [[String: Any]] = data.topCards.map { card in
      [
        "card": card.key, "title": card.title ?? "", "ctfo": card.ctfo, "total": card.total,
        "rate": "\(Int((Double(card.ctfo) / Double(max(card.total, 1)) * 100).rounded()))%",
      ]
    }
    let active: [[String: Any]] = zip(DashboardData.activeDays, data.activeInstalls).map {
      ["period": $0 == 1 ? "1 day" : "\($0) days", "count": $1]
    }
    return [
      "now": hourLabel(hour) + " UTC",
      "hours": hourBars, "hoursWidth": DashboardData.hoursShown * 10,
      "types": typeBars, "typesWidth": max(data.types.count * 60 + 20, 80),
      "hasTypes": !data.types.isEmpty, "top": top, "hasTop": !top.isEmpty,
      "minReactions": minReactions, "active": active,
      "refused": data.refused.map {
        ["sink": $0.sink, "records": $0.records, "requests": $0.requests] as [String: Any]
      },
      "hasRefused": !data.refused.isEmpty,
      "names": data.names.map {
        ["sink": $0.sink, "name": $0.name, "events": $0.events] as [String: Any]
      },
      "hasNames": !data.names.isEmpty,
    ]
  }

  /// The height of `value`'s bar in a chart whose largest value is `most`.
  static func scaled(_ value: Int, of most: Int) -> Double {
    most == 0 ? 0 : Double(value) / Double(most) * chartHeight
  }

  static func format(_ value: Double) -> String { String(format: "%.1f", value) }

  /// "2026-11-28 14:00", UTC.
  static func hourLabel(_ hour: Int64) -> String {
    var time = time_t(hour * 3600)
    var parts = tm()
    gmtime_r(&time, &parts)
    var buffer = [CChar](repeating: 0, count: 32)
    let count = strftime(&buffer, buffer.count, "%Y-%m-%d %H:00", &parts)
    return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  private static func page(_ html: String, status: HTTPResponse.Status) -> Response {
    var headers = securityHeaders()
    headers[.contentType] = "text/html; charset=utf-8"
    if status == .unauthorized { headers[.wwwAuthenticate] = "Bearer realm=\"ctfo-server\"" }
    return Response(
      status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
  }

  private static func loginPage(status: HTTPResponse.Status) -> Response {
    page(login.render(["failed": status == .unauthorized]), status: status)
  }

  /// Nothing but the page's own style sheet (by its hash) and a form posting back here.
  static let contentSecurityPolicy =
    "default-src 'none'; style-src 'sha256-\(styleHash)'; form-action 'self'; "
    + "frame-ancestors 'none'; base-uri 'none'"

  /// The SHA-256 of the style sheet, in base64, as a CSP source names it.
  static let styleHash = Data(SHA256.hash(data: Array(style.utf8))).base64EncodedString()

  private static func securityHeaders() -> HTTPFields {
    var headers = HTTPFields()
    headers[.contentSecurityPolicy] = contentSecurityPolicy
    headers[.init("X-Content-Type-Options")!] = "nosniff"
    headers[.init("Referrer-Policy")!] = "no-referrer"
    headers[.cacheControl] = "no-store"
    return headers
  }

  // MARK: - Templates

  static let style = """
    body{font:15px/1.4 system-ui,sans-serif;margin:1.5em;color:#222;background:#fff}
    h1{font-size:1.4em}h2{font-size:1.1em;margin-top:2em}
    section{display:flex;flex-wrap:wrap;gap:1.5em;align-items:flex-start}
    section>h2{flex-basis:100%}
    table{border-collapse:collapse;font-size:.9em}
    th,td{border-bottom:1px solid #ddd;padding:.15em .5em;text-align:left}
    td{text-align:right}td.text{text-align:left}caption{text-align:left;font-weight:600}
    .bar{fill:#3a7bd5}.ctfo{fill:#2e9e4f}.tfu{fill:#3a7bd5}.tifb{fill:#d04a3a}
    .axis{stroke:#888}.label{font-size:10px;fill:#444}
    """

  /// The start of both pages, to the end of `<head>`.
  static let head = """
    <!DOCTYPE html>
    <html lang="en"><head><meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>ctfo-server: dashboard</title><style>\(style)</style></head>
    """

  static let dashboard: MustacheTemplate = try! MustacheTemplate(
    string: """
      \(head)
      <body><main>
      <h1>ctfo-server</h1><p>At {{now}}.</p>
      <section><h2>Events per hour, the last 48 hours</h2>
      <figure id="events-per-hour"><svg role="img" aria-labelledby="events-per-hour-title" width="{{hoursWidth}}" height="130" viewBox="0 0 {{hoursWidth}} 130"><title id="events-per-hour-title">Events stored per hour, the last 48 hours</title>
      {{#hours}}<rect class="bar" x="{{x}}" y="{{y}}" width="8" height="{{height}}" data-label="{{label}}" data-value="{{value}}"><title>{{label}}: {{value}}</title></rect>
      {{/hours}}<line class="axis" x1="0" y1="120.5" x2="{{hoursWidth}}" y2="120.5"/></svg>
      <figcaption>Each bar an hour (UTC), the current one last.</figcaption></figure>
      <table id="events-per-hour-table"><caption>Events per hour</caption>
      <thead><tr><th scope="col">Hour (UTC)</th><th scope="col">Events</th></tr></thead><tbody>
      {{#hours}}<tr><th scope="row">{{label}}</th><td>{{value}}</td></tr>
      {{/hours}}</tbody></table></section>
      <section><h2>Reactions by card type</h2>
      <figure id="reactions-by-type"><svg role="img" aria-labelledby="reactions-by-type-title" width="{{typesWidth}}" height="150" viewBox="0 0 {{typesWidth}} 150"><title id="reactions-by-type-title">Final reactions by card type: CTFO, TFU and TIFB stacked</title>
      {{#types}}{{#segments}}<rect class="bar {{class}}" x="{{x}}" y="{{y}}" width="40" height="{{height}}" data-type="{{type}}" data-reaction="{{reaction}}" data-value="{{value}}"><title>{{type}} {{reaction}}: {{value}}</title></rect>
      {{/segments}}<text class="label" x="{{labelX}}" y="138" text-anchor="middle">{{type}}</text>
      {{/types}}<line class="axis" x1="0" y1="120.5" x2="{{typesWidth}}" y2="120.5"/></svg>
      <figcaption>CTFO (green) at the bottom, then TFU (blue), then TIFB (red).</figcaption></figure>
      <table id="reactions-by-type-table"><caption>Reactions by card type</caption>
      <thead><tr><th scope="col">Type</th><th scope="col">CTFO</th><th scope="col">TFU</th><th scope="col">TIFB</th></tr></thead><tbody>
      {{#types}}<tr><th scope="row">{{type}}</th><td>{{ctfo}}</td><td>{{tfu}}</td><td>{{tifb}}</td></tr>
      {{/types}}{{^hasTypes}}<tr><td colspan="4">No reactions yet</td></tr>{{/hasTypes}}</tbody></table></section>
      <section><h2>The cards with the highest CTFO rate</h2>
      <table id="top-cards-table"><caption>At most 20 cards, each with at least {{minReactions}} reactions</caption>
      <thead><tr><th scope="col">Card</th><th scope="col">Title</th><th scope="col">CTFO</th><th scope="col">Reactions</th><th scope="col">CTFO rate</th></tr></thead><tbody>
      {{#top}}<tr><th scope="row">{{card}}</th><td class="text">{{title}}</td><td>{{ctfo}}</td><td>{{total}}</td><td>{{rate}}</td></tr>
      {{/top}}{{^hasTop}}<tr><td colspan="5">No card has enough reactions yet</td></tr>{{/hasTop}}</tbody></table></section>
      <section><h2>Installs and refusals</h2>
      <table id="active-installs-table"><caption>Installs that sent events</caption>
      <thead><tr><th scope="col">In the last</th><th scope="col">Installs</th></tr></thead><tbody>
      {{#active}}<tr><th scope="row">{{period}}</th><td>{{count}}</td></tr>
      {{/active}}</tbody></table>
      <table id="rejected-table"><caption>Rejected records and dead letters (requests refused whole)</caption>
      <thead><tr><th scope="col">Sink</th><th scope="col">Rejected records</th><th scope="col">Dead letters</th></tr></thead><tbody>
      {{#refused}}<tr><th scope="row">{{sink}}</th><td>{{records}}</td><td>{{requests}}</td></tr>
      {{/refused}}{{^hasRefused}}<tr><td colspan="3">None</td></tr>{{/hasRefused}}</tbody></table>
      <table id="event-names-table"><caption>The most frequent event names</caption>
      <thead><tr><th scope="col">Sink</th><th scope="col">Name</th><th scope="col">Events</th></tr></thead><tbody>
      {{#names}}<tr><th scope="row">{{sink}}</th><td class="text">{{name}}</td><td>{{events}}</td></tr>
      {{/names}}{{^hasNames}}<tr><td colspan="3">No events yet</td></tr>{{/hasNames}}</tbody></table></section>
      </main></body></html>

      """)

  static let login: MustacheTemplate = try! MustacheTemplate(
    string: """
      \(head)
      <body><main><h1>ctfo-server</h1>
      {{#failed}}<p>The dashboard is for the server's operators: send the token of --admin-token-file.</p>{{/failed}}
      <form method="post" action="/dashboard/login"><label>Admin token <input type="password" name="token" autocomplete="current-password" required></label>
      <button type="submit">Open the dashboard</button></form></main></body></html>

      """)
}
