/// One analytics event as the app records it: a name and flat properties (ctfo.md,
/// "Implementation: Analytics"). The store gives it its `$insert_id`, `distinct_id` and `time`
/// when it writes it to the outbox, in the transaction of the state change that caused it.
///
///     AnalyticsEvent("Focus", ["card_id": .string(card.id), "ms": .integer(1200)])
public struct AnalyticsEvent: Sendable, Hashable {
  public var name: String
  /// Flat properties, in the order given (their order in the JSON sent).
  public var properties: [Property]

  public struct Property: Sendable, Hashable {
    public var key: String
    public var value: AnalyticsValue

    public init(_ key: String, _ value: AnalyticsValue) {
      self.key = key
      self.value = value
    }
  }

  public init(_ name: String, _ properties: KeyValuePairs<String, AnalyticsValue> = [:]) {
    self.name = name
    self.properties = properties.map { Property($0.key, $0.value) }
  }

  /// The event of a swipe that became final (left the undo window): `CTFO`, `TFU` or `TIFB`.
  public static func reaction(_ tombstone: Tombstone) -> AnalyticsEvent {
    AnalyticsEvent(
      tombstone.direction.reaction.rawValue,
      ["card_id": .string(tombstone.cardID), "card_type": .string(tombstone.type)])
  }

  /// A type turned on or off in the settings.
  public static func setting(type: String, enabled: Bool) -> AnalyticsEvent {
    AnalyticsEvent("SettingsChanged", ["card_type": .string(type), "enabled": .bool(enabled)])
  }

  /// A card was on screen for `milliseconds`.
  public static func focus(cardID: String, type: String, milliseconds: Int64) -> AnalyticsEvent {
    AnalyticsEvent(
      "Focus",
      ["card_id": .string(cardID), "card_type": .string(type), "ms": .integer(milliseconds)])
  }
}

/// A property's value: flat, as Mixpanel and GA take them.
public enum AnalyticsValue: Sendable, Hashable {
  case string(String)
  case integer(Int64)
  case bool(Bool)
}
