import CTFOClient
import CTFOWire
import HTTP
import Testing

/// What a sink's answer means for the batch sent (`EventFormat`'s verdicts): `failed_records`
/// indexes only the batch's own events, and a server's `Retry-After` is bounded to a day.
struct SinkVerdictTests {
  private func refusal(indexes: [Int]) -> HTTPResponse {
    let records = indexes.map { #"{"index":\#($0),"field":"event","message":"bad"}"# }
    let body =
      #"{"code":400,"error":"some data points in the request failed validation","status":"Bad Request","num_records_imported":0,"failed_records":["#
      + records.joined(separator: ",") + "]}"
    return HTTPResponse(status: 400, body: Array(body.utf8))
  }

  /// An index at the batch's size or past it names no event of the batch: a 400 that names
  /// none splits the batch, as a 400 naming nothing does; the ones inside are refused alone.
  @Test(arguments: [1, 2, 5, 50]) func failedRecordsIndexOnlyTheBatch(_ count: Int) {
    if case .tooLarge = EventFormat.importVerdict(refusal(indexes: [count]), count: count) {
    } else {
      Issue.record("index \(count) of a batch of \(count) names none of its events")
    }
    guard case .accepted(let refused) = EventFormat.importVerdict(
      refusal(indexes: [count - 1, count, count + 1, -1]), count: count)
    else {
      Issue.record("an index inside the batch is refused alone")
      return
    }
    #expect(Array(refused.keys) == [count - 1])
  }

  @Test(arguments: [
    ("30", 30), ("0", 0), ("-5", 0), ("86400", 86_400), ("86401", 86_400),
    ("9223372036854775807", 86_400), ("soon", nil),
  ] as [(String, Int?)])
  func retryAfterIsBoundedToADay(_ header: String, _ seconds: Int?) {
    for status in [429, 503] {
      let answer = HTTPResponse(status: status, headers: [("Retry-After", header)])
      for verdict in [EventFormat.importVerdict(answer, count: 3), EventFormat.gaVerdict(answer)] {
        guard case .retry(_, let after, _) = verdict else {
          Issue.record("\(status) is retried: \(verdict)")
          continue
        }
        #expect(after == seconds, "Retry-After: \(header)")
      }
    }
  }
}
