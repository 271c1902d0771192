#if canImport(Glibc)
  import Glibc
#endif

/// RFC 9562 version 7 UUIDs: 48 bits of Unix milliseconds, then 74 random bits; they sort by
/// time, and fit Mixpanel's `$insert_id` (36 characters of `[0-9a-f-]`).
enum UUIDv7 {
  /// A UUIDv7 for `milliseconds` since the epoch, lowercase, with hyphens.
  static func make(milliseconds: Int64) -> String {
    var generator = SystemRandomNumberGenerator()
    var bytes = [UInt8](repeating: 0, count: 16)
    let time = UInt64(max(milliseconds, 0)) & 0xFFFF_FFFF_FFFF
    for i in 0..<6 { bytes[i] = UInt8(truncatingIfNeeded: time >> (40 - 8 * UInt64(i))) }
    let random = (generator.next() as UInt64, generator.next() as UInt64)
    for i in 6..<16 {
      let word = i < 14 ? random.0 : random.1
      bytes[i] = UInt8(truncatingIfNeeded: word >> (8 * UInt64(i % 8)))
    }
    bytes[6] = 0x70 | (bytes[6] & 0x0F)
    bytes[8] = 0x80 | (bytes[8] & 0x3F)
    let hex = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(36)
    for (i, byte) in bytes.enumerated() {
      if i == 4 || i == 6 || i == 8 || i == 10 { out.append(0x2D) }
      out.append(hex[Int(byte >> 4)])
      out.append(hex[Int(byte & 0xF)])
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// A UUIDv7 for now.
  static func now() -> String {
    make(milliseconds: Int64((Outbox.systemSeconds() * 1000).rounded()))
  }
}
