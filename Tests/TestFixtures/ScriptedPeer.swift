import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A fake server on 127.0.0.1: each connection's request gets the answer `answer` writes for it
/// (nil: the connection stays open, unanswered, until `stop`), one connection at a time. For
/// the answers the real CTFO server never gives: numbers at their edges, bad cache keys.
public final class ScriptedPeer: @unchecked Sendable {
  public let port: Int
  private let listener: Int32
  private let lock = NSLock()
  private var received: [String] = []
  private var stopped = false
  private let release = DispatchSemaphore(value: 0)

  public init(answer: @escaping @Sendable (_ request: String) -> String?) throws {
    (listener, port) = try LoopbackPeer.listen()
    Thread.detachNewThread { [self] in serve(answer) }
  }

  private func serve(_ answer: @Sendable (String) -> String?) {
    while true {
      let connection = accept(listener, nil, nil)
      guard connection >= 0, !lock.withLock({ stopped }) else { break }
      let request = String(decoding: LoopbackPeer.readRequest(connection), as: UTF8.self)
      lock.withLock { received.append(request) }
      if let reply = answer(request) {
        _ = Array(reply.utf8).withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
      } else {
        release.wait()
      }
      close(connection)
    }
    close(listener)
  }

  /// The requests read so far, in order, as text.
  public var requests: [String] { lock.withLock { received } }

  /// Ends the peer: an unanswered connection closes, and no new one is taken.
  public func stop() {
    lock.withLock { stopped = true }
    release.signal()
    shutdown(listener, Int32(SHUT_RDWR))
  }

  /// An answer with `json` as its body, `200 OK` unless `status` says otherwise.
  public static func json(_ json: String, status: String = "200 OK") -> String {
    "HTTP/1.1 \(status)\r\nContent-Type: application/json\r\nContent-Length: "
      + "\(json.utf8.count)\r\n\r\n\(json)"
  }
}
