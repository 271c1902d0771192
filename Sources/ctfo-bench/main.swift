import FeedCore
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case let command? where DeckBench.commands.contains(command): try DeckBench.run(arguments)
default: print("bench")
}
