import Dispatch
import FeedCore
import FlatJSON
import Store
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// `[hooks] reaction = "CMD"`: async-card-stack.md's eviction callback for a terminal user. CMD
/// runs with `/bin/sh -c` each time a reaction becomes final (leaves the undo window), the card
/// as one JSON object on its standard input. Hooks run one at a time, in order, on a queue of
/// their own, so a key never waits for one; each has `deadline` to finish, then it is killed with
/// everything it started. Its output goes nowhere; a failure is handed to `onFailure` with the
/// first line the command wrote to its standard error.
///
///     let hook = ReactionHook(command: "cat >> ~/ctfo.jsonl") { problem in show(problem) }
///     hook.start(FinalReaction(card: card, reaction: .ctfo, time: now))
public final class ReactionHook: Sendable {
  public let command: String
  private let deadline: Duration
  private let onFailure: @Sendable (String) -> Void
  private let queue = DispatchQueue(label: "ctfo.reaction-hook")
  /// The reactions waiting in the state database, with the card of each, when the hook is
  /// fed from there (the app); nil when each `start` brings its reaction.
  private let durable: (queue: HookQueue, card: @Sendable (HookQueue.Entry) -> Card)?

  /// How long a hook may run.
  public static let deadline = Duration.seconds(5)

  public init(
    command: String, deadline: Duration = ReactionHook.deadline,
    onFailure: @escaping @Sendable (String) -> Void
  ) {
    self.command = command
    self.deadline = deadline
    self.onFailure = onFailure
    durable = nil
  }

  /// A hook fed from `waiting`, where each change queues the reactions it makes final: it
  /// starts at once with those an earlier run left, and `start` runs it on what waits.
  /// `card` gives each reaction's card (what history knows of it when it is gone).
  public init(
    command: String, deadline: Duration = ReactionHook.deadline, waiting: HookQueue,
    card: @escaping @Sendable (HookQueue.Entry) -> Card,
    onFailure: @escaping @Sendable (String) -> Void
  ) {
    self.command = command
    self.deadline = deadline
    self.onFailure = onFailure
    durable = (waiting, card)
    queue.async { [self] in drain() }
  }

  /// Runs the hook for `reaction` in the background; a hook fed from the state database runs
  /// on what waits there instead (where the change that made `reaction` final put it).
  public func start(_ reaction: FinalReaction) {
    queue.async { [self] in
      if durable != nil { return drain() }
      if let problem = Self.run(command, input: Array(reaction.json.utf8), deadline: deadline) {
        onFailure(problem)
      }
    }
  }

  /// Runs the hook on the reactions waiting in the state database, when it is fed from there.
  public func poke() {
    guard durable != nil else { return }
    queue.async { [self] in drain() }
  }

  /// Gives the hook each reaction waiting in the state database, oldest first, each taken off
  /// the queue once the hook has it (a quit while it runs does not run it twice).
  private func drain() {
    guard let (waiting, card) = durable else { return }
    while let entry = try? waiting.oldest() {
      let reaction = FinalReaction(card: card(entry), reaction: entry.reaction, time: entry.time)
      var taken = false
      let problem = Self.run(command, input: Array(reaction.json.utf8), deadline: deadline) {
        taken = (try? waiting.remove(entry.sequence)) != nil
      }
      // A hook that could not start is not tried again for this reaction.
      if !taken { taken = (try? waiting.remove(entry.sequence)) != nil }
      if let problem { onFailure(problem) }
      // The queue cannot be written: stop here rather than give the hook the same again.
      guard taken else { return }
    }
  }

  /// Waits until the hooks started so far have ended, or `limit` has passed.
  public func finish(within limit: Duration) {
    let done = DispatchSemaphore(value: 0)
    queue.async { done.signal() }
    _ = done.wait(timeout: .now() + .nanoseconds(Int(limit.nanoseconds)))
  }

