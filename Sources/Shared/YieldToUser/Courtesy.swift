import CYieldToUser

/// Background work yields to the user (DECISIONS.md, "Background work yields to the user").
///
/// The app's background threads (pulls, analytics) call `becomeBackground` once: they then run
/// at a raised nice value and give the CPU up every `quantum` at their yield points (every
/// step of a SQLite statement, and every 1,000 instructions of a long one, has them). Between
/// two units of their work (a batch of events, a chunk of a pull) they call `pause`, or
/// `StateDatabase.pause` where they write, which waits while the user's keys come, so that a
/// key does not find the CPU, the disk or the server busy with work that can wait. The UI
/// thread and every command never yield and never wait.
///
///     Courtesy.becomeBackground()     // once, on the background thread
///     for chunk in chunks { Courtesy.pause(); apply(chunk) }
///     Courtesy.userActed()            // on the UI thread, for each key
public enum Courtesy {
  /// How long after a key a unit of background work waits.
  public static let quiet = Duration.milliseconds(100)
  /// The longest a unit waits: keys held down still let one through this often.
  public static let longest = Duration.seconds(2)
  /// How long a background thread runs before it yields at a yield point.
  public static let quantum = Duration.microseconds(100)

  /// The user pressed a key (or the app began): background units wait for a quiet moment.
  public static func userActed() { ctfo_user_acted() }

  /// No background unit waits from now on (the app quits and flushes what it can).
  public static func stopDeferring() { ctfo_stop_deferring() }

  /// Makes the calling thread a background one, at nice `niceness`.
  public static func becomeBackground(niceness: Int32 = 10) {
    ctfo_become_background(niceness, nanoseconds(quantum))
  }

  /// Whether the calling thread is a background one.
  @inlinable public static var isBackground: Bool { ctfo_is_background() != 0 }

  /// A yield point: on a background thread whose quantum has passed, gives the CPU up; elsewhere
  /// a thread-local read. For loops of work between two statements or pauses; inlined, so that
  /// a SQLite step or a socket read pays a C call and nothing more.
  @inlinable public static func yieldPoint() { ctfo_yield_point() }

  /// Between two units of work: on a background thread, waits while a key came less than
  /// `quiet` ago, at most `longest`, then yields if its quantum has passed; elsewhere returns
  /// at once. Returns how long it waited.
  @discardableResult
  public static func pause(quiet: Duration = quiet, longest: Duration = longest) -> Duration {
    .nanoseconds(ctfo_pause(nanoseconds(quiet), nanoseconds(longest)))
  }

  private static func nanoseconds(_ duration: Duration) -> Int64 {
    duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
  }
}
