import Glibc
import Testing

@testable import Terminal

@Suite struct WakePipeTests {
  @Test func wakeMakesTheReadEndReadable() {
    let pipe = WakePipe()
    var probe = pollfd(fd: pipe.fd, events: Int16(POLLIN), revents: 0)
    #expect(poll(&probe, 1, 0) == 0)
    pipe.wake()
    #expect(poll(&probe, 1, 0) == 1)
  }

  @Test func wakeNeverBlocksOnAFullPipe() {
    let pipe = WakePipe()
    for _ in 0..<100_000 { pipe.wake() }
    var byte: UInt8 = 0
    #expect(read(pipe.fd, &byte, 1) == 1)
  }
}
