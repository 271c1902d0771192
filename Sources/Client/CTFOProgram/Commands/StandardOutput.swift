import FeedCore
import FlatJSON

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Collects output and writes it to stdout in large blocks.
struct StandardOutput {
  private var buffer: [UInt8] = []
  /// The first write error (errno); nothing more is written after it.
  private(set) var failure: Int32?
  /// The bytes written so far.
  private(set) var bytesWritten = 0
  /// Where the next byte appended will be, counted from the first byte ever appended.
  var offset: Int { bytesWritten + buffer.count }

  init() { buffer.reserveCapacity(1 << 16) }

  mutating func line(_ text: String) {
    raw(text)
    endLine()
  }

  /// Appends text as it is.
  mutating func raw(_ text: String) { buffer.append(contentsOf: text.utf8) }

  /// Ends the line, writing the buffer out when it is large.
  mutating func endLine() {
    buffer.append(0x0A)
    if buffer.count >= 1 << 16 { flush() }
  }

  /// Appends a JSON string literal for `text` (`null` for nil), escaping on the UTF-8 bytes.
  mutating func json(_ text: String?) { JSONText.append(text, to: &buffer) }

  /// Writes one JSON object on its own line; keys are ours (plain ASCII), values are escaped.
  mutating func jsonObject(_ fields: KeyValuePairs<String, JSONValue>) {
    jsonFields(fields.map { ($0.key, $0.value) })
    endLine()
  }

  private mutating func jsonFields(_ fields: [(String, JSONValue)]) {
    buffer.append(0x7B)
    for (i, (key, value)) in fields.enumerated() {
      if i > 0 { buffer.append(0x2C) }
      raw("\"\(key)\":")
      switch value {
      case .string(let text): json(text)
      case .int(let n): raw(String(n))
      case .null: raw("null")
      case .bool(let b): raw(b ? "true" : "false")
      case .strings(let list):
        buffer.append(0x5B)
        for (j, text) in list.enumerated() {
          if j > 0 { buffer.append(0x2C) }
          json(text)
        }
        buffer.append(0x5D)
      case .object(let inner): jsonFields(inner)
      case .objects(let list):
        buffer.append(0x5B)
        for (j, inner) in list.enumerated() {
          if j > 0 { buffer.append(0x2C) }
          jsonFields(inner)
        }
        buffer.append(0x5D)
      }
    }
    buffer.append(0x7D)
  }

  mutating func flush() {
    guard !buffer.isEmpty, failure == nil else { return buffer.removeAll(keepingCapacity: true) }
    failure = buffer.withUnsafeBytes { raw -> Int32? in
      var offset = 0
      defer { bytesWritten += offset }
      while offset < raw.count {
        let n = write(1, raw.baseAddress! + offset, raw.count - offset)
        if n < 0, errno == EINTR { continue }
        guard n > 0 else { return n < 0 ? errno : EIO }
        offset += n
      }
      return nil
    }
    buffer.removeAll(keepingCapacity: true)
  }

  /// Writes what is left; an output that could not be written (a full disk, a closed pipe) is
  /// an error, not a silent success.
  mutating func finish() throws(CLIError) {
    flush()
    if let failure { throw CLIError("cannot write the output: \(Errors.text(failure))") }
  }
}

/// A value of the JSON objects the commands print.
indirect enum JSONValue {
  case string(String?)
  case int(Int)
  case null
  case bool(Bool)
  case strings([String])
  case object([(String, JSONValue)])
  case objects([[(String, JSONValue)]])
}
