import Decks
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The running app's one file watcher: deck files (the user decks folder, whose *.jsonl files
/// come, change and go, and single deck files given with --deck) and the state database's
/// folder, where another process's commit (`ctfo disable TYPE` in another terminal) is seen.
///
/// One detached thread blocks on one inotify descriptor, so an idle app uses no CPU. It watches
/// folders, never the files themselves: an editor such as vim saves by writing a new file and
/// renaming it over the old one, which a watch on the old file's inode would miss. It waits for
/// a file to be closed after a write, moved in or away, or deleted; not for each write
/// (`IN_MODIFY`), which would wake the app hundreds of times for one save, or for each of the
/// app's own writes to its state (every swipe, a pull, each analytics flush).
///
/// A deck path counts when it is one of `files` (reported as given) or a deck directly in one
/// of `folders` (`DeckFolders.deckPath`: a `*.jsonl` or fortune file, reported as the folder,
/// without its trailing slashes, `/`, the name: what `Paths` lists). Anything else, such as an editor's `.facts.jsonl.swp`, `4913` or
/// `facts.jsonl~`, is no deck change. In `stateFolder`, any file closed after a write or moved
/// in is a state change: a command such as `ctfo disable` closes its connection when it exits.
/// Another running app's change, whose files stay open, is seen at the next key, where the app
/// looks at the settings too.
///
///     let watcher = FileWatcher(files: flagged, folders: [userDecks], stateFolder: state) { _ in
///       wake.wake()
///     }
///     // On the run loop, after a wake:
///     for path in watcher?.takeChanged() ?? [] { reload(path) }
///
/// Lifetime: the thread keeps its own reference to what it needs and owns the inotify
/// descriptor; the watcher keeps only one end of a stop pipe (a socket pair) whose other end
/// the thread polls too. Its `deinit` closes its end, and the thread, seeing the pipe hang up,
/// closes its descriptors and ends. So no descriptor is closed while another thread may still
/// read it, and nothing is read from a number the system has since given to another file.
/// `onChange` runs on the watching thread: it should only wake the app (a pipe, a semaphore),
/// and must not hold the watcher strongly, or the watcher never goes.
public final class FileWatcher: Sendable {
  private let context: Context
  /// The watcher's end of the stop pipe, closed by `deinit` to end the thread.
  private let stop: Int32

