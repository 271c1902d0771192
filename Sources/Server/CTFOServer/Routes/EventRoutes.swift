import CTFOWire
import FlatJSON
import Foundation
import Hummingbird
import NIOCore

/// The analytics routes: the CTFO server's own `POST /v1/events`, and the wire formats of
/// Mixpanel's `/import` and GA4's `/mp/collect` (and `/debug/mp/collect`), validated as those
/// services document (notes M1-M6, G1-G2), so the client's tests run against a real server.
enum EventRoutes {
  /// The largest body of a batch (notes M1: the conservative 2 MiB) and of a GA request (G1).
  static let importBodyLimit = 2 << 20
  static let gaBodyLimit = 130_000
  static let maxBatch = 2000

  static func add(
    to router: Router<CTFOContext>, store: any EventStore, settings: ServerSettings,
    limits: Limits, housekeeping: Housekeeping, uploads: Uploads,
    authorize: @escaping @Sendable (Request, CTFOContext) async throws -> String
  ) {
    // Each caller is known (or refused) before its body is read.
    router.group().add(
      middleware: uploads.limits(largest: importBodyLimit) { try await authorize($0, $1) }
    ).post("/v1/events") { request, context in
      let install = try await authorize(request, context)
      await housekeeping.runIfDue()
      if let sent = request.headers[.init("X-CTFO-Sent-At")!],
        Int64(sent).map({ $0 < 0 }) ?? true
      {
        return try mixpanelAnswer(
          [
            "code": 400, "error": "X-CTFO-Sent-At must be ms since the epoch",
            "status": "Bad Request",
          ],
          status: .badRequest)
      }
      return try await importEvents(
        request, sink: "ctfo", install: install, store: store, metrics: settings.metrics)
    }
    let mixpanel: @Sendable (Request, CTFOContext) throws -> String? = { request, context in
      try limits.charge(address: request, context)
      guard let header = request.headers[.authorization], header.hasPrefix("Basic "),
        let decoded = Data(base64Encoded: String(header.dropFirst(6))),
        let credentials = String(data: decoded, encoding: .utf8),
        let user = credentials.split(separator: ":", omittingEmptySubsequences: false).first,
        let token = settings.mixpanelToken, same(String(user), token)
      else { return nil }
      return "mixpanel"
    }
    router.group().add(
      middleware: uploads.limits(largest: importBodyLimit) { try mixpanel($0, $1) }
    )
    .post("/import") { request, context in
      guard context.caller != nil else {
        return try mixpanelAnswer(
          ["code": 401, "error": "Unauthorized, invalid project secret", "status": "Unauthorized"],
          status: .unauthorized)
      }
      return try await importEvents(
        request, sink: "mixpanel", install: nil, store: store, metrics: settings.metrics)
    }
    // GA answers every request 204, credentials or not: a caller without the secret is
    // answered so, from the small share of the upload memory.
    let ga: @Sendable (Request, CTFOContext) throws -> String? = { request, context in
      try limits.charge(address: request, context)
      let sent = request.uri.queryParameters.get("api_secret") ?? ""
      return settings.gaAPISecret.map { !sent.isEmpty && same(sent, $0) } == true ? "ga" : nil
    }
    let gaLimits = uploads.limits(largest: gaBodyLimit) { try ga($0, $1) }
    router.group().add(middleware: gaLimits).post("/mp/collect") { request, context in
      return try await collect(
        request, store: store, secret: settings.gaAPISecret, debug: false,
        metrics: settings.metrics)
    }
    router.group().add(middleware: gaLimits).post("/debug/mp/collect") { request, context in
      return try await collect(
        request, store: store, secret: settings.gaAPISecret, debug: true,
        metrics: settings.metrics)
    }
  }

  /// Whether a credential sent is the one set, compared by hash: in a time that does not say
  /// how much of it matched.
  private static func same(_ sent: String, _ set: String) -> Bool {
    Token.hash(sent) == Token.hash(set)
  }

