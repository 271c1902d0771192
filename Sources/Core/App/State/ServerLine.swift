import CardText

/// What the app shows of the CTFO server: a quiet "offline" mark in the hint bar while the last
/// pull failed, the user's status there when the server set one, and the newest notification
/// not dismissed, on the row above the hint bar.
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
  /// The notifications not dismissed, newest first: the first shows until dismissed, then the
  /// next.
  public var notices: [Notice]
  /// Analytics events waiting because a sink cannot be reached (0 when none is failing).
  public var queuedEvents = 0
  /// The user's status as the server last sent it (untrusted text).
  public var userStatus: String?

  /// The status of a user the server set none for: not shown.
  public static let defaultStatus = "active"

  public init(
    offline: Bool = false, notices: [Notice] = [], queuedEvents: Int = 0,
    userStatus: String? = nil
  ) {
    self.offline = offline
    self.notices = notices
    self.queuedEvents = queuedEvents
    self.userStatus = userStatus
  }

  /// The notification on show: the newest not dismissed.
  public var notice: Notice? { notices.first }

  /// The user's status when it is worth showing: set, and not the default.
  public var shownStatus: String? {
    guard let userStatus, !userStatus.isEmpty, userStatus != Self.defaultStatus else { return nil }
    return userStatus
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
