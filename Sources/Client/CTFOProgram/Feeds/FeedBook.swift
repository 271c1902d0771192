import Decks
import FeedCore

#if canImport(Glibc)
  import Glibc
#endif

/// The feeds subscribed to and what is known of each, in the feeds folder beside the state
/// database: `subscriptions` (one `NAME URL` a line, what `ctfo feed add` and `import` write),
/// `NAME.state` (the validators, when to fetch next, the failures) and `NAME.jsonl`, the
/// feed's cards as a deck (`FeedDeck`), which the index and the running app read as any deck.
/// config.toml's `[feeds]` adds to the subscriptions (and wins a name given in both).
///
/// `refresh` fetches the feeds that are due, one at a time (so never two requests to a host at
/// once): the app on a background thread, `ctfo pull` and `ctfo feed fetch` on theirs.
struct FeedBook: Sendable {
  let folder: String
  var fetcher = FeedFetcher()
  /// The least seconds between two fetches of a feed, whatever it asks for.
  var floor = FeedBook.defaultFloor
  /// The seconds between fetches of a feed that names none.
  static let defaultInterval = 3600
  static let defaultFloor = 900
  /// The longest wait after failures (each doubles the interval).
  static let longestBackOff = 86_400

  init(folder: String, floor: Int? = nil) {
    self.folder = folder
    // CTFO_TEST_FEED_FLOOR: seconds, for the tests' feeds that change between fetches.
    self.floor =
      floor ?? Environment.variable("CTFO_TEST_FEED_FLOOR").flatMap { Int($0) }
      ?? Self.defaultFloor
  }

  struct Subscription: Equatable, Sendable {
    var name: String
    var url: String
  }

  /// What is kept between fetches of one feed.
  struct State: Equatable, Sendable {
    var etag: String?
    var lastModified: String?
    /// Seconds since 1970.
    var nextFetch: Int64 = 0
    var lastSuccess: Int64?
    var failures = 0
    var problem: String?
    var entries = 0
    /// The seconds the feed asked for between fetches, kept for the answers (304) that say
    /// nothing of it.
    var asked: Int?
  }

  var subscriptionsFile: String { "\(folder)/subscriptions" }
  func deckPath(_ name: String) -> String { "\(folder)/\(name).jsonl" }
  func statePath(_ name: String) -> String { "\(folder)/\(name).state" }

  /// The subscriptions: the file's, then config.toml's `configured` (name to URL).
  func subscriptions(configured: [String: String] = [:]) -> [Subscription] {
    var list: [Subscription] = []
    if let text = FileText.read(subscriptionsFile) {
      for line in text.split(separator: "\n") {
        let parts = line.split(separator: " ", maxSplits: 1)
        guard parts.count == 2 else { continue }
        list.append(Subscription(name: String(parts[0]), url: String(parts[1])))
      }
    }
    for (name, url) in configured.sorted(by: { $0.key < $1.key }) {
      list.removeAll { $0.name == name }
      list.append(Subscription(name: name, url: url))
    }
    return list
  }

  /// Adds a subscription to the file (replacing one of the same name).
  func add(_ subscription: Subscription) throws(CLIError) {
    var list = subscriptions()
    list.removeAll { $0.name == subscription.name }
    list.append(subscription)
    try save(list)
  }

  /// Removes a subscription with its deck and state; false when there was none.
  func remove(_ name: String) throws(CLIError) -> Bool {
    var list = subscriptions()
    let before = list.count
    list.removeAll { $0.name == name }
    try save(list)
    unlink(deckPath(name))
    unlink(statePath(name))
    return list.count < before
  }

  private func save(_ list: [Subscription]) throws(CLIError) {
    try FileText.ensureFolder(folder)
    try FileText.write(
      list.map { "\($0.name) \($0.url)\n" }.joined(), to: subscriptionsFile)
  }

  func state(of name: String) -> State {
    var state = State()
    guard let text = FileText.read(statePath(name)) else { return state }
    for line in text.split(separator: "\n") {
      let parts = line.split(separator: "\t", maxSplits: 1)
      guard parts.count == 2 else { continue }
      let value = String(parts[1])
      switch parts[0] {
      case "etag": state.etag = value
      case "last-modified": state.lastModified = value
      case "next-fetch": state.nextFetch = Int64(value) ?? 0
      case "last-success": state.lastSuccess = Int64(value)
      case "failures": state.failures = Int(value) ?? 0
      case "problem": state.problem = value
      case "entries": state.entries = Int(value) ?? 0
      case "asked": state.asked = Int(value)
      default: break
      }
    }
    return state
  }

  private func save(_ state: State, of name: String) {
    let clean = { (text: String) in
      String(
        text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.map(Character.init))
    }
    var lines = ["next-fetch\t\(state.nextFetch)", "failures\t\(state.failures)"]
    lines.append("entries\t\(state.entries)")
    if let etag = state.etag { lines.append("etag\t\(clean(etag))") }
    if let modified = state.lastModified { lines.append("last-modified\t\(clean(modified))") }
    if let success = state.lastSuccess { lines.append("last-success\t\(success)") }
    if let problem = state.problem { lines.append("problem\t\(clean(problem))") }
    if let asked = state.asked { lines.append("asked\t\(asked)") }
    try? FileText.write(lines.joined(separator: "\n") + "\n", to: statePath(name))
  }

