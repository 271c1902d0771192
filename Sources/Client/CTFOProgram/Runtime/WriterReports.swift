import App
import Store
import Synchronization
import Terminal

/// What the state writer reports from its thread (commits with the history numbers they gave,
/// failures), kept until the UI thread collects them; each report writes the wake-up pipe.
final class WriterReports: Sendable {
  private let pending = Mutex<[WriterReport]>([])
  private let wake: WakePipe

  init(wake: WakePipe) {
    self.wake = wake
  }

  @Sendable func committed(_ sequence: UInt64, _ indices: [Int]) {
    pending.withLock { $0.append(.committed(sequence, indices: indices)) }
    wake.wake()
  }

  @Sendable func failed(_: UInt64, _ error: any Error) {
    pending.withLock { $0.append(.failed(reason: "\(error)")) }
    wake.wake()
  }

  /// The reports since the last call, in order.
  func take() -> [WriterReport] {
    pending.withLock { reports in
      defer { reports.removeAll(keepingCapacity: true) }
      return reports
    }
  }
}
