import Crypto

/// Tokens: 32 random bytes, given to the client in hex, kept by the server only as SHA-256.
enum Token {
  /// A new token: its text for the client, and the hash the store keeps.
  static func make() -> (text: String, hash: [UInt8]) {
    let text = random(bytes: 32)
    return (text, hash(text))
  }

  static func hash(_ text: String) -> [UInt8] {
    Array(SHA256.hash(data: Array(text.utf8)))
  }

  /// `bytes` random bytes in hex, from the system's secure generator (getrandom on Linux).
  static func random(bytes count: Int) -> String {
    var generator = SystemRandomNumberGenerator()
    return hex((0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
  }

  static func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var out = [UInt8]()
    out.reserveCapacity(bytes.count * 2)
    for byte in bytes {
      out.append(digits[Int(byte >> 4)])
      out.append(digits[Int(byte & 15)])
    }
    return String(decoding: out, as: UTF8.self)
  }
}
