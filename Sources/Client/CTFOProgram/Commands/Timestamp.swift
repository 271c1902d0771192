#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Times as the commands print them, through the C library.
enum Timestamp {
  /// Seconds since 1970 in ISO 8601, UTC, to the second: `YYYY-MM-DDThh:mm:ssZ`.
  static func iso8601(_ seconds: Double) -> String {
    var time = time_t(seconds.rounded(.down))
    var parts = tm()
    gmtime_r(&time, &parts)
    var buffer = [CChar](repeating: 0, count: 32)
    let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%SZ", &parts)
    return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// How many seconds the local time zone (TZ) is east of UTC at `seconds`.
  static func utcOffset(at seconds: Double) -> Int {
    var time = time_t(seconds.rounded(.down))
    var parts = tm()
    localtime_r(&time, &parts)
    return Int(parts.tm_gmtoff)
  }
}
