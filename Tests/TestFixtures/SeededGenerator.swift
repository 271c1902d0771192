/// The one seeded generator of the tests: FeedCore's (xoshiro256**, seeded through SplitMix64),
/// so a test that prints its seed replays with it. Suites that import TestFixtures alone (the
/// end-to-end ones) get it from here.
@_exported import struct FeedCore.SeededGenerator
