import Testing

@Test func placeholderFeedPipeline() { #expect(Bool(true)) }