  /// What a refresh did to one feed.
  struct Report: Equatable {
    var name: String
    /// New cards in the deck; nil when nothing was fetched (not due, 304, or a failure).
    var added: Int?
    var problem: String?
  }

  /// Fetches each subscription due at `now` (every one with `force`), in turn; writes their
  /// decks and states.
  func refresh(
    _ subscriptions: [Subscription], now: Int64, force: Bool = false
  ) -> [Report] {
    try? FileText.ensureFolder(folder)
    var reports: [Report] = []
    for subscription in subscriptions {
      let state = state(of: subscription.name)
      guard force || state.nextFetch <= now else { continue }
      reports.append(fetch(subscription, state: state, now: now))
    }
    return reports
  }

  /// The soonest time a subscription is due, in seconds since 1970.
  func nextDue(_ subscriptions: [Subscription]) -> Int64? {
    subscriptions.map { state(of: $0.name).nextFetch }.min()
  }

  private func fetch(_ subscription: Subscription, state: State, now: Int64) -> Report {
    var state = state
    let name = subscription.name
    func failed(_ problem: String) -> Report {
      state.failures += 1
      state.problem = problem
      let backOff = min(
        Self.defaultInterval.multipliedReportingOverflow(by: 1 << min(state.failures, 16))
          .partialValue, Self.longestBackOff)
      state.nextFetch = now + Int64(max(floor, backOff))
      save(state, of: name)
      return Report(name: name, added: nil, problem: problem)
    }
    if let problem = DeckName.problem(ofType: name) {
      return failed("the feed's name cannot be a type: \(problem)")
    }
    switch fetcher.fetch(subscription.url, etag: state.etag, lastModified: state.lastModified) {
    case .failed(let problem): return failed(problem)
    case .notModified(let cache):
      state.failures = 0
      state.problem = nil
      state.lastSuccess = now
      state.nextFetch = now + Int64(interval(asked: state.asked, cache: cache))
      save(state, of: name)
      return Report(name: name, added: nil)
    case .fetched(let body, let etag, let lastModified, let cache):
      let document: FeedDocument
      do { document = try FeedDocument.parse(body) } catch { return failed(error.description) }
      let path = deckPath(name)
      let old = access(path, F_OK) == 0 ? DeckCheck.read([path]).cards : []
      let fresh = FeedDeck.cards(of: document, type: name)
      let merged = FeedDeck.merge(old: old, new: fresh)
      let known = Set(old.map(\.id))
      let added = merged.filter { !known.contains($0.id) }.count
      if merged != old || access(path, F_OK) != 0 {
        let label = document.title.map { Self.oneLine($0) }.flatMap { $0.isEmpty ? nil : $0 }
        let bytes = FeedDeck.jsonLines(
          type: name, label: String((label ?? name).prefix(60)), cards: merged)
        do { try FileText.write(bytes, to: path) } catch { return failed(error.description) }
      }
      state = State(
        etag: etag, lastModified: lastModified,
        nextFetch: now + Int64(interval(asked: document.interval, cache: cache)),
        lastSuccess: now, failures: 0, problem: nil, entries: merged.count,
        asked: document.interval)
      save(state, of: name)
      return Report(name: name, added: added)
    }
  }

  /// The seconds until the next fetch: what the feed asks (`ttl`, `sy:updatePeriod`), else
  /// its Cache-Control, else an hour; never under `floor`.
  func interval(asked: Int?, cache: Int?) -> Int {
    max(floor, asked ?? cache ?? Self.defaultInterval)
  }

  private static func oneLine(_ text: String) -> String {
    text.split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\t" || $0 == " " })
      .joined(separator: " ")
  }
}

/// Small files read and written whole, through the C library.
enum FileText {
  static func read(_ path: String, limit: Int = 1 << 20) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while bytes.count < limit {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { break }
      bytes += chunk[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  static func write(_ text: String, to path: String) throws(CLIError) {
    try write(Array(text.utf8), to: path)
  }

  /// Writes a new file beside `path` and renames it over `path`: a reader (the app's watcher,
  /// another process's sync) sees the old file or the new one, never half of one.
  static func write(_ bytes: [UInt8], to path: String) throws(CLIError) {
    let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
    let name = path.split(separator: "/").last.map(String.init) ?? path
    let temporary = "\(folder)/.\(name).\(getpid()).tmp"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else {
      throw CLIError("cannot write \(path): \(Errors.text(errno))")
    }
    var done = 0
    while done < bytes.count {
      let count = bytes.withUnsafeBytes {
        Glibc.write(fd, $0.baseAddress! + done, bytes.count - done)
      }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else {
        let error = errno
        close(fd)
        unlink(temporary)
        throw CLIError("cannot write \(path): \(Errors.text(error))")
      }
      done += count
    }
    close(fd)
    guard rename(temporary, path) == 0 else {
      let error = errno
      unlink(temporary)
      throw CLIError("cannot write \(path): \(Errors.text(error))")
    }
  }

  static func ensureFolder(_ folder: String) throws(CLIError) {
    var path = folder.hasPrefix("/") ? "" : "."
    for part in folder.split(separator: "/") {
      path += "/" + part
      if mkdir(path, 0o700) != 0, errno != EEXIST {
        throw CLIError("cannot make the folder \(path): \(Errors.text(errno))")
      }
    }
  }
}
