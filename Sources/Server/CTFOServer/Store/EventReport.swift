import CardText
import SQL

/// The lines of `ctfo-server events`.
enum EventReport {
  /// `NAME COUNT`: a name made safe for a terminal and one line, in double quotes (with `\"`
  /// and `\\`) when it has a space, a quote or a backslash or is empty, so the count is
  /// always the last column and a name never looks like one.
  static func line(name: String, count: Int64) -> String {
    let safe = Sanitizer.sanitizeLine(name)
    guard safe.isEmpty || safe.contains(where: { $0 == " " || $0 == "\"" || $0 == "\\" })
    else { return "\(safe) \(count)\n" }
    let quoted = safe.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
    return "\"\(quoted)\" \(count)\n"
  }
}
