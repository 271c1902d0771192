import ArgumentParser
import CTFOServer

/// `ctfo-server simulate`: the personaliser's evaluation harness.
struct Simulate: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Measure what the server learns: simulated installs against a server on loopback.",
    discussion: """
      Starts a server with a SQLite store in a temporary folder and drives INSTALLS simulated \
      installs over HTTP, one after another, each dealt as the client deals and reacting by a \
      hidden chance sigmoid(a + b*quality + c*taste[topic]). Prints, for the last quarter of \
      the installs, the mean like chance of what was dealt beside a random card of the type \
      and the best one: lift = (server - random) / (best - random); the same for a \
      popularity-only order; and how widely every card was dealt. Seeded: a run repeats.
      """)

  @Option(help: "Simulated installs, one after another.") var installs = 200
  @Option(help: "Card types.") var types = 4
  @Option(help: "Cards per type.") var cardsPerType = 15
  @Option(help: "Hidden topics (tastes are per topic).") var topics = 4
  @Option(help: "Swipes per install.") var swipes = 24
  @Option(help: "The like chance's a.") var a = -0.5
  @Option(help: "The like chance's b (card quality).") var b = 1.5
  @Option(help: "The like chance's c (install taste).") var c = 1.0
  @Option(help: "The seed of the population and of every draw.") var seed: UInt64 = 46
  @Option(help: "Pull after every this many swipes.") var pullEvery = 1
  @Option(help: "Scores per type and install.") var perType = 8
  @Option(help: "How much the install's taste weighs beside popularity.") var tasteWeight = 0.5

  func run() async throws {
    var settings = Simulation.Settings()
    settings.installs = installs
    settings.types = types
    settings.cardsPerType = cardsPerType
    settings.topics = topics
    settings.swipes = swipes
    settings.a = a
    settings.b = b
    settings.c = c
    settings.seed = seed
    settings.pullEvery = max(1, pullEvery)
    settings.personalisation.perType = perType
    settings.personalisation.tasteWeight = tasteWeight
    settings.personalisation.seed = seed
    print(try await Simulation(settings: settings).report(), terminator: "")
  }
}
