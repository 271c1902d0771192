import Glibc

extension TerminalSession {
  /// Puts `text` on the terminal's clipboard: one OSC 52 sequence (`ESC ] 52 ; c ; BASE64
  /// BEL`), written past curses between two frames. Terminals that do not know it ignore it;
  /// tmux takes it with `set-clipboard on`, and it travels over ssh.
  public func copyToClipboard(_ text: String) {
    let sequence = Array("\u{1B}]52;c;".utf8) + Base64.encode(Array(text.utf8)) + [0x07]
    writeAll(sequence, to: fileno(files.output))
  }
}

/// Writes every byte of `bytes` to `descriptor`, again after an interruption; stops at an error
/// (a terminal gone).
func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
  bytes.withUnsafeBytes { buffer in
    var offset = 0
    while offset < buffer.count {
      let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
      if written < 0, errno == EINTR { continue }
      guard written > 0 else { return }
      offset += written
    }
  }
}

/// Base64 (RFC 4648, with padding), for OSC 52.
enum Base64 {
  private static let alphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  static func encode(_ bytes: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity((bytes.count + 2) / 3 * 4)
    var i = 0
    while i < bytes.count {
      let count = min(3, bytes.count - i)
      let b0 = UInt32(bytes[i])
      let b1 = count > 1 ? UInt32(bytes[i + 1]) : 0
      let b2 = count > 2 ? UInt32(bytes[i + 2]) : 0
      let group = b0 << 16 | b1 << 8 | b2
      for j in 0..<4 {
        out.append(j <= count ? alphabet[Int(group >> UInt32(18 - 6 * j) & 0x3F)] : UInt8(ascii: "="))
      }
      i += 3
    }
    return out
  }
}
