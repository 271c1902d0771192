/// A small, fast, seedable random number generator (xoshiro256**).
///
/// Every random choice of the feed goes through an injected generator, so a seed makes a run
/// reproducible (`ctfo next --seed 3`).
public struct SeededGenerator: RandomNumberGenerator, Sendable {
  private var state: (UInt64, UInt64, UInt64, UInt64)

  public init(seed: UInt64) {
    var mix = SplitMix64(state: seed)
    state = (mix.next(), mix.next(), mix.next(), mix.next())
  }

  public mutating func next() -> UInt64 {
    let result = rotl(state.1 &* 5, 7) &* 9
    let t = state.1 << 17
    state.2 ^= state.0
    state.3 ^= state.1
    state.1 ^= state.2
    state.0 ^= state.3
    state.2 ^= t
    state.3 = rotl(state.3, 45)
    return result
  }

  private func rotl(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }
}

/// SplitMix64, used to spread a seed over xoshiro's state.
struct SplitMix64 {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
