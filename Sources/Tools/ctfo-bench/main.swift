import Foundation

/// `ctfo-bench SUITE ...`: the benchmarks `make bench` runs.
let arguments = Array(CommandLine.arguments.dropFirst())
do {
  switch arguments.first {
  case "layout": try LayoutBench.run(Array(arguments.dropFirst()))
  case "analytics": try AnalyticsBench.run(arguments)
  case "feed-apply": try FeedApplyBench.run(arguments)
  case let command? where DeckBench.commands.contains(command): try DeckBench.run(arguments)
  default:
    throw BenchError.usage(
      LayoutBench.usage + "\nctfo-bench analytics SERVER-URL DATABASE N [queue-only]\n"
        + DeckBench.commands.map { "ctfo-bench \($0) ..." }.joined(separator: "\n"))
  }
} catch {
  FileHandle.standardError.write(Data("\(error)\n".utf8))
  exit(2)
}
