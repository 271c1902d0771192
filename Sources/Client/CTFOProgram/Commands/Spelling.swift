/// Suggestions for a mistyped word (a type, a command): the nearest by edit distance.
public enum Spelling {
  /// The candidate a typo most likely meant: the nearest by edit distance, if it is near
  /// (at most a third of the word's letters apart, at least one); nil otherwise.
  public static func nearest(_ word: String, among candidates: [String]) -> String? {
    let wanted = word.lowercased()
    return candidates.map { (name: $0, distance: distance(wanted, $0.lowercased())) }
      .filter { $0.distance <= max(1, wanted.count / 3) }
      .min { $0.distance < $1.distance }?.name
  }

  /// The edit distance between two strings: insertions, deletions, substitutions and swaps of
  /// two neighbours (`nxet` is one from `next`).
  static func distance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
    var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { table[i][0] = i }
    for j in 0...b.count { table[0][j] = j }
    for i in 1...a.count {
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
        }
      }
    }
    return table[a.count][b.count]
  }
}
