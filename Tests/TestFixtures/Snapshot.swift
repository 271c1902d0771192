import CardText
import Foundation
import Testing

/// Compares a rendered grid with a snapshot file in `directory`, or records it when
/// RECORD_SNAPSHOTS=1 (refused when CI is set: a run that records cannot fail). A missing
/// snapshot fails unless recording; a different one fails with a line diff.
///
/// The file holds the text of every row between `|` marks, then a style map with one
/// character per cell ('.' plain, a letter per style) and the legend of those letters.
public struct Snapshot: Sendable {
  public let directory: URL

  /// Snapshots in the folder `Snapshots` beside the test file `file` (pass `#filePath`).
  public init(besides file: String) {
    directory = URL(fileURLWithPath: file).deletingLastPathComponent()
      .appendingPathComponent("Snapshots")
  }

  public func assert(
    _ grid: CellGrid, named name: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let file = directory.appendingPathComponent("\(name).\(grid.width)x\(grid.height).txt")
    let text = Self.render(grid)
    let environment = ProcessInfo.processInfo.environment
    if environment["RECORD_SNAPSHOTS"] == "1" {
      guard environment["CI"] == nil else {
        Issue.record("RECORD_SNAPSHOTS is refused when CI is set", sourceLocation: sourceLocation)
        return
      }
      try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      #expect(throws: Never.self) { try text.write(to: file, atomically: false, encoding: .utf8) }
      return
    }
    guard let recorded = try? String(contentsOf: file, encoding: .utf8) else {
      Issue.record(
        "missing snapshot \(file.lastPathComponent); record with RECORD_SNAPSHOTS=1",
        sourceLocation: sourceLocation)
      return
    }
    guard text != recorded else { return }
    Issue.record(
      "snapshot \(file.lastPathComponent) differs:\n\(LineDiff.of(recorded, text))",
      sourceLocation: sourceLocation)
  }

  public static func render(_ grid: CellGrid) -> String {
    var styles: [CellStyle] = []
    var map: [String] = []
    for row in 0..<grid.height {
      var line = ""
      for column in 0..<grid.width {
        let style = grid[row, column].style
        if style == .plain {
          line.append(".")
          continue
        }
        if !styles.contains(style) { styles.append(style) }
        line.append(letter(styles.firstIndex(of: style)!))
      }
      map.append(line)
    }
    let text = grid.lines.map { "|" + $0 + "|" }
    let legend = styles.enumerated().map { "\(letter($0.offset)): \(describe($0.element))" }
    return (text + ["", "styles:"] + map + legend).joined(separator: "\n") + "\n"
  }

  private static func letter(_ index: Int) -> Character {
    Character(UnicodeScalar(UInt8(ascii: "a") + UInt8(index % 26)))
  }

  private static func describe(_ style: CellStyle) -> String {
    var parts: [String] = []
    if let colour = style.foreground { parts.append(colour.rawValue) }
    if style.bold { parts.append("bold") }
    if style.reverse { parts.append("reverse") }
    if style.dim { parts.append("dim") }
    if style.underline { parts.append("underline") }
    return parts.joined(separator: " ")
  }
}