  /// What changed, as `onChange` is told.
  public struct Change: OptionSet, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Deck paths were recorded: `takeChanged()` has them.
    public static let decks = Change(rawValue: 1)
    /// A file of the state folder was written and closed, or moved in.
    public static let state = Change(rawValue: 2)
  }

  /// The events that change a deck.
  private static let deckMask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE)
  /// The events that change the state folder.
  private static let stateMask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO)

  /// Watches the folder of each of `files`, each of `folders` and `stateFolder` (a missing
  /// folder is skipped), calling `onChange` from the watching thread after recording changed
  /// deck paths; nil when the system refuses inotify (no inotify, too many watches): the app
  /// then follows no edits, and sees other processes' changes at the next key.
  public init?(
    files: [String], folders: [String], stateFolder: String? = nil,
    onChange: @escaping @Sendable (Change) -> Void
  ) {
    // What to watch in each folder, by folder path: each folder is added once.
    var wanted: [String: Watch] = [:]
    for file in files {
      guard let (folder, name) = Self.split(file) else { continue }
      wanted[folder, default: Watch()].files[name] = file
    }
    for folder in folders {
      let folder = Self.normalised(folder)
      guard !folder.isEmpty else { continue }
      wanted[folder, default: Watch()].decks = folder
    }
    if let stateFolder {
      let folder = Self.normalised(stateFolder)
      if !folder.isEmpty { wanted[folder, default: Watch()].state = true }
    }

    let fd = inotify_init1(Int32(IN_CLOEXEC))
    guard fd >= 0 else { return nil }
    var watches: [Int32: Watch] = [:]
    for (folder, watch) in wanted {
      // Added to what the folder's watch has: two spellings of one folder may ask for
      // different events.
      let descriptor = inotify_add_watch(fd, folder, watch.mask | UInt32(IN_MASK_ADD))
      if descriptor >= 0 {
        // Two spellings of one folder (a symbolic link) share a watch descriptor.
        watches[descriptor, default: Watch()].merge(watch)
      } else if errno == ENOSPC || errno == ENOMEM {
        close(fd)
        return nil
      }  // Otherwise missing, not a folder, or not ours to read: skipped.
    }

    // The stop pipe: a socket pair, which can close on exec atomically (pipe2 is not in
    // Glibc's Swift module); the thread polls the first end, the watcher keeps the second.
    var pipe: [Int32] = [-1, -1]
    let kind = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
    guard socketpair(AF_UNIX, kind, 0, &pipe) == 0 else {
      close(fd)
      return nil
    }
    let context = Context(
      fd: fd, stop: pipe[0], watches: watches, files: files, onChange: onChange)
    let retained = Unmanaged.passRetained(context).toOpaque()
    var thread = pthread_t()
    guard
      pthread_create(
        &thread, nil,
        { raw in
          let context = Unmanaged<Context>.fromOpaque(raw!).takeRetainedValue()
          context.run()
          return nil
        }, retained) == 0
    else {
      Unmanaged<Context>.fromOpaque(retained).release()
      close(fd)
      close(pipe[0])
      close(pipe[1])
      return nil
    }
    pthread_detach(thread)
    self.context = context
    self.stop = pipe[1]
  }

  deinit { close(stop) }

  /// The deck paths changed since the last call (written and closed, moved in or away,
  /// deleted), each once, sorted.
  public func takeChanged() -> [String] {
    context.changed.withLock { changed in
      defer { changed.removeAll() }
      return changed.sorted()
    }
  }

  /// `path` without its trailing slashes (but `/` stays).
  private static func normalised(_ path: String) -> String {
    var path = Substring(path)
    while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
    return String(path)
  }

  /// The folder (normalised) and the name of the file at `path`; nil when it names no file.
  private static func split(_ path: String) -> (folder: String, name: String)? {
    guard let slash = path.lastIndex(of: "/") else { return path.isEmpty ? nil : (".", path) }
    let name = String(path[path.index(after: slash)...])
    guard !name.isEmpty else { return nil }
    let folder = slash == path.startIndex ? "/" : normalised(String(path[..<slash]))
    return (folder, name)
  }

  /// What one watched folder reports.
  private struct Watch: Sendable {
    /// The folder whose `*.jsonl` files count, as its paths are reported; nil when only some
    /// of its files are watched.
    var decks: String?
    /// The watched files of the folder: name to the path as given.
    var files: [String: String] = [:]
    /// The folder holds the state database: its files' changes are state changes.
    var state = false

    /// The events the folder is watched for.
    var mask: UInt32 {
      (decks != nil || !files.isEmpty ? FileWatcher.deckMask : 0)
        | (state ? FileWatcher.stateMask : 0)
    }

    mutating func merge(_ other: Watch) {
      decks = decks ?? other.decks
      files.merge(other.files) { mine, _ in mine }
      state = state || other.state
    }

    /// The path a change of `name` reports, if it counts.
    func path(of name: String) -> String? {
      if let file = files[name] { return file }
      guard let decks else { return nil }
      return DeckFolders.deckPath(ofName: name, in: decks)
    }
  }

  /// What the watching thread needs, and the changes it records for `takeChanged`.
  private final class Context: Sendable {
    let fd: Int32
    /// The thread's end of the stop pipe: it hangs up when the watcher goes.
    let stop: Int32
    let watches: [Int32: Watch]
    let files: [String]
    let onChange: @Sendable (Change) -> Void
    let changed = Mutex<Set<String>>([])

    init(
      fd: Int32, stop: Int32, watches: [Int32: Watch], files: [String],
      onChange: @escaping @Sendable (Change) -> Void
    ) {
      self.fd = fd
      self.stop = stop
      self.watches = watches
      self.files = files
      self.onChange = onChange
    }

    /// Reads events until the watcher goes (or the descriptor fails), then closes the thread's
    /// descriptors: nothing else closes them, so nothing else can reuse their numbers meanwhile.
    func run() {
      defer {
        close(fd)
        close(stop)
      }
      // Room for many events; at least one with the longest name (NAME_MAX) fits.
      let capacity = 4096
      let buffer = UnsafeMutableRawPointer.allocate(
        byteCount: capacity, alignment: MemoryLayout<inotify_event>.alignment)
      defer { buffer.deallocate() }
      var polled = [
        pollfd(fd: stop, events: Int16(POLLIN), revents: 0),
        pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
      ]
      while true {
        polled[0].revents = 0
        polled[1].revents = 0
        if poll(&polled, 2, -1) < 0 {
          if errno == EINTR { continue }
          return
        }
        // The watcher went: stop before reading, even with events waiting.
        if polled[0].revents != 0 { return }
        guard polled[1].revents & Int16(POLLIN) != 0 else {
          if polled[1].revents != 0 { return }  // POLLERR, POLLNVAL: it will not get better.
          continue
        }
        let count = read(fd, buffer, capacity)
        if count < 0 {
          if errno == EINTR || errno == EAGAIN { continue }
          return
        }
        guard count > 0 else { return }
        let (paths, state) = changes(in: UnsafeRawBufferPointer(start: buffer, count: count))
        var change: Change = state ? .state : []
        if !paths.isEmpty {
          changed.withLock { $0.formUnion(paths) }
          change.insert(.decks)
        }
        if !change.isEmpty { onChange(change) }
      }
    }

    /// The deck paths the events in `bytes` change, and whether they change the state folder:
    /// records of a fixed header and `len` bytes of name (NUL-padded), one after the other.
    func changes(in bytes: UnsafeRawBufferPointer) -> (decks: Set<String>, state: Bool) {
      let header = MemoryLayout<inotify_event>.size
      var paths = Set<String>()
      var state = false
      var offset = 0
      while offset + header <= bytes.count {
        let event = bytes.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
        let end = offset + header + Int(event.len)
        guard end <= bytes.count else { break }  // The kernel only returns whole events.
        defer { offset = end }
        if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
          paths.formUnion(everything())
          state = state || watches.values.contains(where: \.state)
          continue
        }
        guard let watch = watches[event.wd] else { continue }
        if watch.state, event.mask & FileWatcher.stateMask != 0 { state = true }
        guard event.mask & FileWatcher.deckMask != 0, event.mask & UInt32(IN_ISDIR) == 0 else {
          continue
        }
        let name = String(
          decoding: bytes[(offset + header)..<end].prefix(while: { $0 != 0 }), as: UTF8.self)
        if let path = watch.path(of: name) { paths.insert(path) }
      }
      return (paths, state)
    }

    /// What may have changed when the kernel dropped events (its queue overflowed): every
    /// watched file and every deck now in a watched folder (one deleted meanwhile is missed).
    func everything() -> Set<String> {
      var paths = Set(files)
      for watch in watches.values {
        if let decks = watch.decks { paths.formUnion(DeckFolders.decks(in: decks)) }
      }
      return paths
    }
  }
}
