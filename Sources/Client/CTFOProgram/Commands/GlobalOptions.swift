import ArgumentParser

/// Options every command accepts, before or after the subcommand's name.
struct GlobalOptions: ParsableArguments {
  @Option(
    name: .long,
    help: ArgumentHelp(
      "Keep config, state and user decks under DIR (default: $CTFO_HOME, else the XDG folders).",
      valueName: "DIR"))
  var home: String?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Add a deck (JSON Lines); repeat for more. '-' (the app only) reads cards from standard input as they arrive.",
      valueName: "FILE"))
  var deck: [String] = []

  @Option(name: .long, help: "Seed every random choice: the same seed deals the same feed.")
  var seed: UInt64?

  @Option(name: .long, help: "Cards kept in preparation or ready (default 5).")
  var lookahead: Int?

  @Option(name: .customLong("undo-limit"), help: "Swipes that can be undone (default 5).")
  var undoLimit: Int?

  @Option(
    name: .customLong("on-replace"),
    help: ArgumentHelp(
      "What re-enabling a type does to the undo window: clear-tombstones, preserve-valid-tombstones, block-if-tombstones or ask-user.",
      valueName: "STRATEGY"))
  var onReplace: String?

  @Option(
    name: .customLong("on-launch"),
    help: ArgumentHelp(
      "What launch does with the last run's undo window: restore, clear-gracefully or ignore.",
      valueName: "MODE"))
  var onLaunch: String?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "The CTFO server to pull cards from (https://..., or http:// on this machine).",
      valueName: "URL"))
  var server: String?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "The server's order: hot (by score) or recent (newest first); default hot, or feed in config.toml.",
      valueName: "FEED"))
  var feed: String?

  @Flag(
    name: .customLong("no-analytics"),
    help: "Record no analytics at all (as do analytics = false and DO_NOT_TRACK=1).")
  var noAnalytics = false

  @Flag(
    name: .customLong("no-motion"),
    help: "Draw a swipe as one frame, no slide-out (as do motion = \"none\" and CTFO_REDUCE_MOTION=1).")
  var noMotion = false

  @Flag(
    name: .long,
    help: "Draw borders, marks and arrows in ASCII only (as do ascii = true and CTFO_ASCII=1).")
  var ascii = false

  @Flag(
    name: .long,
    help: "Plain lines, no full screen: each card printed once, a line per action (as does linear = true).")
  var linear = false
}

extension GlobalOptions {
  var values: OptionValues {
    OptionValues(
      home: home, deck: deck, seed: seed, lookahead: lookahead, undoLimit: undoLimit,
      onReplace: onReplace, onLaunch: onLaunch, server: server, feed: feed,
      noAnalytics: noAnalytics, noMotion: noMotion,
      ascii: ascii, linear: linear)
  }
}
