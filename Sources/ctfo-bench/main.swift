import Foundation

/// `ctfo-bench SUITE ...`: the benchmarks `make bench` runs.
let arguments = Array(CommandLine.arguments.dropFirst())
do {
  switch arguments.first {
  case "layout": try LayoutBench.run(Array(arguments.dropFirst()))
  default: throw BenchError.usage(LayoutBench.usage)
  }
} catch {
  FileHandle.standardError.write(Data("\(error)\n".utf8))
  exit(2)
}
