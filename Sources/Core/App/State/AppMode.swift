/// Which screen has the keys. The feed stays underneath every other screen, unchanged, so that
/// leaving one returns to the feed exactly where it was.
public indirect enum AppMode: Sendable, Hashable {
  case feed
  case history(HistoryBrowser)
  case fullCard(FullCardView)
  case settings(SettingsPanel)
  /// The reader's stats, from the feed (`i`).
  case stats(StatsView)
  /// The key list scrolled to its line `scroll`, and the screen to return to.
  case help(origin: AppMode, scroll: Int = 0)
  case confirm(Confirmation)
}
