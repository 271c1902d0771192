import Testing

@Test func placeholderFeedCore() { #expect(Bool(true)) }
