/// What must never reach a terminal in sanitised text: C0 controls but LF and TAB, DEL, C1,
/// bidi controls and ZERO WIDTH JOINER.
func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
  switch scalar.value {
  case 0x09, 0x0A: false
  case 0x00..<0x20, 0x7F...0x9F: true
  case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
  case 0x200D: true
  default: false
  }
}

/// A control character: C0 (with NUL, LF and TAB), DEL or C1.
func isControl(_ scalar: Unicode.Scalar) -> Bool {
  scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
}

/// The text as Swift source would write it, for messages.
func shown(_ text: some StringProtocol) -> String {
  String(text).debugDescription
}
