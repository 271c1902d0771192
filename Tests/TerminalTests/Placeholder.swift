import Testing

@Test func placeholderTerminal() { #expect(Bool(true)) }
