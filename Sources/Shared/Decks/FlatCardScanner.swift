import FeedCore
import FlatJSON

/// The fast path of `DeckParser` for the common line: a flat JSON object whose values are
/// strings or null (`FlatJSONObject`). It returns nil for anything else (a number, a missing
/// field, any doubt), and the full JSON decoder then parses the line and words any problem, so
/// both paths give the same card for every line the fast path accepts.
///
/// JSONDecoder spends most of a large import in its generic machinery; this scan makes a
/// single pass over the bytes.
enum FlatCardScanner {
  /// The fields a card line may have, in the order of `Card.init`.
  private static let keys = FlatJSONObject.keys(
    ["id", "type", "title", "body", "source", "url", "reveal"])

  static func card(_ bytes: UnsafeRawBufferPointer) -> Card? {
    // The decoder repairs a line that is not UTF-8 first (`DeckParser.decode`); so does this.
    guard let values = FlatJSONObject.values(of: keys, in: bytes, repairingUTF8: true),
      case .string(let id)? = values[0], case .string(let type)? = values[1],
      case .string(let body)? = values[3],
      let title = FlatJSONObject.Value.text(values[2]),
      let source = FlatJSONObject.Value.text(values[4]),
      let url = FlatJSONObject.Value.text(values[5]),
      let reveal = FlatJSONObject.Value.text(values[6])
    else { return nil }
    return Card(
      id: id, type: type, title: title, body: body, source: source, url: url, reveal: reveal)
  }
}
