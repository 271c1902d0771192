import SQL
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The server's store in one SQLite file (`--data DIR`/server.sqlite), WAL mode, so the
/// operator commands (`ctfo-server score`, `notify`) write while the server reads.
///
/// Every transaction that changes something takes the next revision and stamps the rows it
/// writes with it; a removed card stays as a row marked removed, so a pull since an older
/// revision can say it is gone.
public final class SQLiteCardStore: CardStore {
  let lane: Lane
  let knownEpoch = Mutex<String?>(nil)
  let reads = PullReads()
  let knownTokens = KnownTokens()
  /// How the personaliser scores (Personalisation/); a simulation sets it.
  let personalisationSettings = Mutex(PersonalisationSettings())

  /// The store's file.
  let path: String
  /// The free bytes its disk must have for the store to be ready (`checkRoom`).
  let minimumFreeBytes: Int64

  public init(path: String, minimumFreeBytes: Int64 = 16 << 20) throws {
    self.path = path
    self.minimumFreeBytes = minimumFreeBytes
    let open: @Sendable () throws -> Connection = {
      let connection = try Connection(path: path, role: .writer)
      try connection.execute(
        "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;")
      return connection
    }
    let connection: Connection
    do {
      connection = try open()
    } catch {
      // SQLite's message says what, not where: a folder the server may not write.
      throw CardStoreError.unreachable(store: path, reason: "\(error)")
    }
    try Self.migrate(connection, path: path)
    lane = Lane(connection, open: open)
  }

  deinit { lane.close() }

  /// Throws, saying so, when the disk holding the store has less than `minimumFreeBytes` free
  /// for the server: a full disk fails every write, while reads still answer.
  func checkRoom() throws {
    let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
      .joined(separator: "/")
    var space = statvfs()
    guard statvfs(folder.isEmpty ? "." : folder, &space) == 0 else { return }
    let free = Int64(space.f_bavail) * Int64(space.f_frsize)
    guard free >= minimumFreeBytes else {
      throw CardStoreError.unreachable(
        store: path, reason: "its disk has \(free) bytes free (\(minimumFreeBytes) needed)")
    }
  }
}
