import Testing

@Test func placeholderEndToEnd() { #expect(Bool(true)) }
