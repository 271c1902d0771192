import App
import CardText

/// The styles of the screens. Without colour (NO_COLOR, or a terminal without colours) bold and
/// reverse carry the meaning that colour would.
struct Palette: Sendable {
  var colour: Bool

  /// A type's label: its colour, or reverse video without colour.
  func label(_ colourName: String?) -> CellStyle {
    guard colour else { return CellStyle(bold: true, reverse: true) }
    return CellStyle(foreground: colourName.flatMap(TerminalColour.init(rawValue:)), bold: true)
  }

  var title: CellStyle { CellStyle(bold: true) }
  var selected: CellStyle { CellStyle(reverse: true) }
  var quiet: CellStyle { colour ? CellStyle(dim: true) : .plain }
  var key: CellStyle { CellStyle(bold: true) }
  var message: CellStyle {
    colour ? CellStyle(foreground: .yellow, bold: true) : CellStyle(bold: true, reverse: true)
  }
  var warning: CellStyle {
    colour ? CellStyle(foreground: .red, bold: true) : CellStyle(bold: true, underline: true)
  }
}
