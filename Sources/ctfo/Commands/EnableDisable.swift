import ArgumentParser
import CommandSupport
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
  @Argument(help: "The types to enable (see 'ctfo types').") var types: [String]

  func run() throws { try TypeSetting.set(types, enabled: true, confirmed: yes, global) }
}

/// `ctfo disable TYPE...`.
struct Disable: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "disable", abstract: "Disable card types.")
  @OptionGroup var global: GlobalOptions
  @Argument(help: "The types to disable (see 'ctfo types').") var types: [String]

  func run() throws { try TypeSetting.set(types, enabled: false, confirmed: false, global) }
}

/// The settings screen's rules (`TypeSettings`) applied from the command line, each type's
/// change written in one transaction with its undo effects.
enum TypeSetting {
  static func set(
    _ types: [String], enabled: Bool, confirmed: Bool, _ global: GlobalOptions
  ) throws {
    let launch = try Launch(global.values)
    let (counts, enabledNow) = try launch.types()
    let catalog = counts.map(\.type)
    let known = Set(catalog.map(\.name))
    let types = try types.map { given throws(CLIError) in
      switch TypeNames.resolve(given, among: catalog) {
      case .found(let name): return name
      case .unknown(let suggestion):
        let hint = suggestion.map { "; did you mean '\($0)'?" } ?? ""
        throw CLIError(
          "unknown type '\(given)'\(hint) The types are " + known.sorted().joined(separator: ", "))
      }
    }
    var current = enabledNow
    var window = UndoWindow(
      configuration: launch.configuration.undo, tombstones: try launch.state.tombstones())
    for type in types {
      let decision = TypeSettings.change(
        type, to: enabled, enabled: current, window: &window, confirmed: confirmed)
      switch decision {
      case .apply(let after, let effects):
        _ = try launch.state.apply(
          StateChange(effects: effects, enabled: [type: enabled], time: NextRequest.now()))
        current = after
      case .refused(let reason): throw CLIError(reason)
      case .needsConfirmation(let question):
        throw CLIError("\(question) Run again with --yes to go ahead.")
      }
    }
  }
}
