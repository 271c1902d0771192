/// Where analytics events go: the CTFO server, Mixpanel's `/import`, GA4's
/// Measurement Protocol. Each takes batches of the outbox's events (their JSON objects as
/// recorded, Mixpanel's import format); the client reads their answers (`SinkVerdict`).
public enum SinkKind: String, Sendable, CaseIterable, Hashable {
  case ctfo, mixpanel, ga

  /// The largest batch: events and bytes of body (notes M1, G1).
  public var limits: (events: Int, bytes: Int) {
    switch self {
    case .ctfo, .mixpanel: (2000, 2 << 20)
    case .ga: (25, 130_000)
    }
  }

  /// How `ctfo status` names it.
  public var title: String {
    switch self {
    case .ctfo: "CTFO server"
    case .mixpanel: "Mixpanel"
    case .ga: "Google Analytics"
    }
  }
}

/// The body of a batch for each sink, and the refusal the import format answers with.
public enum EventFormat {
  /// Mixpanel's import body, which the CTFO server takes too: a JSON array of the events.
  public static func importBody(_ payloads: [String]) -> [UInt8] {
    var body: [UInt8] = [0x5B]
    body.reserveCapacity(payloads.reduce(2) { $0 + $1.utf8.count + 1 })
    for (i, payload) in payloads.enumerated() {
      if i > 0 { body.append(0x2C) }
      body += payload.utf8
    }
    body.append(0x5D)
    return body
  }

  /// `/import?strict=1`'s `400` answer (notes M3).
  public struct ImportFailure: Codable, Sendable {
    public struct Record: Codable, Sendable {
      public var index: Int
      public var insertID: String?
      public var field: String?
      public var message: String?

      public init(index: Int, insertID: String?, field: String?, message: String?) {
        self.index = index
        self.insertID = insertID
        self.field = field
        self.message = message
      }

      enum CodingKeys: String, CodingKey {
        case index, field, message
        case insertID = "$insert_id"
      }
    }
    public var code: Int
    public var error: String
    public var failedRecords: [Record]
    public var numRecordsImported: Int
    public var status: String

    public init(error: String, failedRecords: [Record], imported: Int) {
      code = 400
      self.error = error
      self.failedRecords = failedRecords
      numRecordsImported = imported
      status = "Bad Request"
    }

    enum CodingKeys: String, CodingKey {
      case code, error, status
      case failedRecords = "failed_records"
      case numRecordsImported = "num_records_imported"
    }
  }
}
