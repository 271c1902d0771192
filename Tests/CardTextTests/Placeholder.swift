import Testing

@Test func placeholderCardText() { #expect(Bool(true)) }
