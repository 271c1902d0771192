import CardText
import Foundation

/// Writing to stdout and stderr: buffered, and sanitised wherever text came from outside.
enum Output {
  /// One line on stderr, sanitised.
  static func warn(_ line: String) {
    FileHandle.standardError.write(Data((Sanitizer.sanitizeLine(line) + "\n").utf8))
  }
}
