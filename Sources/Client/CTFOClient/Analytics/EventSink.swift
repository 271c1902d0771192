import CTFOWire
import FlatJSON
import HTTP

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What an answer means for the batch sent.
public enum SinkVerdict: Sendable, Equatable {
  /// Delivered, but for the events at these offsets of the batch, refused for good (a `400`
  /// naming them): they become dead letters.
  case accepted(refused: [Int: String])
  /// `413`, or a `400` naming no event: send half; an event alone is refused for good.
  case tooLarge(status: Int, reason: String)
  /// Keep the batch and try again later: `429`, `5xx`, `3xx`, other refusals, the network.
  case retry(status: Int?, after: Int?, reason: String)
}

/// The reading of each sink's answers, and its requests.
extension EventFormat {
  /// The verdict on an answer of `/import?strict=1` or `POST /v1/events` (notes M3): `200`
  /// delivered; `400` with `failed_records` refuses those and delivers the rest.
  public static func importVerdict(_ answer: HTTPResponse, count: Int) -> SinkVerdict {
    switch answer.status {
    case 200..<300:
      return .accepted(refused: [:])
    case 400:
      let failed = (try? JSONDecoder().decode(ImportFailure.self, from: Data(answer.body)))?
        .failedRecords ?? []
      let named = failed.filter { (0..<count).contains($0.index) }
      guard !named.isEmpty else {
        return .tooLarge(status: 400, reason: Self.reason(answer) ?? "400 Bad Request")
      }
      var refused: [Int: String] = [:]
      for record in named {
        refused[record.index] =
          "400: " + [record.field, record.message].compactMap { $0 }.joined(separator: ": ")
      }
      return .accepted(refused: refused)
    case 413:
      return .tooLarge(status: 413, reason: "413 Content Too Large")
    default:
      return retry(answer)
    }
  }

  /// The verdict on a Measurement Protocol answer: GA answers `2xx` to anything it takes
  /// (notes G2); `413` and `400` split the batch.
  public static func gaVerdict(_ answer: HTTPResponse) -> SinkVerdict {
    switch answer.status {
    case 200..<300: .accepted(refused: [:])
    case 400, 413: .tooLarge(status: answer.status, reason: "\(answer.status) from GA")
    default: retry(answer)
    }
  }

  /// A failure to try again: `Retry-After` (seconds) when given.
  static func retry(_ answer: HTTPResponse) -> SinkVerdict {
    let after = answer.header("Retry-After").flatMap { Int($0) }.map { min(max($0, 0), 86_400) }
    let reason: String
    switch answer.status {
    case 300..<400:
      reason = "\(answer.status): redirected to \(answer.header("Location") ?? "nowhere") (not followed)"
    default:
      reason = "\(answer.status)" + (Self.reason(answer).map { ": " + $0 } ?? "")
    }
    return .retry(status: answer.status, after: after, reason: reason)
  }

  private static func reason(_ answer: HTTPResponse) -> String? {
    struct Answer: Decodable {
      struct Inner: Decodable { var message: String? }
      var error: ErrorField?
      enum ErrorField: Decodable {
        case text(String), object(Inner)
        init(from decoder: any Decoder) throws {
          let container = try decoder.singleValueContainer()
          if let text = try? container.decode(String.self) { self = .text(text) } else {
            self = .object(try container.decode(Inner.self))
          }
        }
      }
    }
    guard answer.body.count < 64 * 1024, !JSONNesting.exceeds(answer.body),
      let decoded = try? JSONDecoder().decode(Answer.self, from: Data(answer.body))
    else { return nil }
    switch decoded.error {
    case .text(let text): return String(text.prefix(200))
    case .object(let inner): return inner.message.map { String($0.prefix(200)) }
    case nil: return nil
    }
  }
}

extension EventFormat {
  /// Mixpanel's `/import?strict=1` (never `/track`, which drops events older than five days:
  /// notes M2), the project token as the basic-auth user name.
  public static func mixpanelRequest(_ payloads: [String], token: String) -> HTTPRequest {
    let credentials = Data((token + ":").utf8).base64EncodedString()
    return HTTPRequest(
      method: "POST", path: "/import?strict=1",
      headers: [
        ("Content-Type", "application/json"), ("Authorization", "Basic \(credentials)"),
        ("Accept", "application/json"),
      ], body: importBody(payloads))
  }

  /// The CTFO server's `POST /v1/events` (the client adds the token).
  public static func ctfoRequest(_ payloads: [String], sentAt: Int64) -> HTTPRequest {
    HTTPRequest(
      method: "POST", path: "/v1/events",
      headers: [("Content-Type", "application/json"), ("X-CTFO-Sent-At", String(sentAt))],
      body: importBody(payloads))
  }

  /// GA4's `POST /mp/collect`.
  public static func gaRequest(
    _ payloads: [String], measurementID: String, apiSecret: String, clientID: String, now: Int64
  ) -> HTTPRequest {
    HTTPRequest(
      method: "POST",
      path: "/mp/collect?measurement_id=\(APIClient.pathSegment(measurementID))"
        + "&api_secret=\(APIClient.pathSegment(apiSecret))",
      headers: [("Content-Type", "application/json")],
      body: GAFormat.body(payloads, clientID: clientID, now: now))
  }
}
