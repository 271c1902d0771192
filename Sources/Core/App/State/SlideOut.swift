import FeedCore

/// Whether a swipe moves on screen: `full` plays the slide-out; `none` (`motion = "none"`,
/// `--no-motion`, `CTFO_REDUCE_MOTION=1`) draws the swipe as one frame, the next card at once.
public enum Motion: String, Sendable, Hashable, CaseIterable {
  case full, none
}

/// The short animation of a swiped card leaving the screen in the swipe's direction.
///
/// Pure frames: the run loop sends `AppAction.frame` every `frameMilliseconds` while one is
/// in progress, and any key finishes it at once, so it never delays the next key.
public struct SlideOut: Sendable, Hashable {
  /// Frames drawn before the card is gone.
  public static let frames = 4
  /// The pause between two frames.
  public static let frameMilliseconds = 16

  public var card: ShownCard
  public var direction: SwipeDirection
  /// The frame on screen, 0..<frames.
  public var frame: Int
  /// Where the card starts from, in columns and rows from its place: where the mouse let go
  /// of it (0, 0 for a key).
  public var startColumn: Int
  public var startRow: Int

  public init(
    card: ShownCard, direction: SwipeDirection, frame: Int = 0, startColumn: Int = 0,
    startRow: Int = 0
  ) {
    self.card = card
    self.direction = direction
    self.frame = frame
    self.startColumn = startColumn
    self.startRow = startRow
  }

  /// How far the card has moved, as a fraction of the way off the screen.
  public var progress: Double { Double(frame + 1) / Double(Self.frames + 1) }
}
