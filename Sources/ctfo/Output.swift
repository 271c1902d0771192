import CardText
import Foundation

/// Writing to stdout and stderr: buffered, and sanitised wherever text came from outside.
enum Output {
  /// One line on stderr, sanitised.
  static func warn(_ line: String) {
    FileHandle.standardError.write(Data((Sanitizer.sanitizeLine(line) + "\n").utf8))
  }

  /// A JSON string literal for `text`.
  static func json(_ text: String?) -> String {
    guard let text else { return "null" }
    var out = "\""
    out.reserveCapacity(text.utf8.count + 2)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case "\r": out += "\\r"
      case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
        out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
          + String(scalar.value, radix: 16)
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}

/// Collects output and writes it to stdout in large blocks.
struct StandardOutput {
  private var buffer: [UInt8] = []

  init() { buffer.reserveCapacity(1 << 16) }

  mutating func line(_ text: String) {
    buffer.append(contentsOf: text.utf8)
    buffer.append(0x0A)
    if buffer.count >= 1 << 16 { flush() }
  }

  mutating func flush() {
    guard !buffer.isEmpty else { return }
    buffer.withUnsafeBytes { raw in
      var offset = 0
      while offset < raw.count {
        let n = write(1, raw.baseAddress! + offset, raw.count - offset)
        if n <= 0 { break }
        offset += n
      }
    }
    buffer.removeAll(keepingCapacity: true)
  }
}