  // MARK: - Mixpanel's import format

  /// A request refused whole, nothing of it stored: Mixpanel's answer, and a dead letter of
  /// `sink` on the dashboard.
  private static func refuseWhole(
    sink: String, store: any EventStore, code: Int, error: String, status: String,
    _ httpStatus: HTTPResponse.Status
  ) async throws -> Response {
    try? await store.countRefused(sink: sink, records: 0, requests: 1)
    return try mixpanelAnswer(
      ["code": code, "error": error, "status": status], status: httpStatus)
  }

  private static func importEvents(
    _ request: Request, sink: String, install: String?, store: any EventStore,
    metrics: ServerMetrics
  ) async throws -> Response {
    let bytes: [UInt8]
    do {
      bytes = Array(buffer: try await request.body.collect(upTo: importBodyLimit))
    } catch is NIOTooManyBytesError {
      return try await refuseWhole(
        sink: sink, store: store, code: 413,
        error: "request body over \(importBodyLimit) bytes", status: "Payload Too Large",
        .contentTooLarge)
    }
    guard request.headers[.contentEncoding] == nil else {
      return try await refuseWhole(
        sink: sink, store: store, code: 415, error: "send the body uncompressed",
        status: "Unsupported Media Type", .unsupportedMediaType)
    }
    // Counted by a scan before the parse: a body of a million tiny elements is refused for
    // the cost of reading its bytes, not of building a million values.
    let count = elementCount(bytes)
    guard count <= maxBatch else {
      return try await refuseWhole(
        sink: sink, store: store, code: 400,
        error: "\(count) events: at most \(maxBatch) a request", status: "Bad Request",
        .badRequest)
    }
    guard !JSONNesting.exceeds(bytes), let elements = decodeElements(bytes) else {
      return try await refuseWhole(
        sink: sink, store: store, code: 400,
        error: "the body is not a JSON array or JSON lines of events", status: "Bad Request",
        .badRequest)
    }
    let now = Clock.milliseconds()
    var accepted: [ReceivedEvent] = []
    var failed: [EventFormat.ImportFailure.Record] = []
    for (index, element) in elements.enumerated() {
      switch validate(element.value, raw: element.raw, now: now, sink: sink) {
      case .success(let event): accepted.append(event)
      case .failure(let problem):
        failed.append(
          .init(
            index: index, insertID: insertID(element.value), field: problem.field,
            message: problem.message))
      }
    }
    try await store.record(events: accepted, install: install, at: now)
    metrics.events(sink: sink, ingested: accepted.count, rejected: failed.count)
    try await store.countRefused(sink: sink, records: failed.count, requests: 0)
    guard failed.isEmpty else {
      let answer = EventFormat.ImportFailure(
        error: "some data points in the request failed validation", failedRecords: failed,
        imported: accepted.count)
      return try Routes.json(answer, status: .badRequest)
    }
    return try mixpanelAnswer(
      ["code": 200, "num_records_imported": accepted.count, "status": "OK"], status: .ok)
  }

  /// One element of the body: a JSON value, read with `JSONSerialization` (quick even for the
  /// largest batch; a `Decodable` per property costs an error per failed try).
  typealias Element = Any

  /// A JSON array of events, or JSON lines of them (Mixpanel takes both), each with its own
  /// bytes as sent (what the store keeps: no second serialisation, and the client's bytes).
  private static func decodeElements(_ bytes: [UInt8]) -> [(
    value: Element, raw: ArraySlice<UInt8>
  )]? {
    let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
    if first == UInt8(ascii: "[") {
      guard let values = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [Any],
        let raws = arrayElements(bytes), raws.count == values.count
      else { return nil }
      return Array(zip(values, raws))
    }
    var elements: [(value: Element, raw: ArraySlice<UInt8>)] = []
    for line in bytes.split(separator: 0x0A) where line.contains(where: { $0 > 0x20 }) {
      elements.append(((try? JSONSerialization.jsonObject(with: Data(line))) ?? NSNull(), line))
    }
    return elements.isEmpty ? nil : elements
  }

