/// The two widths of one grapheme cluster that must agree before it is drawn.
///
/// A grapheme-aware terminal draws a cluster as a unit (Python's `wcwidth.width` is the
/// reference); ncurses counts the C library's `wcwidth` of each scalar. `Sanitizer` keeps a
/// cluster only where the two are equal.
enum ClusterWidth {
  /// The cells a grapheme-aware terminal draws: `wcwidth.width` of Python's wcwidth 0.7, step
  /// by step (ZWJ, VS16, regional indicators, skin tones, virama conjuncts, spacing marks).
  static func terminal(_ scalars: some RandomAccessCollection<Unicode.Scalar>) -> Int {
    var total = 0
    // Python's `last_measured_idx` (as the scalar there) and `last_measured_ucs`.
    var measured: Unicode.Scalar?
    var lastValue: UInt32?
    var lastWasVirama = false
    var conjunctPending = false
    var index = scalars.startIndex
    while index != scalars.endIndex {
      let scalar = scalars[index]
      let value = scalar.value
      let next = scalars.index(after: index)
      if value == 0x200D {
        if lastWasVirama || next == scalars.endIndex {
          index = next
        } else {
          index = scalars.index(after: next)
        }
        continue
      }
      if value == 0xFE0F, let base = measured {
        total += ScalarProperties(base).widensWithVS16 ? 1 : 0
        measured = nil
        index = next
        continue
      }
      if isRegionalIndicator(value) {
        if regionalIndicatorsBefore(index, in: scalars) % 2 == 1 {
          lastValue = value
          index = next
          continue
        }
      } else if (0x1F3FB...0x1F3FF).contains(value), let base = lastValue,
        ScalarProperties(base).isPictographic || isRegionalIndicator(base)
      {
        index = next
        continue
      }
      let properties = ScalarProperties(scalar)
      if lastWasVirama && properties.isConsonant {
        (measured, lastValue) = (scalar, value)
        (lastWasVirama, conjunctPending) = (false, true)
      } else if properties.terminalWidth > 0 {
        total += properties.terminalWidth + (conjunctPending ? 1 : 0)
        (measured, lastValue) = (scalar, value)
        (lastWasVirama, conjunctPending) = (false, false)
      } else if measured != nil && properties.isSpacingMark {
        total += 1
        measured = nil
        (lastWasVirama, conjunctPending) = (false, false)
      } else {
        lastWasVirama = isVirama(value)
      }
      index = next
    }
    return total + (conjunctPending ? 1 : 0)
  }

  /// The cells ncurses counts: the C library's `wcwidth` summed per scalar, nil if it lacks one.
  static func curses(_ scalars: some Sequence<Unicode.Scalar>) -> Int? {
    var total = 0
    for scalar in scalars {
      guard let width = ScalarProperties(scalar).cursesWidth else { return nil }
      total += width
    }
    return total
  }

  /// True when the terminal and ncurses agree on the cluster's width.
  static func agree(_ scalars: some RandomAccessCollection<Unicode.Scalar>) -> Bool {
    curses(scalars) == terminal(scalars)
  }

  static func isRegionalIndicator(_ value: UInt32) -> Bool { (0x1F1E6...0x1F1FF).contains(value) }

  private static func regionalIndicatorsBefore<C: RandomAccessCollection<Unicode.Scalar>>(
    _ index: C.Index, in scalars: C
  ) -> Int {
    var count = 0
    var position = index
    while position != scalars.startIndex {
      position = scalars.index(before: position)
      guard isRegionalIndicator(scalars[position].value) else { break }
      count += 1
    }
    return count
  }

  /// The viramas after which Python's wcwidth joins a consonant into a conjunct.
  private static func isVirama(_ value: UInt32) -> Bool {
    switch value {
    case 0x094D, 0x09CD, 0x0A4D, 0x0ACD, 0x0B4D, 0x0BCD, 0x0C4D, 0x0CCD, 0x0D4D, 0x0DCA, 0x1B44,
      0xA806, 0xA8C4, 0xA9C0, 0x11046, 0x110B9, 0x111C0, 0x11235, 0x1134D, 0x11442, 0x114C2,
      0x115BF, 0x1163F, 0x116B6, 0x11839, 0x119E0, 0x11C3F:
      return true
    default:
      return false
    }
  }
}
