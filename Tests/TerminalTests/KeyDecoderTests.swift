import App
import CNcursesw
import Testing

@testable import Terminal

@Suite struct KeyDecoderTests {
  @Test(arguments: [
    (KEY_UP, Key.up), (KEY_DOWN, .down), (KEY_LEFT, .left), (KEY_RIGHT, .right),
    (KEY_PPAGE, .pageUp), (KEY_NPAGE, .pageDown), (KEY_HOME, .home), (KEY_END, .end),
    (KEY_ENTER, .enter), (KEY_BACKSPACE, .backspace), (KEY_F0 + 1, .unknown),
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