  /// The bytes of each element of a JSON array known to be valid.
  static func arrayElements(_ bytes: [UInt8]) -> [ArraySlice<UInt8>]? {
    var elements: [ArraySlice<UInt8>] = []
    forEachArrayElement(bytes) { elements.append($0) }
    return elements
  }

  /// The elements of a JSON array, or the lines of JSON lines, found by a scan of the bytes
  /// alone (an upper bound for a body that is not valid JSON).
  static func elementCount(_ bytes: [UInt8]) -> Int {
    var count = 0
    if bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "[") {
      forEachArrayElement(bytes) { _ in count += 1 }
      return count
    }
    var blank = true
    for byte in bytes {
      if byte == 0x0A {
        if !blank { count += 1 }
        blank = true
      } else if byte > 0x20 {
        blank = false
      }
    }
    return blank ? count : count + 1
  }

  /// Calls `body` with the bytes of each element of a JSON array, trimmed: split at the commas
  /// of depth one, outside strings.
  private static func forEachArrayElement(
    _ bytes: [UInt8], _ body: (ArraySlice<UInt8>) -> Void
  ) {
    var depth = 0
    var strings = JSONStrings()
    var start: Int?
    for (i, byte) in bytes.enumerated() where !strings.holds(byte) {
      switch byte {
      case 0x5B, 0x7B:
        depth += 1
        if depth == 1 { start = i + 1 }
      case 0x5D, 0x7D:
        if depth == 1, let s = start { element(bytes[s..<i]) }
        depth -= 1
      case 0x2C where depth == 1:
        if let s = start { element(bytes[s..<i]) }
        start = i + 1
      default: break
      }
    }
    func element(_ slice: ArraySlice<UInt8>) {
      var lo = slice.startIndex
      var hi = slice.endIndex
      while lo < hi, bytes[lo] <= 0x20 { lo += 1 }
      while hi > lo, bytes[hi - 1] <= 0x20 { hi -= 1 }
      if lo < hi { body(bytes[lo..<hi]) }
    }
  }

  struct Problem: Error {
    var field: String
    var message: String
  }

  /// The `$insert_id` of an element, for a failed record.
  static func insertID(_ element: Element) -> String? {
    ((element as? [String: Any])?["properties"] as? [String: Any])?["$insert_id"] as? String
  }

  /// A JSON number that is not a boolean, as milliseconds or seconds.
  private static func integer(_ value: Any?) -> Int64? {
    // JSONSerialization gives true and false as a boolean NSNumber subclass.
    guard let number = value as? NSNumber, !"\(type(of: number))".contains("Boolean") else {
      return nil
    }
    let double = number.doubleValue
    guard double.isFinite, abs(double) <= 9e15 else { return nil }
    return Int64(double)
  }

  /// Mixpanel's rules for an event (notes M5, M6): a name; `time` in seconds or milliseconds,
  /// after 1971 (over an hour ahead, it is taken as now); a `distinct_id`; an `$insert_id` of at most 36
  /// characters of `[A-Za-z0-9-]`; under 255 properties and 1 MB.
  static func validate(
    _ element: Element, raw: ArraySlice<UInt8>, now: Int64, sink: String
  ) -> Result<ReceivedEvent, Problem> {
    guard let object = element as? [String: Any], let name = object["event"] as? String,
      let properties = object["properties"] as? [String: Any]
    else {
      return .failure(Problem(field: "event", message: "not an object with event and properties"))
    }
    guard !name.isEmpty, name.utf8.count <= 255 else {
      return .failure(Problem(field: "event", message: "the event name must be 1 to 255 bytes"))
    }
    guard isSafeName(name) else {
      return .failure(
        Problem(
          field: "event",
          message: "the event name has a control, bidi or line-break character"))
    }
    guard properties.count < 255 else {
      return .failure(Problem(field: "properties", message: "255 properties or more"))
    }
    guard var time = integer(properties["time"]) else {
      return .failure(Problem(field: "properties.time", message: "time is missing or not a number"))
    }
    if time < 100_000_000_000 { time *= 1000 }
    guard time >= 31_536_000_000 else {
      return .failure(Problem(field: "properties.time", message: "time is before 1971"))
    }
    // Over an hour ahead: overwritten with the server's time, as Mixpanel may do (notes M5);
    // refusing it would lose the event of a client whose clock was never corrected.
    if time > now + 3_600_000 { time = now }
    guard let distinct = properties["distinct_id"] as? String else {
      return .failure(Problem(field: "properties.distinct_id", message: "distinct_id is missing"))
    }
    guard let insert = properties["$insert_id"] as? String, (1...36).contains(insert.utf8.count),
      insert.utf8.allSatisfy({
        $0 == 0x2D || ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A)
      })
    else {
      return .failure(
        Problem(
          field: "properties.$insert_id", message: "$insert_id must be 1 to 36 of [A-Za-z0-9-]"))
    }
    guard raw.count < 1_000_000 else {
      return .failure(Problem(field: "event", message: "the event is 1 MB or more"))
    }
    var event = ReceivedEvent(
      sink: sink, insertID: insert, name: name, distinctID: distinct, time: time,
      payload: String(decoding: raw, as: UTF8.self))
    event.cardID = properties["card_id"] as? String
    event.cardType = properties["card_type"] as? String
    return .success(event)
  }

  /// Whether an event name is free of what would act on an operator's terminal or forge a line
  /// of `ctfo-server events`: C0 and C1 controls, DEL, bidi controls, line and paragraph
  /// separators (openapi.yaml's pattern). What else must not reach a terminal is left out when
  /// the name is printed.
  static func isSafeName(_ name: String) -> Bool {
    !name.unicodeScalars.contains {
      switch $0.value {
      case 0..<0x20, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: true
      default: false
      }
    }
  }

  private static func mixpanelAnswer(
    _ fields: [String: Any], status: HTTPResponse.Status
  ) throws -> Response {
    let data = try JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])
    var headers = HTTPFields()
    headers[.contentType] = "application/json"
    return Response(
      status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
  }

  // MARK: - GA4's Measurement Protocol

  struct Collect: Decodable {
    var clientID: String?
    var timestampMicros: Int64?
    var events: [Event]?

    struct Event: Decodable {
      var name: String?
      var params: [String: ImportEvent.Scalar]?
      var timestampMicros: Int64?

      enum CodingKeys: String, CodingKey {
        case name, params
        case timestampMicros = "timestamp_micros"
      }
    }

    enum CodingKeys: String, CodingKey {
      case events
      case clientID = "client_id"
      case timestampMicros = "timestamp_micros"
    }
  }

  /// `/mp/collect` answers `204` to whatever it gets (GA says nothing of bad events; notes G2)
  /// and keeps the valid events sent with `secret`; `/debug/mp/collect` keeps nothing and lists
  /// the problems.
  private static func collect(
    _ request: Request, store: any EventStore, secret: String?, debug: Bool,
    metrics: ServerMetrics
  ) async throws -> Response {
    let bytes: [UInt8]
    do {
      bytes = Array(buffer: try await request.body.collect(upTo: gaBodyLimit - 1))
    } catch is NIOTooManyBytesError {
      return Response(status: .contentTooLarge)
    }
    var messages: [(String, String, String)] = []
    let query = request.uri.queryParameters
    if (query.get("measurement_id") ?? "").isEmpty {
      messages.append(("measurement_id", "measurement_id is missing", "VALUE_REQUIRED"))
    }
    if (query.get("api_secret") ?? "").isEmpty {
      messages.append(("api_secret", "api_secret is missing", "VALUE_REQUIRED"))
    } else if secret.map({ !same(query.get("api_secret") ?? "", $0) }) ?? true {
      messages.append(("api_secret", "api_secret is not this server's", "VALUE_INVALID"))
    }
    let body =
      JSONNesting.exceeds(bytes) ? nil : try? JSONDecoder().decode(Collect.self, from: Data(bytes))
    var accepted: [ReceivedEvent] = []
    var sent = 0
    if let body {
      let client = body.clientID ?? ""
      if client.isEmpty { messages.append(("client_id", "client_id is missing", "VALUE_REQUIRED")) }
      let events = body.events ?? []
      sent = events.count
      if events.isEmpty || events.count > GAFormat.maxEvents {
        messages.append(("events", "1 to \(GAFormat.maxEvents) events a request", "VALUE_INVALID"))
      }
      let now = Clock.milliseconds()
      for (i, event) in events.prefix(GAFormat.maxEvents).enumerated() {
        let problems = gaProblems(event, at: "events[\(i)]")
        messages += problems
        guard problems.isEmpty, !client.isEmpty else { continue }
        let micros = event.timestampMicros ?? body.timestampMicros ?? now * 1000
        let params = event.params ?? [:]
        let id = params["event_id"]?.text ?? Token.random(bytes: 12)
        let payload = String(
          decoding: (try? JSONEncoder().encode(
            ImportEvent(event: event.name ?? "", properties: params))) ?? Data(),
          as: UTF8.self)
        accepted.append(
          ReceivedEvent(
            sink: "ga", insertID: id, name: event.name ?? "", distinctID: client,
            time: micros / 1000, payload: payload))
      }
    } else {
      messages.append(("", "the body is not JSON of the Measurement Protocol", "VALUE_INVALID"))
    }
    if debug {
      let list = messages.map {
        ["fieldPath": $0.0, "description": $0.1, "validationCode": $0.2]
      }
      return try mixpanelAnswer(["validationMessages": list], status: .ok)
    }
    if messages.filter({ $0.0 == "measurement_id" || $0.0 == "api_secret" }).isEmpty {
      try await store.record(events: accepted, install: nil, at: Clock.milliseconds())
      metrics.events(sink: "ga", ingested: accepted.count, rejected: sent - accepted.count)
      try await store.countRefused(sink: "ga", records: sent - accepted.count, requests: 0)
    } else {
      metrics.events(sink: "ga", ingested: 0, rejected: sent)
      try await store.countRefused(sink: "ga", records: sent, requests: 0)
    }
    return Response(status: .noContent)
  }

  /// GA's rules for an event (notes G1): a name of `[A-Za-z][A-Za-z0-9_]*` up to 40
  /// characters, not reserved; at most 25 params, each named so, values up to 100 characters.
  static func gaProblems(_ event: Collect.Event, at path: String) -> [(String, String, String)] {
    var problems: [(String, String, String)] = []
    let name = event.name ?? ""
    if !GAFormat.isValidName(name)
      || ["ga_", "google_", "firebase_"].contains(where: { name.lowercased().hasPrefix($0) })
    {
      problems.append(
        ("\(path).name", "the event name '\(name.prefix(50))' is not valid", "NAME_INVALID"))
    }
    let params = event.params ?? [:]
    if params.count > GAFormat.maxParams {
      problems.append(("\(path).params", "over \(GAFormat.maxParams) params", "VALUE_INVALID"))
    }
    for (key, value) in params {
      if !GAFormat.isValidName(key) {
        problems.append(
          ("\(path).params.\(key.prefix(50))", "a param name is not valid", "NAME_INVALID"))
      }
      if let text = value.text, text.count > GAFormat.maxValueLength {
        problems.append(
          ("\(path).params.\(key.prefix(50))", "a value over 100 characters", "VALUE_INVALID"))
      }
    }
    return problems
  }
}
