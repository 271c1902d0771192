import App
import Terminal

/// The key decoder, on every five bytes of the input: a 32-bit value (little-endian) and
/// whether `wget_wch` called it a key code. Checks that a character key is never a control
/// and a Ctrl key is a lower-case letter.
enum KeyHarness {
  static func run(_ bytes: UnsafeRawBufferPointer) {
    var rest = bytes[...]
    while rest.count >= 5 {
      let value = rest.prefix(4).reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
      let isKeyCode = rest[rest.startIndex + 4] & 1 == 1
      rest = rest.dropFirst(5)
      switch KeyDecoder.decode(value, isKeyCode: isKeyCode) {
      case .event(.key(.character(let character))):
        precondition(
          !character.unicodeScalars.contains(where: isControl),
          "control key \(shown("\(character)"))")
      case .event(.key(.control(let letter))):
        precondition(("a"..."z").contains(letter), "Ctrl-\(shown("\(letter)"))")
      default: break
      }
    }
  }
}
