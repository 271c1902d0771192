/// The rules of the settings screen's checkboxes (feed-logic.md, "Card Settings"), in one place
/// for the app and for `ctfo enable` / `ctfo disable`.
///
/// At least one type stays enabled. Turning a type on or off replaces the feed's collection,
/// so the undo window's `on-replace` strategy decides what happens to the swipes that can
/// still be undone: commit them, keep the valid ones, refuse, or ask first.
///
///     var window = UndoWindow(configuration: config, tombstones: persisted)
///     switch TypeSettings.change("fact", to: true, enabled: ["word"], window: &window) {
///     case .apply(let types, let effects): ...  // write effects and the setting together
///     case .refused(let reason), .needsConfirmation(let reason): ...
///     }
public enum TypeSettings {
  /// What turning `type` on or off comes to.
  public enum Decision: Sendable, Hashable {
    /// Done: the enabled types after the change, and the undo effects to write with it.
    case apply(enabled: Set<String>, effects: [UndoEffect])
    /// Not done, with the reason.
    case refused(String)
    /// Needs a yes first; ask this question, then decide again with `confirmed: true`.
    case needsConfirmation(String)
  }

  public static let lastTypeMessage = "At least one type must stay enabled."

  /// Decides the change of `type` to `enabled`, given the types enabled now. `confirmed` is
  /// true once the user said yes to the question of an earlier decision. The window changes
  /// only when the decision is `.apply`.
  public static func change(
    _ type: String, to enabled: Bool, enabled current: Set<String>, window: inout UndoWindow,
    confirmed: Bool = false
  ) -> Decision {
    var types = current
    if enabled { types.insert(type) } else { types.remove(type) }
    guard !types.isEmpty else { return .refused(lastTypeMessage) }
    // Turning a type on or off changes the collection: `on-replace` applies either way.
    guard types != current else { return .apply(enabled: types, effects: []) }
    var trial = window
    var effects = trial.replaceCollection(enabledTypes: types)
    if confirmed, effects.contains(where: \.isQuestion) {
      effects = trial.answerReplacement(true)
    }
    for effect in effects {
      switch effect {
      case .refuseReplacement(let reason): return .refused(reason)
      case .askUser(let question): return .needsConfirmation(question)
      default: continue
      }
    }
    window = trial
    // A type turned off leaves the queues with its cards; the rest of them stays.
    if !enabled { effects.removeAll { $0 == .replace } }
    return .apply(enabled: types, effects: effects)
  }
}

extension UndoEffect {
  fileprivate var isQuestion: Bool {
    if case .askUser = self { return true }
    return false
  }
}
