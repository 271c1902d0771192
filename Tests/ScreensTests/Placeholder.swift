import Testing

@Test func placeholderScreens() { #expect(Bool(true)) }
