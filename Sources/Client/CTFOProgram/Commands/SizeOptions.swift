import ArgumentParser

/// The bounds of every `--width` and `--height`: a screen larger than any terminal's is a
/// mistake, and one a grid of cells could not even be allocated for (a width near `Int.max`
/// overflowed the layout). Out of bounds is a usage error that names the option and its
/// bounds.
enum SizeOptions {
  /// The most columns a `--width` may ask for.
  static let maxColumns = 1000
  /// The most lines a `--height` may ask for.
  static let maxLines = 1000

  /// Checks `width` and `height` when given: from `minWidth` and `minHeight` to the maximums.
  static func check(
    width: Int?, height: Int? = nil, minWidth: Int = 1, minHeight: Int = 1
  ) throws(ValidationError) {
    if let width { try check("--width", width, minWidth...maxColumns) }
    if let height { try check("--height", height, minHeight...maxLines) }
  }

  private static func check(
    _ option: String, _ value: Int, _ bounds: ClosedRange<Int>
  ) throws(ValidationError) {
    guard bounds.contains(value) else {
      throw ValidationError(
        "\(option) must be from \(bounds.lowerBound) to \(bounds.upperBound) (got \(value))")
    }
  }
}
