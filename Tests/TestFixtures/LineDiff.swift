/// A line diff for test failures: `-` lines only in the expected text, `+` lines only in the
/// actual one, with the line numbers of both (longest common subsequence of lines).
public enum LineDiff {
  public static func of(_ expected: String, _ actual: String) -> String {
    let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
    var common = [[Int]](repeating: [Int](repeating: 0, count: new.count + 1), count: old.count + 1)
    for i in stride(from: old.count - 1, through: 0, by: -1) {
      for j in stride(from: new.count - 1, through: 0, by: -1) {
        common[i][j] =
          old[i] == new[j] ? common[i + 1][j + 1] + 1 : max(common[i + 1][j], common[i][j + 1])
      }
    }
    var lines: [String] = []
    var (i, j) = (0, 0)
    while i < old.count || j < new.count {
      if i < old.count, j < new.count, old[i] == new[j] {
        (i, j) = (i + 1, j + 1)
      } else if j < new.count, i == old.count || common[i][j + 1] >= common[i + 1][j] {
        lines.append("+\(j + 1): \(new[j])")
        j += 1
      } else {
        lines.append("-\(i + 1): \(old[i])")
        i += 1
      }
    }
    return lines.joined(separator: "\n")
  }
}
