/// The global options' values as ArgumentParser parsed them (`GlobalOptions.values`), for the
/// code that runs a command.
public struct OptionValues: Equatable, Sendable {
  public var home: String?
  public var deck: [String] = []
  public var seed: UInt64?
  public var lookahead: Int?
  public var undoLimit: Int?
  public var onReplace: String?
  public var onLaunch: String?
  public var server: String?
  /// `--feed hot|recent`.
  public var feed: String?
  /// `--no-analytics`, or `DO_NOT_TRACK=1` in the environment: nothing recorded.
  public var noAnalytics = false
  /// `--no-motion`: a swipe is one frame (`motion = "none"`).
  public var noMotion = false
  /// `--ascii`: the screens draw in ASCII (`ascii = true`).
  public var ascii = false
  /// `--linear`: plain lines, no full screen (`linear = true`).
  public var linear = false

  public init(
    home: String? = nil, deck: [String] = [], seed: UInt64? = nil, lookahead: Int? = nil,
    undoLimit: Int? = nil, onReplace: String? = nil, onLaunch: String? = nil,
    server: String? = nil, feed: String? = nil, noAnalytics: Bool = false, noMotion: Bool = false,
    ascii: Bool = false, linear: Bool = false
  ) {
    self.ascii = ascii
    self.linear = linear
    self.noMotion = noMotion
    self.feed = feed
    self.noAnalytics = noAnalytics
    self.home = home
    self.deck = deck
    self.seed = seed
    self.lookahead = lookahead
    self.undoLimit = undoLimit
    self.onReplace = onReplace
    self.onLaunch = onLaunch
    self.server = server
  }
}
