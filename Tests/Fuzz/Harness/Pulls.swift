import CTFOClient
import CTFOWire
import HTTP

/// A pull's answer decoded in pieces (`JSONPieces`, the splitter that lets a large pull yield
/// to the keys) and whole: both fail, or both give the same pull. The splitter reads untrusted
/// text by hand, so it must never trap, and never read a text otherwise than the decoder does.
enum PullHarness {
  static func run(_ bytes: UnsafeRawBufferPointer) {
    let answer = HTTPResponse(status: 200, body: Array(bytes))
    let whole = try? APIClient.decodePull(answer, piecewise: .max)
    let pieces = try? APIClient.decodePull(answer, piecewise: 0)
    precondition(
      whole == pieces,
      "whole: \(String(describing: whole))\npieces: \(String(describing: pieces))")
  }
}
