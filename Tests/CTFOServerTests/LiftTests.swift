import Testing

@testable import CTFOServer

/// The personaliser's lift, measured as `ctfo-server simulate` measures it (200 installs over
/// HTTP, seeded): a floor under what the late cohort gets, so a change that stops the server
/// learning fails here.
@Suite struct LiftTests {
  @Test func theLateCohortIsDealtCardsItLikesMoreThanAtRandom() async throws {
    var settings = Simulation.Settings()
    settings.installs = 200
    // A pull every third swipe, as a client's timer would: a third of the rescoring.
    settings.pullEvery = 3
    settings.personalisation.seed = settings.seed
    let outcome = try await Simulation(settings: settings).run(
      personalisation: settings.personalisation)
    #expect(outcome.best > outcome.random)
    #expect(
      outcome.lift >= 0.5,
      "lift \(outcome.lift): server \(outcome.server), random \(outcome.random), best \(outcome.best)")
    #expect(outcome.coverage.allSatisfy { $0 >= 0.01 }, "every card reaches some installs")
  }
}
