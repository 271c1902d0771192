import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A connection behind a mutex, opened on first use, which the thread holding it may enter
/// again: a store call made inside `StateDatabase.transaction { }` joins that transaction
/// instead of waiting for itself.
public final class Lane: Sendable {
  private let connection: Mutex<Connection?>
  private let open: @Sendable () throws -> Connection
  /// The thread inside `run` (0 for none), written only by that thread.
  private let holder = Atomic<UInt>(0)
  /// The connection while `holder` uses it, as the bits of an unretained reference: read only
  /// by the holder, to enter again the lane it already holds.
  private let held = Atomic<UInt>(0)

  /// A lane on `connection` (nil: opened by `open` on first use, and again after `close`).
  public init(_ connection: sending Connection?, open: @escaping @Sendable () throws -> Connection)
  {
    self.connection = Mutex(connection)
    self.open = open
  }

  /// Whether the calling thread is inside `run` on this lane.
  public var isHeldByCurrentThread: Bool { holder.load(ordering: .acquiring) == Self.currentThread }

  /// Runs `body` with the connection, holding the lane (or within the caller's hold).
  public func run<T: Sendable>(_ body: (Connection) throws -> T) throws -> T {
    let me = Self.currentThread
    if holder.load(ordering: .acquiring) == me, let entered = heldConnection {
      return try body(entered)
    }
    return try connection.withLock { slot throws -> T in
      let opened = try slot ?? open()
      slot = opened
      held.store(UInt(bitPattern: Unmanaged.passUnretained(opened).toOpaque()), ordering: .relaxed)
      holder.store(me, ordering: .releasing)
      defer {
        holder.store(0, ordering: .releasing)
        held.store(0, ordering: .relaxed)
      }
      return try body(opened)
    }
  }

  /// The connection the calling thread holds (call only after checking `holder`).
  private var heldConnection: Connection? {
    UnsafeRawPointer(bitPattern: held.load(ordering: .relaxed)).map {
      Unmanaged<Connection>.fromOpaque($0).takeUnretainedValue()
    }
  }

  /// Closes the connection (it opens again on the next `run`).
  public func close() {
    connection.withLock { $0 = nil }
  }

  private static var currentThread: UInt {
    #if canImport(Darwin)
      UInt(bitPattern: pthread_self())
    #else
      UInt(pthread_self())
    #endif
  }
}
