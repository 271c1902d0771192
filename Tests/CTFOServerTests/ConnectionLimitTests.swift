import Logging
import Testing

@testable import CTFOServer

/// The cap on connections the server holds at once (`ConnectionLimit`).
struct ConnectionLimitTests {
  @Test func acceptsUpToTheMaximumThenWaitsForOneToClose() {
    var limit = ConnectionLimit(maximum: 3, logger: Logger(label: "test"))
    for _ in 0..<3 {
      #expect(limit.isAcceptingNewConnections())
      limit.connectionOpened()
    }
    #expect(!limit.isAcceptingNewConnections())
    limit.connectionClosed()
    #expect(limit.isAcceptingNewConnections())
  }

  @Test func theCapLeavesTheReserveOfTheFileLimit() {
    let limit = ConnectionLimit.forOpenFileLimit(reserve: 64, logger: Logger(label: "test"))
    #expect(limit.maximum >= 1)
    #expect(ConnectionLimit(maximum: -5, logger: Logger(label: "test")).maximum == 1)
  }
}
