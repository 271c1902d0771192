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

  public init(offline: Bool = false, notice: Notice? = nil) {
    self.offline = offline
    self.notice = notice
  }
}
