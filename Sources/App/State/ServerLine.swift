import CardText

/// What the app shows of the CTFO server: a quiet "offline" mark in the hint bar while the last
/// pull failed, and the newest notification, on the row above the hint bar until dismissed.
public struct ServerLine: Sendable, Hashable {
  /// A notification from the server; its text is untrusted.
  public struct Notice: Sendable, Hashable {
    public var id: String
    public var text: String

    public init(id: String, text: String) {
      self.id = id
      self.text = text
    }
  }

  public var offline = false
  public var notice: Notice?
  /// Analytics events waiting because a sink cannot be reached (0 when none is failing).
  public var queuedEvents = 0

  public init(offline: Bool = false, notice: Notice? = nil, queuedEvents: Int = 0) {
    self.offline = offline
    self.notice = notice
    self.queuedEvents = queuedEvents
  }

  /// The quiet mark at the right end of the hint bar: "offline", "12 events queued", both, or
  /// nil.
  public var mark: String? {
    let queued = Plural.count(queuedEvents, "event") + " queued"
    let parts = [offline ? "offline" : nil, queuedEvents > 0 ? queued : nil]
      .compactMap { $0 }
    return parts.isEmpty ? nil : parts.joined(separator: " · ")
  }
}
