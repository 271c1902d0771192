#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `ctfo-full`: the binary with everything (ArgumentParser, GRDB, TOML, the interactive app)
/// that the small `ctfo` hands every command to but the quick `next`.
public enum FullBinary {
  public static let name = "ctfo-full"

  /// Where it is, for the program at `executable`: beside it (the build folder), else in
  /// `../libexec/ctfo/` (installed).
  public static func path(near executable: String) -> String? {
    let folder = Paths.parent(of: executable)
    for candidate in ["\(folder)/\(name)", "\(Paths.parent(of: folder))/libexec/ctfo/\(name)"] {
      if access(candidate, X_OK) == 0 { return candidate }
    }
    return nil
  }

  /// Replaces this process with `ctfo-full`, given the same arguments; exits with a message
  /// (and status 127, as a shell does) when it cannot.
  public static func exec(_ arguments: [String]) -> Never {
    let executable = Environment.executablePath() ?? CommandLine.arguments[0]
    guard let path = path(near: executable) else {
      fail(
        "ctfo: cannot find \(name) beside \(executable) or in ../libexec/ctfo; "
          + "build it (make build) or install ctfo again (make install)")
    }
    let argv = ([CommandLine.arguments[0]] + arguments).map { strdup($0) } + [nil]
    execv(path, argv)
    fail("ctfo: cannot run \(path): \(String(cString: strerror(errno)))")
  }

  private static func fail(_ message: String) -> Never {
    let line = message + "\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    exit(127)
  }
}
