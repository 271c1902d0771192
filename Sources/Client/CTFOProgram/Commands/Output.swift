import CardText

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writing to stderr: sanitised, since its text often came from outside (deck problems).
enum Output {
  /// One line on stderr, sanitised.
  static func warn(_ line: String) {
    var text = Sanitizer.sanitizeLine(line) + "\n"
    text.withUTF8 { bytes in
      var offset = 0
      while offset < bytes.count {
        let n = write(2, bytes.baseAddress! + offset, bytes.count - offset)
        if n < 0, errno == EINTR { continue }
        guard n > 0 else { return }
        offset += n
      }
    }
  }
}
