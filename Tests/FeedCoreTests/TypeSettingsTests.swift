import FeedCore
import Testing

/// The settings rules that the app and `ctfo enable`/`disable` share.
@Suite struct TypeSettingsTests {
  let swiped = Tombstone(historyIndex: 4, cardID: "f1", type: "fact", direction: .up)

  private func window(_ strategy: ReplacementStrategy) -> UndoWindow {
    UndoWindow(configuration: UndoConfiguration(onReplace: strategy), tombstones: [swiped])
  }

  @Test func turningOffATypeNeedsAnotherOneOn() {
    var window = window(.clearTombstones)
    #expect(
      TypeSettings.change("fact", to: false, enabled: ["fact"], window: &window)
        == .refused(TypeSettings.lastTypeMessage))
    var empty = UndoWindow(configuration: UndoConfiguration())
    #expect(
      TypeSettings.change("fact", to: false, enabled: ["fact", "word"], window: &empty)
        == .apply(enabled: ["word"], effects: []))
  }

  /// Turning a type off changes the collection too: `on-replace` decides the swipes that can
  /// still be undone, and the queues are not thrown away (no `.replace`).
  @Test func eachStrategyDecidesATypeTurnedOff() {
    var clear = window(.clearTombstones)
    #expect(
      TypeSettings.change("fact", to: false, enabled: ["fact", "word"], window: &clear)
        == .apply(enabled: ["word"], effects: [.commit(swiped)]))
    #expect(clear.tombstones.isEmpty)
    var preserve = window(.preserveValidTombstones)
    #expect(
      TypeSettings.change("word", to: false, enabled: ["fact", "word"], window: &preserve)
        == .apply(enabled: ["fact"], effects: []))
    #expect(preserve.tombstones == [swiped])
    var block = window(.blockIfTombstones)
    guard
      case .refused = TypeSettings.change(
        "word", to: false, enabled: ["fact", "word"], window: &block)
    else {
      Issue.record("block-if-tombstones turned a type off")
      return
    }
    var ask = window(.askUser)
    guard
      case .needsConfirmation = TypeSettings.change(
        "word", to: false, enabled: ["fact", "word"], window: &ask)
    else {
      Issue.record("ask-user did not ask")
      return
    }
    #expect(
      TypeSettings.change(
        "word", to: false, enabled: ["fact", "word"], window: &ask, confirmed: true)
        == .apply(enabled: ["fact"], effects: [.commit(swiped)]))
  }

  @Test func eachStrategyDecidesAReEnabledType() {
    var clear = window(.clearTombstones)
    #expect(
      TypeSettings.change("word", to: true, enabled: ["fact"], window: &clear)
        == .apply(enabled: ["fact", "word"], effects: [.commit(swiped), .replace]))
    #expect(clear.tombstones.isEmpty)

    var preserve = window(.preserveValidTombstones)
    #expect(
      TypeSettings.change("word", to: true, enabled: ["fact"], window: &preserve)
        == .apply(enabled: ["fact", "word"], effects: [.replace]))
    #expect(preserve.tombstones == [swiped])

    var block = window(.blockIfTombstones)
    guard case .refused = TypeSettings.change("word", to: true, enabled: ["fact"], window: &block)
    else {
      Issue.record("block-if-tombstones must refuse")
      return
    }
    #expect(block.tombstones == [swiped])

    var ask = window(.askUser)
    guard
      case .needsConfirmation = TypeSettings.change(
        "word", to: true, enabled: ["fact"], window: &ask)
    else {
      Issue.record("ask-user must ask")
      return
    }
    #expect(ask.tombstones == [swiped])
    #expect(
      TypeSettings.change("word", to: true, enabled: ["fact"], window: &ask, confirmed: true)
        == .apply(enabled: ["fact", "word"], effects: [.commit(swiped), .replace]))
  }

  @Test func enablingATypeAlreadyOnReplacesNothing() {
    var window = window(.blockIfTombstones)
    #expect(
      TypeSettings.change("fact", to: true, enabled: ["fact"], window: &window)
        == .apply(enabled: ["fact"], effects: []))
  }
}
