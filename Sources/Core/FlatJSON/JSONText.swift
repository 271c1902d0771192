/// JSON text written by hand, for output that must be exactly these bytes (an analytics event is
/// sent byte for byte as recorded) or cheap (`ctfo next --json`): strings escaped on their
/// UTF-8 bytes, controls as `\u00XX`.
public enum JSONText {
  /// Appends a JSON string literal for `text` (`null` for nil).
  public static func append(_ text: String?, to buffer: inout [UInt8]) {
    guard var text else { return buffer.append(contentsOf: "null".utf8) }
    buffer.append(0x22)
    text.withUTF8 { bytes in
      for byte in bytes {
        switch byte {
        case 0x22: buffer.append(contentsOf: [0x5C, 0x22])
        case 0x5C: buffer.append(contentsOf: [0x5C, 0x5C])
        case 0x0A: buffer.append(contentsOf: [0x5C, 0x6E])
        case 0x09: buffer.append(contentsOf: [0x5C, 0x74])
        case 0x0D: buffer.append(contentsOf: [0x5C, 0x72])
        case ..<0x20, 0x7F: buffer.append(contentsOf: unicodeEscape(byte))
        default: buffer.append(byte)
        }
      }
    }
    buffer.append(0x22)
  }

  /// `text` as a JSON string literal.
  public static func quoted(_ text: String) -> String {
    var buffer: [UInt8] = []
    buffer.reserveCapacity(text.utf8.count + 2)
    append(text, to: &buffer)
    return String(decoding: buffer, as: UTF8.self)
  }

  private static func unicodeEscape(_ byte: UInt8) -> [UInt8] {
    let hex = Array("0123456789abcdef".utf8)
    return [0x5C, 0x75, 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
  }
}