  /// Runs `command` with `input` on its standard input and waits for it, at most `deadline`;
  /// nil when it exited with status 0, else what went wrong, in one line.
  ///
  /// `delivered` is called once the hook has its input (or has stopped taking it).
  public static func run(
    _ command: String, input: [UInt8], deadline: Duration, delivered: () -> Void = {}
  ) -> String? {
    // Socket pairs rather than pipes: they close on exec atomically (pipe2 is not in Glibc's
    // Swift module), and a send to a hook gone does not raise SIGPIPE.
    guard let stdin = channel() else { return "cannot run the reaction hook: no socket" }
    guard let stderr = channel() else {
      close(stdin.ours)
      close(stdin.theirs)
      return "cannot run the reaction hook: no socket"
    }
    let started = spawn(command, stdin: stdin.theirs, stderr: stderr.theirs)
    close(stdin.theirs)
    close(stderr.theirs)
    defer { close(stderr.ours) }
    let pid: pid_t
    switch started {
    case .success(let started): pid = started
    case .failure(let failure):
      close(stdin.ours)
      return "cannot run the reaction hook: \(Errors.text(failure.code))"
    }
    let watch = Watch(pid: pid)
    DispatchQueue.global().asyncAfter(
      deadline: .now() + .nanoseconds(Int(deadline.nanoseconds)), execute: watch.stopIfRunning)
    // Its errors are read beside the wait, so a hook that writes much is never stuck on a full
    // socket; once it has exited, the read ends even when a child it left behind (`setsid cmd
    // &`) still holds the socket: the hook is over when its process is, not at end of file.
    let errors = ErrorReader(fd: stderr.ours)
    send(input, to: stdin.ours)
    close(stdin.ours)
    delivered()
    let status = watch.wait()
    let said = errors.finish()
    if watch.stopped {
      return "the reaction hook was stopped after \(deadline.shown)"
    }
    guard status != 0 else { return nil }
    return "the reaction hook failed (status \(status))" + (said.isEmpty ? "" : ": \(said)")
  }

  /// Starts `/bin/sh -c command` in a process group of its own, with default signal handling,
  /// `stdin` and `stderr` as its standard input and error and `/dev/null` as its output.
  private static func spawn(
    _ command: String, stdin: Int32, stderr: Int32
  ) -> Result<pid_t, SpawnFailure> {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, stdin, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, stderr, 2)
    let arguments = ["sh", "-c", command]
    let argv = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid = pid_t()
    let error = SpawnAttributes.with(ownGroup: true) { attributes in
      posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, environ)
    }
    return error == 0 ? .success(pid) : .failure(SpawnFailure(code: error))
  }

  private struct SpawnFailure: Error { var code: Int32 }

  /// A connected pair of sockets, both closed on exec: one end for ctfo, one for the hook.
  private static func channel() -> (ours: Int32, theirs: Int32)? {
    var ends: [Int32] = [-1, -1]
    let kind = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
    guard socketpair(AF_UNIX, kind, 0, &ends) == 0 else { return nil }
    return (ends[0], ends[1])
  }

  private static func send(_ bytes: [UInt8], to fd: Int32) {
    var sent = 0
    while sent < bytes.count {
      let n = bytes.withUnsafeBytes {
        Glibc.send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL))
      }
      if n < 0, errno == EINTR { continue }
      guard n > 0 else { return }  // EPIPE: the hook did not read it all
      sent += n
    }
  }

  /// Reads a hook's standard error on a thread of its own until its end, or until `finish`
  /// (the hook has exited) ends it early: what is already there is still read, then the read
  /// stops without waiting for anyone else who holds the other end.
  private final class ErrorReader: Sendable {
    private let fd: Int32
    private let done = DispatchSemaphore(value: 0)
    private let kept = Mutex<[UInt8]>([])

    init(fd: Int32) {
      self.fd = fd
      DispatchQueue.global().async { [self] in
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
          let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
          if n < 0, errno == EINTR { continue }
          guard n > 0 else { break }
          kept.withLock { if $0.count < 4096 { $0 += buffer[..<n] } }
        }
        done.signal()
      }
    }

    /// The first line written, at most 200 characters, once the reading has stopped.
    func finish() -> String {
      // A socket shut for reading reads what it holds, then its end.
      shutdown(fd, Int32(SHUT_RD))
      done.wait()
      let bytes = kept.withLock { $0 }
      let line = bytes.split(separator: 0x0A, omittingEmptySubsequences: true).first ?? []
      return String(String(decoding: line, as: UTF8.self).prefix(200))
    }
  }

  /// A running hook's process: waited for without reaping it first, so the deadline's kill
  /// never reaches a process id the system gave to another process meanwhile.
  private final class Watch: Sendable {
    let pid: pid_t
    private let state = Mutex<(ended: Bool, stopped: Bool)>((false, false))

    init(pid: pid_t) { self.pid = pid }

    var stopped: Bool { state.withLock { $0.stopped } }

    /// Kills the hook's process group, unless the hook has ended.
    @Sendable func stopIfRunning() {
      state.withLock { state in
        guard !state.ended else { return }
        state.stopped = true
        kill(-pid, SIGKILL)
      }
    }

    /// Waits for the hook to end; its exit status (128 + the signal when a signal ended it).
    func wait() -> Int32 {
      var info = siginfo_t()
      while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
      state.withLock { $0.ended = true }
      var status: Int32 = 0
      while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
      return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
  }
}

