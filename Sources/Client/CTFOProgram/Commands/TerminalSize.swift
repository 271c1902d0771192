#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The size of the terminal standard output is, if it is one, within the bounds of
/// `--width` and `--height` (`SizeOptions`).
enum TerminalSize {
  static func ofStandardOutput() -> (width: Int, height: Int)? {
    guard isatty(1) == 1 else { return nil }
    var size = winsize()
    guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else {
      return nil
    }
    return (
      min(Int(size.ws_col), SizeOptions.maxColumns), min(Int(size.ws_row), SizeOptions.maxLines)
    )
  }
}
