import Foundation

/// The operator's token for `/dashboard`, read from `--admin-token-file`.
public enum AdminToken {
  /// The shortest token taken: 16 characters (`openssl rand -hex 16` gives 32).
  public static let minimumLength = 16

  /// The SHA-256 of the token in `path`: its first line, spaces around it dropped. Throws a
  /// message for the operator when the file cannot be read or the token is too short.
  public static func hash(fromFile path: String) throws -> [UInt8] {
    guard let bytes = firstLine(of: path),
      let text = String(bytes: bytes, encoding: .utf8)
    else { throw Problem(message: "cannot read the admin token file \(path)") }
    let token = (text.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
      .trimmingCharacters(in: .whitespacesAndNewlines)
    guard token.count >= minimumLength else {
      throw Problem(
        message: "the admin token in \(path) is \(token.count) characters: at least "
          + "\(minimumLength) (openssl rand -hex 16 makes one)")
    }
    return Token.hash(token)
  }

  /// The bytes of `path` up to its first line's end, 4 KiB at most: a large file (or one
  /// that never ends) is not read whole. Nil when it cannot be read.
  static func firstLine(of path: String) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while bytes.count < 4096, !bytes.contains(0x0A) {
      let count = buffer.withUnsafeMutableBytes {
        read(descriptor, $0.baseAddress, 4096 - bytes.count)
      }
      if count < 0, errno == EINTR { continue }
      guard count >= 0 else { return nil }
      if count == 0 { break }
      bytes += buffer[..<count]
    }
    return bytes
  }

  public struct Problem: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
  }
}
