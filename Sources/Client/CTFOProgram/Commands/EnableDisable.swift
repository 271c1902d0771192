import ArgumentParser
import FeedCore
import Store

/// `ctfo enable TYPE...`: the same setting as the settings screen's checkboxes.
struct Enable: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "enable", abstract: "Enable card types.",
    discussion: """
      Turning a type back on follows the on-replace setting, as the settings screen does: the \
      swipes that can still be undone are made final, kept, or the change is refused; with \
      ask-user, --yes answers the question.
      """)
  @OptionGroup var global: GlobalOptions
  @Flag(name: .long, help: "Answer yes when on-replace = ask-user would ask.") var yes = false
  @Flag(name: .long, help: "Enable every type.") var all = false
  @Argument(help: "The types to enable (see 'ctfo types').") var types: [String] = []

  func validate() throws {
    if all != types.isEmpty {
      throw ValidationError(all ? "give either --all or types, not both" : "give types, or --all")
    }
  }

  func run() throws {
    try TypeSetting.set(all ? nil : types, enabled: true, confirmed: yes, global)
  }
}

/// `ctfo disable TYPE...`.
struct Disable: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "disable", abstract: "Disable card types.")
  @OptionGroup var global: GlobalOptions
  @Argument(help: "The types to disable (see 'ctfo types').") var types: [String]

  func run() throws { try TypeSetting.set(types, enabled: false, confirmed: false, global) }
}

/// The settings screen's rules (`TypeSettings`) applied from the command line: every type is
/// decided first, and the changes are written together with their undo effects in one
/// transaction, or, when one is refused, not at all.
enum TypeSetting {
  /// Turns `types` (every type when nil) on or off.
  static func set(
    _ types: [String]?, enabled: Bool, confirmed: Bool, _ global: GlobalOptions
  ) throws {
    let launch = try Launch(global.values)
    let (counts, enabledNow) = try launch.types()
    let catalog = counts.map(\.type)
    let names = try types?.map { try resolve($0, among: catalog) } ?? catalog.map(\.name)
    var current = enabledNow
    var window = UndoWindow(
      configuration: launch.configuration.undo, tombstones: try launch.state.tombstones())
    var effects: [UndoEffect] = []
    for type in names {
      let decision = TypeSettings.change(
        type, to: enabled, enabled: current, window: &window, confirmed: confirmed)
      switch decision {
      case .apply(let after, let more):
        effects += more
        current = after
      case .refused(let reason): throw CLIError(reason)
      case .needsConfirmation(let question):
        throw CLIError("\(question) Run again with --yes to go ahead.")
      }
    }
    let changed = names.filter { enabledNow.contains($0) != enabled }
    let settings = Dictionary(changed.map { ($0, enabled) }) { a, _ in a }
    _ = try launch.state.apply(
      StateChange(effects: effects, enabled: settings, time: NextRequest.now()))
  }

  /// The type a command-line name means, or an error listing the types.
  private static func resolve(_ given: String, among catalog: [CardType]) throws(CLIError)
    -> String
  {
    switch TypeNames.resolve(given, among: catalog) {
    case .found(let name): return name
    case .unknown(let suggestion):
      let hint = suggestion.map { "; did you mean '\($0)'?" } ?? "."
      let known = Set(catalog.map(\.name)).sorted().joined(separator: ", ")
      throw CLIError("unknown type '\(given)'\(hint) The types are \(known).")
    }
  }
}
