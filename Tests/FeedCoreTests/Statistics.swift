/// Statistical bounds for the dealing properties. Runs use fixed seeds, so a result never
/// changes from run to run; the bounds are set so that a correct engine fails them with
/// probability about 1e-4 per check, whatever the seed.
enum Statistics {
  /// The value a chi-square statistic with `df` degrees of freedom exceeds with probability
  /// 1e-4 (Wilson–Hilferty; slightly above the exact value for small `df`).
  static func chiSquareBound(df: Int) -> Double {
    let k = Double(df)
    let c = 1 - 2 / (9 * k) + 3.719 * (2 / (9 * k)).squareRoot()
    return k * c * c * c
  }

  /// Pearson's chi-square of the card-by-position table of `rounds` (each a permutation of
  /// `0..<cards`) against the uniform table, with cards and positions grouped into at most 8
  /// equal ranges. Rows and columns of such a table have fixed sums: (bins − 1)² degrees of
  /// freedom.
  static func positionChiSquare(rounds: [[Int]], cards: Int) -> (statistic: Double, df: Int) {
    let bins = min(cards, 8)
    let bin = { (i: Int) in i * bins / cards }
    var observed = [[Int]](repeating: [Int](repeating: 0, count: bins), count: bins)
    for round in rounds {
      for (position, card) in round.enumerated() { observed[bin(card)][bin(position)] += 1 }
    }
    let widths = (0..<cards).reduce(into: [Int](repeating: 0, count: bins)) { $0[bin($1)] += 1 }
    var statistic = 0.0
    for row in 0..<bins {
      for column in 0..<bins {
        let expected = Double(rounds.count * widths[row] * widths[column]) / Double(cards)
        let difference = Double(observed[row][column]) - expected
        statistic += difference * difference / expected
      }
    }
    return (statistic, (bins - 1) * (bins - 1))
  }

  /// The number a binomial count of `trials` with probability `p` exceeds with probability
  /// below 1e-4 (mean plus 4 standard deviations, normal approximation).
  static func binomialBound(trials: Int, p: Double) -> Double {
    let n = Double(trials)
    return n * p + 4 * (n * p * (1 - p)).squareRoot()
  }
}
