#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The personaliser's random numbers: SplitMix64, seeded, so that a simulation and a test
/// repeat exactly; Thompson sampling draws from Beta posteriors with it.
public struct SeededRandom: RandomNumberGenerator, Sendable {
  private var state: UInt64

  public init(seed: UInt64) { state = seed }

  /// A generator for one purpose of one seed (`words`: e.g. an install and a generation).
  public init(seed: UInt64, _ words: String...) {
    var h = seed ^ 0x9E37_79B9_7F4A_7C15
    for word in words { h = Self.mix(h ^ Self.hash(word)) }
    state = h
  }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    return Self.mix(state)
  }

  static func mix(_ value: UInt64) -> UInt64 {
    var z = value
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// FNV-1a of the text's bytes: the same in every process (Swift's `hashValue` is not).
  static func hash(_ text: String) -> UInt64 {
    var h: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in text.utf8 { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
    return h
  }

  /// Uniform in (0, 1).
  public mutating func unit() -> Double {
    (Double(next() >> 11) + 0.5) / 9_007_199_254_740_992
  }

  /// Standard normal (Box–Muller).
  public mutating func normal() -> Double {
    sqrt(-2 * log(unit())) * cos(2 * Double.pi * unit())
  }

  /// Gamma(shape, 1), Marsaglia and Tsang (2000); a shape below 1 by Gamma(shape + 1) · U^(1/shape).
  public mutating func gamma(_ shape: Double) -> Double {
    if shape < 1 { return gamma(shape + 1) * pow(unit(), 1 / shape) }
    let d = shape - 1.0 / 3
    let c = 1 / sqrt(9 * d)
    while true {
      var x: Double
      var v: Double
      repeat {
        x = normal()
        v = 1 + c * x
      } while v <= 0
      v = v * v * v
      let u = unit()
      if u < 1 - 0.0331 * x * x * x * x || log(u) < 0.5 * x * x + d * (1 - v + log(v)) {
        return d * v
      }
    }
  }

  /// A draw from Beta(alpha, beta).
  public mutating func beta(_ alpha: Double, _ beta: Double) -> Double {
    let x = gamma(alpha)
    let y = gamma(beta)
    return x + y > 0 ? x / (x + y) : 0.5
  }
}
