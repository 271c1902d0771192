/// An analytics event the server took: where it came from, its dedup key, its name and time.
public struct ReceivedEvent: Sendable, Equatable {
  /// `ctfo` (`POST /v1/events`), `mixpanel` (`/import`) or `ga` (`/mp/collect`).
  public var sink: String
  public var insertID: String
  public var name: String
  public var distinctID: String
  /// Milliseconds since the epoch.
  public var time: Int64
  /// The event as JSON.
  public var payload: String
  /// How many times it came (a retry after a lost answer comes twice, and is stored once).
  public var copies = 1
  /// The card it is about, if any (a reaction, a focus).
  public var cardID: String?
  public var cardType: String?

  public init(
    sink: String, insertID: String, name: String, distinctID: String, time: Int64,
    payload: String, copies: Int = 1
  ) {
    self.sink = sink
    self.insertID = insertID
    self.name = name
    self.distinctID = distinctID
    self.time = time
    self.payload = payload
    self.copies = copies
  }
}
