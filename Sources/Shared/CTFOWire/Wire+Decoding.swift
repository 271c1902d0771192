import FlatJSON

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension Wire {
  /// A text that is not the JSON expected; `reason` names the type and the place, one sentence.
  public struct Unreadable: Error, Equatable {
    public var reason: String
  }

  /// `bytes` as a `T`, refused before any decoder sees it when it nests over
  /// `JSONNesting.limit` deep.
  public static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws(Unreadable)
    -> T
  {
    guard !JSONNesting.exceeds(bytes) else {
      throw Unreadable(
        reason: "\(T.self): arrays or objects nested over \(JSONNesting.limit) deep")
    }
    do { return try JSONDecoder().decode(type, from: Data(bytes)) } catch {
      throw Unreadable(reason: "\(T.self): \(Self.reason(error))")
    }
  }

  /// A pull's answer; one of `piecewise` bytes or more in pieces (`JSONPieces`), so that its
  /// decoding gives the CPU up to a key every few kilobytes. Both ways give the same pull, or
  /// an error naming the same place (the arrays are decoded after the other members).
  public static func decodePull(_ bytes: [UInt8], piecewise: Int = piecewiseSize)
    throws(Unreadable) -> Pull
  {
    guard bytes.count >= piecewise,
      let pieces = JSONPieces.split(
        bytes, arrays: ["cards", "removed", "scores"], limit: JSONNesting.limit)
    else { return try decode(Pull.self, from: bytes) }
    let decoder = JSONDecoder()
    var pull: Pull
    do { pull = try decoder.decode(Pull.self, from: Data(pieces.envelope)) } catch {
      throw Unreadable(reason: "\(Pull.self): \(Self.reason(error))")
    }
    var array = "cards"
    do throws(JSONPieces.GroupError) {
      pull.cards = Pulled.sorted(
        try pieces.decode(
          Pulled<Card>.self, of: array, in: bytes, decoder: decoder,
          fast: { Card.flat($0).map(Pulled<Card>.element) }),
        into: &pull.refused)
      array = "removed"
      pull.removed = Pulled.sorted(
        try pieces.decode(Pulled<RemovedID>.self, of: array, in: bytes, decoder: decoder),
        into: &pull.refused
      ).map(\.id)
      array = "scores"
      pull.scores = Pulled.sorted(
        try pieces.decode(Pulled<Score>.self, of: array, in: bytes, decoder: decoder),
        into: &pull.refused)
    } catch {
      throw Unreadable(
        reason: "\(Pull.self): \(Self.reason(error.error, under: array, from: error.first))")
    }
    return pull
  }

  /// Pulls at least this long are decoded in pieces.
  public static let piecewiseSize = 64 * 1024

  /// `under` and `from`: the error came from elements of the array `under` numbered from
  /// `from` (a group of `JSONPieces`); its path is told as in the whole answer.
  private static func reason(_ error: any Error, under array: String? = nil, from first: Int = 0)
    -> String
  {
    guard let error = error as? DecodingError else { return "not JSON" }
    func path(_ keys: [any CodingKey]) -> String {
      var names = keys.map(\.stringValue)
      if let array {
        // The decoder names an element `Index N`.
        if let index = keys.first?.intValue { names[0] = "Index \(first + index)" }
        names.insert(array, at: 0)
      }
      return names.joined(separator: ".")
    }
    switch error {
    case .keyNotFound(let key, _): return "no \"\(key.stringValue)\""
    case .typeMismatch(_, let context), .valueNotFound(_, let context),
      .dataCorrupted(let context):
      let path = path(context.codingPath)
      return path.isEmpty ? "not JSON of the expected shape" : "a bad \"\(path)\""
    @unknown default: return "not JSON"
    }
  }
}
