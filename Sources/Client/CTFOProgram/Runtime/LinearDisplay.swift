import App
import CardText
import FeedCore
import Screens
import Terminal

/// `ctfo --linear`: the app as plain lines, for a screen reader reading the terminal line by
/// line, or `script` capturing it. Nothing is drawn twice and no escape sequence is written:
/// each card is printed once (type, title, text, source), then one line listing the keys; each
/// action prints one line saying what happened. The keys act as in the full-screen app.
final class LinearDisplay: AppDisplay {
  private let session: LinearSession
  /// What was last shown, to print only what changed.
  private var shownCard: ShownCard?
  private var shownMode: AppMode?
  private var shownMessage: String?
  private var shownUnavailable: String?
  private var newestSwipe: Tombstone?
  private var undoable = 0

  init(session: LinearSession) {
    self.session = session
  }

  /// Cards are laid out for a wide screen: the text is printed whole, not cut to a box.
  var size: (width: Int, height: Int) { (width: 80, height: 24) }
  /// Plain lines take no mouse.
  var reportsMouse: Bool { false }

  func events(wakeFD: Int32, milliseconds: Int?) -> [InputEvent] {
    session.waitForEvents(wakeFD: wakeFD, milliseconds: milliseconds)
  }

  func show(_ machine: AppMachine) {
    let state = machine.screen
    var lines: [String] = []
    let window = machine.session.window.tombstones
    if window.count < undoable {
      lines.append("Undone. \(Self.canUndo(window.count))")
    } else if let newest = window.last, newest != newestSwipe {
      let reaction = newest.direction.reaction
      lines.append(
        "Swiped \(newest.direction) (\(reaction.rawValue), \(reaction.meaning)). "
          + Self.canUndo(window.count))
    }
    newestSwipe = window.last
    undoable = window.count
    if state.mode != shownMode {
      lines += shownMode.flatMap { moved(from: $0, to: state) } ?? screen(state)
    }
    shownMode = state.mode
    if state.mode == .feed { lines += feed(state) }
    if let message = state.message ?? state.saveProblem, message != shownMessage {
      lines.append(Sanitizer.sanitizeLine(message))
    }
    shownMessage = state.message ?? state.saveProblem
    session.write(lines)
  }

  private static func canUndo(_ count: Int) -> String {
    count == 1 ? "1 swipe can be undone." : "\(count) swipes can be undone."
  }

  /// A new card on the feed: the card, then the keys.
  private func feed(_ state: AppState) -> [String] {
    switch state.feed {
    case .card(let shown) where shown != shownCard:
      shownCard = shown
      shownUnavailable = nil
      return card(shown.prepared.card, label: label(shown.prepared.card.type, state), whole: false)
        + ["#\(shown.position + 1). " + Self.keyLine(state.keys)]
    case .unavailable(let reason) where reason != shownUnavailable:
      shownUnavailable = reason
      return [Sanitizer.sanitizeLine(reason)]
    default: return []
    }
  }

  /// The same list moved or changed in place: its selected line, marked; nil when another
  /// screen came (or the list was loaded again), which is printed whole.
  private func moved(from old: AppMode, to state: AppState) -> [String]? {
    switch (old, state.mode) {
    case (.history(let before), .history(let browser)) where before.entries == browser.entries:
      guard browser.entries.indices.contains(browser.viewport.selection) else { return [] }
      return ["> " + entryLine(browser.entries[browser.viewport.selection], state)]
    case (.settings, .settings(let panel)):
      guard panel.statuses.indices.contains(panel.viewport.selection) else { return [] }
      return ["> " + statusLine(panel.statuses[panel.viewport.selection])]
    case (.help, .help): return []
    default: return nil
    }
  }

  private func entryLine(_ entry: HistoryEntry, _ state: AppState) -> String {
    let reaction = entry.reaction?.rawValue ?? "no reaction"
    let title = Sanitizer.sanitizeLine(entry.title ?? entry.cardID)
    return "#\(entry.index + 1) \(label(entry.type, state)): \(title) (\(reaction))"
  }

  private func statusLine(_ status: TypeStatus) -> String {
    "\(status.enabled ? "on " : "off") \(Sanitizer.sanitizeLine(status.type.label)) (\(status.cards) cards)"
  }

  /// A screen entered: what it shows, as lines.
  private func screen(_ state: AppState) -> [String] {
    switch state.mode {
    case .feed:
      // Back on the feed: the card on screen again, and the keys.
      shownCard = nil
      return []
    case .history(let browser):
      let entries = browser.entries.prefix(20).map { entryLine($0, state) }
      return ["History, newest first (\(browser.total) cards):"] + entries
        + ["Up and Down move, Enter opens, u undoes back to the card, b brings it back next, Esc goes back."]
    case .fullCard(let view):
      return card(view.card.card, label: label(view.card.card.type, state), whole: true)
        + ["Esc goes back."]
    case .settings(let panel):
      return ["Settings, card types:"] + panel.statuses.map(statusLine)
        + ["Up and Down move, Space turns a type on or off, Esc goes back."]
    case .help:
      return ["Keys:"] + HelpText.lines(state.keys).filter { !$0.keys.isEmpty }.map {
        "\($0.keys): \($0.action)"
      } + ["Esc goes back."]
    case .confirm(let question):
      return [Sanitizer.sanitizeLine(question.question) + " (y or n)"]
    case .stats(let view):
      return StatsScreen.plainLines(view.stats) + ["Esc goes back."]
    }
  }

  private func label(_ type: String, _ state: AppState) -> String {
    Sanitizer.sanitizeLine(state.types[type]?.label ?? type)
  }

  /// A card as lines: its type, title and text, and with `whole` what its whole view adds.
  private func card(_ card: Card, label: String, whole: Bool) -> [String] {
    var lines = [label + ":"]
    if let title = card.title, !title.isEmpty { lines.append(Sanitizer.sanitizeLine(title)) }
    lines += Sanitizer.sanitize(card.body).split(separator: "\n", omittingEmptySubsequences: false)
      .map { String($0) }
    if whole, let reveal = card.reveal, !reveal.isEmpty {
      lines += ["Answer:"] + Sanitizer.sanitize(reveal).split(separator: "\n").map { String($0) }
    }
    if let source = whole ? card.citedSource : card.faceSource {
      lines.append("Source: " + Sanitizer.sanitizeLine(source))
    }
    if whole, let url = card.url, !url.isEmpty { lines.append("Link: " + Sanitizer.sanitizeLine(url)) }
    return lines
  }

  /// The feed's keys, as the hint bar names them.
  private static func keyLine(_ keys: KeyBindings) -> String {
    let actions: [(KeyAction, String)] = [
      (.swipeRight, "TFU"), (.swipeLeft, "TIFB"), (.swipeUp, "CTFO"), (.history, "history"),
      (.undo, "undo"), (.settings, "settings"), (.help, "help"), (.quit, "quit"),
    ]
    return "Keys: "
      + actions.compactMap { action, name in
        keys.keys(for: action).first.map { "\($0.label) \(name)" }
      }.joined(separator: ", ")
  }

  func invalidate() { shownCard = nil }

  /// No clipboard without escape sequences: the text is printed instead.
  func copyToClipboard(_ text: String) {
    session.write(["Copied text:"] + text.split(separator: "\n").map { String($0) })
  }

  func whileSuspended<T>(_ body: () -> T) -> T { session.whileCooked(body) }

  func close() { session.close() }
}
