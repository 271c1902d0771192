import Glibc

/// Opens a card's link in the user's browser: `$BROWSER` (a program name; the first of a
/// colon-separated list), else `xdg-open`, run with the URL as its one argument, never through
/// a shell, on the terminal (the caller gives it up meanwhile), and waited for.
enum LinkOpener {
  /// Runs the browser on `url` and waits for it; nil when it exited with status 0, else what
  /// went wrong, in one sentence.
  static func open(_ url: String) -> String? {
    let browser = program()
    do {
      let status = try run([browser, url])
      return status == 0 ? nil : "\(browser) could not open the link (status \(status))"
    } catch {
      return "Cannot start \(browser): \(error.reason)"
    }
  }

  /// `$BROWSER`'s first entry, or `xdg-open` when it is unset or empty.
  static func program() -> String {
    let first = Environment.variable("BROWSER")?.split(separator: ":").first.map(String.init)
    return first.flatMap { $0.isEmpty ? nil : $0 } ?? "xdg-open"
  }

  /// Why the browser could not be started (`strerror` of `posix_spawnp`'s error).
  struct SpawnError: Error {
    var reason: String
  }

  /// Starts `arguments[0]` (searched in `PATH`) with default signal handling and no blocked
  /// signals, and returns its exit status (128 + the signal when a signal ended it).
  private static func run(_ arguments: [String]) throws(SpawnError) -> Int32 {
    let argv = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid = pid_t()
    let error = SpawnAttributes.with(ownGroup: false) { attributes in
      posix_spawnp(&pid, arguments[0], nil, &attributes, argv, environ)
    }
    guard error == 0 else { throw SpawnError(reason: Errors.text(error)) }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
  }
}
