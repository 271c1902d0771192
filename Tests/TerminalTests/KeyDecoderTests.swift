import App
import CNcursesw
import Testing

@testable import Terminal

@Suite struct KeyDecoderTests {
  @Test(arguments: [
    (KEY_UP, Key.up), (KEY_DOWN, .down), (KEY_LEFT, .left), (KEY_RIGHT, .right),
    (KEY_PPAGE, .pageUp), (KEY_NPAGE, .pageDown), (KEY_HOME, .home), (KEY_END, .end),
    (KEY_ENTER, .enter), (KEY_BACKSPACE, .backspace), (KEY_F0 + 1, .unknown),
    (KEY_A1, .home), (KEY_C1, .end),
  ])
  func functionKeys(code: Int32, key: Key) {
    #expect(KeyDecoder.decode(UInt32(code), isKeyCode: true) == .event(.key(key)))
  }

  @Test func resizeIsAnEventNotAKey() {
    #expect(KeyDecoder.decode(UInt32(KEY_RESIZE), isKeyCode: true) == .event(.resize))
  }

  @Test(arguments: [
    (UInt32(0x0D), Key.enter), (0x0A, .enter), (0x20, .space), (0x09, .tab), (0x1B, .escape),
    (0x7F, .backspace), (0x08, .backspace), (0x01, .control("a")), (0x15, .control("u")),
    (0x71, .character("q")), (0x3F, .character("?")), (0xE9, .character("é")),
    (0x65E5, .character("日")), (0x1F600, .character("😀")),
    (0x00, .unknown), (0x1C, .unknown), (0x85, .unknown), (0xD800, .unknown),
    (0x80, .unknown), (0x9B, .unknown), (0x9F, .unknown), (0xA0, .character("\u{A0}")),
  ])
  func characters(value: UInt32, key: Key) {
    #expect(KeyDecoder.decode(value, isKeyCode: false) == .event(.key(key)))
  }

  @Test func controlCTerminatesAndControlZSuspends() {
    #expect(KeyDecoder.decode(0x03, isKeyCode: false) == .event(.terminate))
    #expect(KeyDecoder.decode(0x1A, isKeyCode: false) == .suspend)
  }

  @Test func aKeyCodeIsNotReadAsTheCharacterWithTheSameNumber() {
    #expect(KeyDecoder.decode(0x0A, isKeyCode: true) == .event(.key(.unknown)))
  }
}

/// Cursor keys that arrive as their escape sequence.
@Suite struct KeySequencesTests {
  private func keys(_ text: String) -> [InputEvent] {
    text.map { $0 == "\u{1B}" ? .key(.escape) : .key(.character($0)) }
  }

  @Test(arguments: [
    ("\u{1B}[A", Key.up), ("\u{1B}[B", .down), ("\u{1B}[C", .right), ("\u{1B}[D", .left),
    ("\u{1B}OC", .right), ("\u{1B}[H", .home), ("\u{1B}[F", .end), ("\u{1B}[5~", .pageUp),
    ("\u{1B}[6~", .pageDown), ("\u{1B}[1~", .home), ("\u{1B}[4~", .end),
  ])
  func bothFormsOfACursorKeyAreTheKey(text: String, key: Key) {
    #expect(KeySequences.folded(keys(text)) == [.key(key)])
  }

  @Test func othersStayAsTheyCameInOrder() {
    #expect(
      KeySequences.folded(keys("l\u{1B}[Cq")) == [
        .key(.character("l")), .key(.right), .key(.character("q")),
      ])
    #expect(KeySequences.folded(keys("\u{1B}[")) == keys("\u{1B}["))
    #expect(KeySequences.folded(keys("\u{1B}[Z")) == keys("\u{1B}[Z"))
    #expect(KeySequences.folded(keys("\u{1B}q")) == keys("\u{1B}q"))
    #expect(
      KeySequences.folded([.key(.escape), .wake, .key(.character("["))]) == [
        .key(.escape), .wake, .key(.character("[")),
      ])
  }
}
