#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Something wrong in a deck: a bad line (skipped), a duplicate id, or a file that cannot be
/// read. Printed as `FILE:LINE: message`, or `FILE: message` for the whole file.
public struct DeckProblem: Error, Sendable, Hashable, Codable, CustomStringConvertible {
  public var path: String
  /// 1-based; nil when the problem concerns the whole file.
  public var line: Int?
  public var message: String

  public init(path: String, line: Int? = nil, message: String) {
    self.path = path
    self.line = line
    self.message = message
  }

  public var description: String {
    if let line { "\(path):\(line): \(message)" } else { "\(path): \(message)" }
  }

  static func unreadable(_ path: String, errno code: Int32) -> DeckProblem {
    DeckProblem(path: path, message: "cannot read the deck: \(String(cString: strerror(code)))")
  }
}
