import Testing

@Test func placeholderCardStore() { #expect(Bool(true)) }
