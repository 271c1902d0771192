/// The help screen's lines: every key and what it does. The reducer scrolls them, the help
/// screen draws them.
public enum HelpText {
  public static let keys: [(keys: String, action: String)] = [
    ("→  l", "swipe right: TFU"),
    ("←  h", "swipe left: TIFB"),
    ("↑  k", "swipe up: CTFO"),
    ("↓  j", "history"),
    ("Enter Space", "whole card: answer, link"),
    ("u  Backspace", "undo the last swipe"),
    ("s", "settings: card types"),
    ("?", "this help"),
    ("q  Ctrl-C", "quit"),
    ("", ""),
    ("↑↓ PgUp PgDn", "move in lists, scroll"),
    ("Enter", "open a history card"),
    ("o", "open the card's link"),
    ("Esc  q", "back"),
  ]
}
