/// A decoded key press.
public enum Key: Sendable, Hashable {
  case up, down, left, right
  case pageUp, pageDown, home, end
  case enter, space, tab, escape, backspace
  /// A printable character ("q", "u", "?", "h", ...).
  case character(Character)
  /// Ctrl plus a letter, lower case ("c" for Ctrl-C).
  case control(Character)
  case unknown
}

/// What the run loop wakes up for.
public enum InputEvent: Sendable, Hashable {
  case key(Key)
  /// The mouse (when it reports: `mouse` in config.toml).
  case mouse(MouseEvent)
  /// The terminal changed size; the new size is in `TerminalSession.size`.
  case resize
  /// The wake-up pipe was written: a card became ready (or other background news).
  case wake
  /// SIGTERM, SIGHUP or SIGINT: save and quit.
  case terminate
  /// Resumed after Ctrl-Z: redraw everything.
  case resumed
}
