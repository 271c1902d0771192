import CommandSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The small `ctfo`: a plain `ctfo next` runs here, in a binary without Foundation that starts
// in about a millisecond; every other command, and a `next` that needs a deck sync, a
// migration or a fresh look at the config file, goes to `ctfo-full` (see DECISIONS.md).
let arguments = Array(CommandLine.arguments.dropFirst())
if let request = NextRequest(quick: arguments), request.runQuickly() {
  exit(0)
}
FullBinary.exec(arguments)
