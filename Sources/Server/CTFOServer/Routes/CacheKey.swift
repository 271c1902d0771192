import CTFOWire

/// A cache key: the store's epoch, the feed and the revision it names.
struct CacheKey: Equatable {
  var epoch: String
  var feed: PullFeed
  var revision: Int64

  var text: String { "\(epoch).\(feed.rawValue).\(revision)" }

  /// What the ETag of a gzip body adds to the key.
  static let gzipSuffix = "-gzip"

  /// Parses `"KEY"` or `W/"KEY"`, either with `gzipSuffix`; nil for anything else (a full pull
  /// then, never an error).
  init?(header: some StringProtocol) {
    var value = Substring(header).utf8[...]
    while value.first == UInt8(ascii: " ") || value.first == UInt8(ascii: "\t") {
      value = value.dropFirst()
    }
    while value.last == UInt8(ascii: " ") || value.last == UInt8(ascii: "\t") {
      value = value.dropLast()
    }
    if value.starts(with: "W/".utf8) { value = value.dropFirst(2) }
    guard value.count >= 2, value.first == UInt8(ascii: "\""), value.last == UInt8(ascii: "\"")
    else { return nil }
    var key = Substring(value.dropFirst().dropLast())
    if key.hasSuffix(Self.gzipSuffix) { key = key.dropLast(Self.gzipSuffix.count) }
    let parts = key.split(separator: ".")
    guard parts.count == 3, let feed = PullFeed(rawValue: String(parts[1])),
      let revision = Int64(parts[2]), revision >= 0
    else { return nil }
    self.init(epoch: String(parts[0]), feed: feed, revision: revision)
  }

  init(epoch: String, feed: PullFeed, revision: Int64) {
    self.epoch = epoch
    self.feed = feed
    self.revision = revision
  }
}
