import PropertyBased
import Testing

@testable import CardText

/// Random Unicode text: ASCII, anywhere in Unicode, and the scalars that make trouble.
private let troublesome: [UInt32] = [
  0x0A, 0x09, 0x0D, 0x1B, 0x7F, 0x85, 0x9B, 0x200D, 0x200C, 0xFE0F, 0xFE0E, 0x20E3, 0x0301,
  0x0302, 0x093E, 0x094D, 0x0915, 0x0937, 0x202E, 0x2066, 0x200B, 0xFEFF, 0x00AD, 0xE0067,
  0xE007F, 0x1F1EB, 0x1F1F7, 0x1F3FD, 0x1F468, 0x1F469, 0x2764, 0x1F44D, 0x1FAE8, 0x1100,
  0x1161, 0x11A8, 0xFFFE, 0x3164, 0x0020, 0x65E5, 0xD7B0, 0x302E, 0x0E33, 0x180E, 0x180B,
]
private let scalarValue = Gen.frequency(
  (3, Gen<UInt32>.value(in: 0x20...0x7E)),
  (2, Gen.element(of: troublesome).map { $0 ?? 0x20 }),
  (1, Gen<UInt32>.value(in: 0...0xFFFF)),
  (1, Gen<UInt32>.value(in: 0...0x10FFFF))
)
private let unicodeText = scalarValue.array(of: 0...40).map { values in
  String(String.UnicodeScalarView(values.map { Unicode.Scalar($0) ?? "\u{FFFD}" }))
}

@Suite struct SanitizerPropertyTests {
  @Test func theFastPathGivesWhatClusterByClusterGives() async {
    await propertyCheck(count: 4000, input: unicodeText) { text in
      #expect(Sanitizer.sanitize(text) == Sanitizer.sanitizeClusters(text))
    }
  }

  @Test func sanitisingIsIdempotent() async {
    await propertyCheck(count: 2000, input: unicodeText) { text in
      let once = Sanitizer.sanitize(text)
      #expect(Sanitizer.sanitize(once) == once)
    }
  }

  @Test func nothingToRemoveSurvives() async {
    await propertyCheck(count: 2000, input: unicodeText) { text in
      for scalar in Sanitizer.sanitize(text).unicodeScalars {
        #expect(!mustBeRemoved(scalar.value), "U+\(String(scalar.value, radix: 16))")
      }
    }
  }

  @Test func everyClusterAgreesWithTheTablesAndIsCapped() async {
    await propertyCheck(count: 2000, input: unicodeText) { text in
      for cluster in Sanitizer.sanitize(text) where cluster != "\n" && cluster != "\t" {
        let scalars = Array(cluster.unicodeScalars)
        #expect(ClusterWidth.curses(scalars) == ClusterWidth.terminal(scalars))
        #expect(DisplayWidth.of(cluster) == ClusterWidth.terminal(scalars))
        let marks = scalars.dropFirst().filter { ScalarProperties($0).isMark }.count
        #expect(marks <= Sanitizer.maximumMarksPerCluster)
      }
    }
  }

  @Test func everyLineFitsItsWidth() async {
    await propertyCheck(count: 1000, input: unicodeText, Gen.int(in: 1...30), Gen.int(in: 1...6)) {
      text, width, height in
      let clean = Sanitizer.sanitize(text)
      let wrapped = WrappedText.wrap(clean, width: width, maxLines: height)
      #expect(wrapped.lines.count <= height)
      for line in wrapped.lines {
        #expect(DisplayWidth.of(line) <= width, "\(line.unicodeScalars.map(\.value))")
      }
    }
  }

  /// What ARCHITECTURE.md says never reaches the terminal, written out independently of the tables.
  private func mustBeRemoved(_ value: UInt32) -> Bool {
    switch value {
    case 0x0A, 0x09: false
    case 0...0x1F, 0x7F...0x9F: true
    case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true  // bidi controls
    case 0x00AD, 0x200B, 0x2060...0x2064, 0xFEFF, 0x180E: true  // invisible format characters
    case 0xE0000...0xE007F: true  // tag characters
    case 0xD800...0xDFFF, 0xFDD0...0xFDEF: true
    default: value & 0xFFFE == 0xFFFE
    }
  }
}
