import FeedCore

/// The help screen's lines: every key and what it does, with the keys config.toml binds. The
/// reducer scrolls them, the help screen draws them.
public enum HelpText {
  /// The lines with `keys`' bindings; the bound keys of an action are shown by their labels.
  /// With `mouse`, the line between the feed's keys and the others says what the mouse does.
  public static func lines(
    _ keys: KeyBindings, mouse: Bool = false
  ) -> [(keys: String, action: String)] {
    func bound(_ action: KeyAction, _ fixed: [String] = []) -> String {
      (keys.keys(for: action).map(\.label) + fixed).joined(separator: "  ")
    }
    return [
      (bound(.swipeRight), swipe("right", .tfu)),
      (bound(.swipeLeft), swipe("left", .tifb)),
      (bound(.swipeUp), swipe("up", .ctfo)),
      (bound(.history), "history"),
      (bound(.open), "whole card: answer, link"),
      (bound(.undo), "undo the last swipe"),
      (bound(.settings), "settings: card types"),
      (bound(.stats), "your stats in charts"),
      (bound(.pull) + " / " + bound(.dismiss), "pull from the server / dismiss its notice"),
      (bound(.copy), "copy the card (OSC 52)"),
      (bound(.help), "this help"),
      (bound(.quit, ["Ctrl-C"]), "quit"),
      mouse ? ("mouse", "drag the card to swipe, click, wheel") : ("", ""),
      ("↑↓ PgUp PgDn", "move in lists, scroll"),
      ("Enter", "open a history card"),
      (bound(.undo), "undo back to a history card"),
      (bound(.bringBack), "bring a history card back next"),
      (bound(.search), "search the history"),
      (bound(.filter), "history by reaction"),
      (bound(.openLink), "open the card's link"),
      ("Esc  q", "back"),
    ]
  }

  /// "swipe right: TFU, liked it": the reaction's name and what it means.
  private static func swipe(_ direction: String, _ reaction: Reaction) -> String {
    "swipe \(direction): \(reaction.rawValue), \(reaction.meaning)"
  }

  /// How many lines the help has, whatever the bindings.
  public static let lineCount = lines(.standard).count
}
