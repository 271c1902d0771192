import FeedCore
import FlatJSON

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One event of Mixpanel's import format, read back (the GA sink converts it; the reference
/// server validates it).
public struct ImportEvent: Codable, Sendable, Equatable {
  public var event: String
  public var properties: [String: Scalar]

  /// A flat property's value.
  public enum Scalar: Codable, Sendable, Equatable {
    case string(String)
    case integer(Int64)
    case number(Double)
    case bool(Bool)
    case null

    public init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      // Strings first: most values are, and each failed try costs an error.
      if let s = try? container.decode(String.self) {
        self = .string(s)
      } else if container.decodeNil() {
        self = .null
      } else if let b = try? container.decode(Bool.self) {
        self = .bool(b)
      } else if let n = try? container.decode(Int64.self) {
        self = .integer(n)
      } else {
        self = .number(try container.decode(Double.self))
      }
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      switch self {
      case .string(let s): try container.encode(s)
      case .integer(let n): try container.encode(n)
      case .number(let d): try container.encode(d)
      case .bool(let b): try container.encode(b)
      case .null: try container.encodeNil()
      }
    }

    public var text: String? {
      if case .string(let s) = self { return s }
      return nil
    }

    public var integer: Int64? {
      switch self {
      case .integer(let n): n
      case .number(let d) where d.rounded() == d && abs(d) < 9e15: Int64(d)
      default: nil
      }
    }
  }

  public init(event: String, properties: [String: Scalar]) {
    self.event = event
    self.properties = properties
  }

  public init?(json: String) {
    guard let decoded = try? JSONDecoder().decode(Self.self, from: Data(json.utf8)) else {
      return nil
    }
    self = decoded
  }
}

/// GA4's Measurement Protocol (notes G1): `POST /mp/collect?measurement_id&api_secret` with
/// `{client_id, events: [{name, params, timestamp_micros}]}`.
public enum GAFormat {
  /// GA's limits: events per request, params per event, name and value lengths.
  public static let maxEvents = 25
  public static let maxParams = 25
  public static let maxNameLength = 40
  public static let maxValueLength = 100
  public static let maxBody = 130_000
  /// Older events GA re-dates or refuses: they carry `ctfo_late = 1`.
  public static let lateAfterMilliseconds: Int64 = 72 * 3600 * 1000

  /// The body for `payloads` (events in Mixpanel's import format) from install `clientID`,
  /// sent at `now` (ms since the epoch). Keys sorted, so the same events give the same bytes.
  public static func body(_ payloads: [String], clientID: String, now: Int64) -> [UInt8] {
    var out: [UInt8] = []
    out += #"{"client_id":"#.utf8
    JSONText.append(clientID, to: &out)
    out += #","events":["#.utf8
    for (i, payload) in payloads.enumerated() {
      if i > 0 { out.append(0x2C) }
      let event = ImportEvent(json: payload) ?? ImportEvent(event: "unreadable", properties: [:])
      let time = event.properties["time"]?.integer ?? now
      var (name, params) = convert(event)
      if now - time > lateAfterMilliseconds { params["ctfo_late"] = .integer(1) }
      out += #"{"name":"#.utf8
      JSONText.append(name, to: &out)
      out += #","params":{"#.utf8
      for (j, key) in params.keys.sorted().prefix(maxParams).enumerated() {
        if j > 0 { out.append(0x2C) }
        JSONText.append(key, to: &out)
        out.append(0x3A)
        switch params[key]! {
        case .string(let s): JSONText.append(s, to: &out)
        case .integer(let n): out += String(n).utf8
        case .bool(let b): out += String(b ? 1 : 0).utf8
        }
      }
      out += #"},"timestamp_micros":"#.utf8
      out += String(time * 1000).utf8
      out.append(0x7D)
    }
    out += "]}".utf8
    return out
  }

  /// A GA event for an import event: a reaction is `reaction` with `reaction`, `card_type` and
  /// `card_id`; other names become snake case; Mixpanel's own properties are left out.
  static func convert(_ event: ImportEvent) -> (name: String, params: [String: AnalyticsValue]) {
    var params: [String: AnalyticsValue] = [:]
    for (key, value) in event.properties where !key.hasPrefix("$") {
      guard key != "time", key != "distinct_id" else { continue }
      let name = identifier(key)
      switch value {
      case .string(let s): params[name] = .string(String(s.prefix(maxValueLength)))
      case .integer(let n): params[name] = .integer(n)
      case .number(let d): params[name] = .string(String(String(d).prefix(maxValueLength)))
      case .bool(let b): params[name] = .bool(b)
      case .null: continue
      }
    }
    // GA keeps no dedup key (notes G2); the event's own lets a reader find copies.
    if let id = event.properties["$insert_id"]?.text { params["event_id"] = .string(id) }
    if ["CTFO", "TFU", "TIFB"].contains(event.event) {
      params["reaction"] = .string(event.event)
      return ("reaction", params)
    }
    return (identifier(event.event), params)
  }

  /// `text` as a GA name: `^[A-Za-z][A-Za-z0-9_]*`, at most 40 characters, lower case.
  public static func identifier(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      let c = Character(scalar)
      if scalar.isASCII && (c.isLetter || c.isNumber) {
        out.append(contentsOf: c.lowercased())
      } else if !out.isEmpty && out.last != "_" {
        out.append("_")
      }
    }
    while out.last == "_" { out.removeLast() }
    if out.first.map({ !$0.isLetter }) ?? true { out = "e_" + out }
    return String(out.prefix(maxNameLength))
  }

  /// Whether `name` is a valid GA event or parameter name.
  public static func isValidName(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, name.unicodeScalars.count <= maxNameLength,
      first.isASCII, Character(first).isLetter
    else { return false }
    return name.unicodeScalars.allSatisfy {
      $0.isASCII && (Character($0).isLetter || Character($0).isNumber || $0 == "_")
    }
  }
}
