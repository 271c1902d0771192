import FlatJSON

extension Wire.Card {
  /// The members of a card, in the order `flat` reads them.
  private static let flatKeys = FlatJSONObject.keys(
    ["id", "type", "title", "body", "bodyOmitted", "source", "url", "reveal", "publishedAt"])

  /// The card of one flat JSON object read by hand (`FlatJSONObject`), as `JSONDecoder` reads
  /// it; nil for any text that is not plainly one (a member of another type, a missing id), which
  /// `JSONDecoder` then reads and words. It spares the pull's thread, which shares the CPU with
  /// the keys (DECISIONS.md, "A flat-line fast path before JSONDecoder").
  static func flat(_ bytes: UnsafeRawBufferPointer) -> Wire.Card? {
    guard let values = FlatJSONObject.values(of: flatKeys, in: bytes),
      case .string(let id)? = values[0], case .string(let type)? = values[1],
      let title = FlatJSONObject.Value.text(values[2]),
      let body = FlatJSONObject.Value.text(values[3]),
      let source = FlatJSONObject.Value.text(values[5]),
      let url = FlatJSONObject.Value.text(values[6]),
      let reveal = FlatJSONObject.Value.text(values[7])
    else { return nil }
    let bodyOmitted: Bool?
    switch values[4] {
    case nil, .null?: bodyOmitted = nil
    case .bool(let omitted)?: bodyOmitted = omitted
    default: return nil
    }
    let publishedAt: Int64?
    switch values[8] {
    case nil, .null?: publishedAt = nil
    case .integer(let time)?: publishedAt = time
    default: return nil
    }
    return Wire.Card(
      id: id, type: type, title: title, body: body, bodyOmitted: bodyOmitted, source: source,
      url: url, reveal: reveal, publishedAt: publishedAt)
  }
}