/// A reaction that became final, with its card: what a reaction hook is given.
public struct FinalReaction: Sendable, Equatable {
  public var card: Card
  public var reaction: Reaction
  /// Seconds since 1970.
  public var time: Double

  public init(card: Card, reaction: Reaction, time: Double) {
    self.card = card
    self.reaction = reaction
    self.time = time
  }

  /// `{"id", "type", "title", "text", "source", "url", "reaction", "time"}` on one line (ended
  /// by a newline, so hooks may append it to a JSON Lines file), the time in ISO 8601 (UTC).
  public var json: String {
    let fields: KeyValuePairs<String, String?> = [
      "id": card.id, "type": card.type, "title": card.title, "text": card.body,
      "source": card.source, "url": card.url, "reaction": reaction.rawValue,
      "time": Timestamp.iso8601(time),
    ]
    var bytes: [UInt8] = [0x7B]
    for (i, (key, value)) in fields.enumerated() {
      if i > 0 { bytes.append(0x2C) }
      bytes += Array("\"\(key)\":".utf8)
      JSONText.append(value, to: &bytes)
    }
    bytes += [0x7D, 0x0A]
    return String(decoding: bytes, as: UTF8.self)
  }
}

extension Duration {
  fileprivate var nanoseconds: Int64 {
    components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
  }

  /// Whole seconds as seconds (`s`), else milliseconds (`ms`), for a message.
  fileprivate var shown: String {
    let ms = nanoseconds / 1_000_000
    return ms % 1000 == 0 ? "\(ms / 1000) s" : "\(ms) ms"
  }
}

/// The reaction hook's failures: the last one kept in a file beside the state database for
/// `ctfo status`, and each one unlike the one before shown once in the app.
public final class HookFailures: Sendable {
  public let path: String
  private let changed: @Sendable () -> Void
  private let state = Mutex<(unshown: String?, last: String?)>((nil, nil))

  /// `changed` is called after each failure (the app wakes to show it).
  public init(path: String, changed: @escaping @Sendable () -> Void = {}) {
    self.path = path
    self.changed = changed
  }

  /// Notes `problem`, which happened at `time` (seconds since 1970).
  public func report(_ problem: String, at time: Double) {
    let line = Array("\(Timestamp.iso8601(time)) \(problem)\n".utf8)
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    if fd >= 0 {
      _ = line.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
      close(fd)
    }
    state.withLock { state in
      if state.last != problem { state.unshown = problem }
      state.last = problem
    }
    changed()
  }

  /// The failure to show, once; nil when there is none new.
  public func take() -> String? {
    state.withLock { state in
      defer { state.unshown = nil }
      return state.unshown
    }
  }

  /// The last failure noted at `path`: its time and what went wrong, as one line.
  public static func last(at path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: 1024)
    let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
    guard n > 0 else { return nil }
    let line = buffer[..<n].split(separator: 0x0A).first ?? []
    return String(decoding: line, as: UTF8.self)
  }
}
