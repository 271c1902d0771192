import CNcursesw
import Glibc

/// The C library's locale, which must be UTF-8 before curses starts.
enum TerminalLocale {
  /// Adopts the environment's locale (`setlocale(LC_ALL, "")`); when its codeset is not UTF-8,
  /// falls back to C.UTF-8, and throws when that is missing too.
  static func adoptUTF8() throws(TerminalError) {
    let name = setlocale(LC_ALL, "").map { String(cString: $0) } ?? "C"
    if isUTF8 { return }
    if setlocale(LC_ALL, "C.UTF-8") != nil, isUTF8 { return }
    throw .notUTF8(name)
  }

  static var isUTF8: Bool {
    let codeset = String(cString: nl_langinfo(nl_item(CODESET))).uppercased()
    return codeset == "UTF-8" || codeset == "UTF8"
  }
}
