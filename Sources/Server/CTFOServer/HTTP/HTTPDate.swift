import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The `Date` header's value (RFC 9110's IMF-fixdate), made once a second.
enum HTTPDate {
  private static let made = Mutex<(second: Int, text: String)>((-1, ""))

  static func now() -> String {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    let second = time.tv_sec
    if let text = made.withLock({ $0.second == second ? $0.text : nil }) { return text }
    var parts = tm()
    var seconds = second
    gmtime_r(&seconds, &parts)
    var buffer = [CChar](repeating: 0, count: 64)
    let count = strftime(&buffer, buffer.count, "%a, %d %b %Y %H:%M:%S GMT", &parts)
    let text = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    made.withLock { $0 = (second, text) }
    return text
  }
}
