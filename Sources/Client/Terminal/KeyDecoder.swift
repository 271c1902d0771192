import App
import CNcursesw

/// What one result of `wget_wch` asks the session to do.
public enum DecodedKey: Sendable, Hashable {
  /// Hand this event to the app.
  case event(InputEvent)
  /// Ctrl-Z in raw mode: suspend the process, then report `.resumed`.
  case suspend
  /// `KEY_MOUSE`: terminfo's `kmous` arrived, the start of a mouse report (`MouseReports`).
  case mouseReport

  /// The event, if this is one.
  var event: InputEvent? {
    guard case .event(let event) = self else { return nil }
    return event
  }
}

/// Turns the results of `wget_wch` into keys: the pure half of reading the keyboard.
///
///     KeyDecoder.decode(0x1B, isKeyCode: false)  // .event(.key(.escape))
///     KeyDecoder.decode(UInt32(KEY_UP), isKeyCode: true)  // .event(.key(.up))
public enum KeyDecoder {
  /// Decodes one value: a function-key code when `wget_wch` returned `KEY_CODE_YES`, otherwise a
  /// character.
  public static func decode(_ value: UInt32, isKeyCode: Bool) -> DecodedKey {
    isKeyCode ? functionKey(Int32(bitPattern: value)) : character(value)
  }

  static func functionKey(_ code: Int32) -> DecodedKey {
    switch code {
    case KEY_RESIZE: .event(.resize)
    case KEY_UP: .event(.key(.up))
    case KEY_DOWN: .event(.key(.down))
    case KEY_LEFT: .event(.key(.left))
    case KEY_RIGHT: .event(.key(.right))
    case KEY_PPAGE: .event(.key(.pageUp))
    case KEY_NPAGE: .event(.key(.pageDown))
    case KEY_HOME, KEY_A1: .event(.key(.home))
    case KEY_END, KEY_C1: .event(.key(.end))
    case KEY_ENTER: .event(.key(.enter))
    case KEY_BACKSPACE: .event(.key(.backspace))
    case KEY_MOUSE: .mouseReport
    default: .event(.key(.unknown))
    }
  }

  static func character(_ value: UInt32) -> DecodedKey {
    switch value {
    case 0x0D, 0x0A: .event(.key(.enter))
    case 0x20: .event(.key(.space))
    case 0x09: .event(.key(.tab))
    case 0x1B: .event(.key(.escape))
    case 0x7F, 0x08: .event(.key(.backspace))
    case 0x03: .event(.terminate)
    case 0x1A: .suspend
    case 0x01...0x1A: .event(.key(.control(controlLetter(value))))
    default: .event(.key(printable(value).map(Key.character) ?? .unknown))
    }
  }

  /// The letter of a Ctrl-letter byte: 0x01 is "a".
  static func controlLetter(_ value: UInt32) -> Character {
    Character(Unicode.Scalar(UInt8(value) + 0x60))
  }

  /// The character of a printable code point; nil for controls (C0, DEL, C1) and non-scalars.
  static func printable(_ value: UInt32) -> Character? {
    guard value >= 0x20, !(0x7F...0x9F).contains(value), let scalar = Unicode.Scalar(value)
    else { return nil }
    return Character(scalar)
  }
}
