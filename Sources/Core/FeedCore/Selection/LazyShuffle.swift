/// A random permutation of the ordinals `0..<count`, drawn one element at a time.
///
/// It is a Fisher–Yates shuffle whose array is virtual: only the positions that were swapped
/// are stored, so a pool of a million cards costs nothing until cards are drawn, and each draw,
/// removal or return is O(1). Positions `0..<remaining` hold the undrawn ordinals.
struct LazyShuffle: Sendable {
  private(set) var remaining: Int
  /// position -> ordinal, where it differs from the identity.
  private var ordinalAt: [Int32: Int32] = [:]
  /// ordinal -> position, where it differs from the identity.
  private var positionOf: [Int32: Int32] = [:]

  init(count: Int) { remaining = count }

  /// True when `ordinal` has not been drawn (or was returned).
  func contains(_ ordinal: Int32) -> Bool { Int(position(of: ordinal)) < remaining }

  /// Draws a uniformly random undrawn ordinal.
  mutating func draw(using rng: inout some RandomNumberGenerator) -> Int32? {
    guard remaining > 0 else { return nil }
    let pick = Int32(Int.random(in: 0..<remaining, using: &rng))
    let ordinal = self.ordinal(at: pick)
    swap(pick, Int32(remaining - 1))
    remaining -= 1
    return ordinal
  }

  /// Takes a specific undrawn ordinal out. Returns false if it was already drawn.
  @discardableResult
  mutating func remove(_ ordinal: Int32) -> Bool {
    let p = position(of: ordinal)
    guard Int(p) < remaining else { return false }
    swap(p, Int32(remaining - 1))
    remaining -= 1
    return true
  }

  /// Adds the ordinals `count..<newCount` (never touched: each sits at its own position) as
  /// undrawn: a live source's new cards.
  mutating func grow(from count: Int, to newCount: Int) {
    for ordinal in count..<max(count, newCount) {
      swap(Int32(ordinal), Int32(remaining))
      remaining += 1
    }
  }

  /// Puts a drawn ordinal back among the undrawn. Returns false if it was not drawn.
  @discardableResult
  mutating func putBack(_ ordinal: Int32) -> Bool {
    let p = position(of: ordinal)
    guard Int(p) >= remaining else { return false }
    swap(p, Int32(remaining))
    remaining += 1
    return true
  }

  private func ordinal(at position: Int32) -> Int32 { ordinalAt[position] ?? position }
  private func position(of ordinal: Int32) -> Int32 { positionOf[ordinal] ?? ordinal }

  private mutating func swap(_ a: Int32, _ b: Int32) {
    guard a != b else { return }
    let oa = ordinal(at: a)
    let ob = ordinal(at: b)
    set(ob, at: a)
    set(oa, at: b)
  }

  private mutating func set(_ ordinal: Int32, at position: Int32) {
    ordinalAt[position] = ordinal == position ? nil : ordinal
    positionOf[ordinal] = ordinal == position ? nil : position
  }
}
