import ArgumentParser
import CardStore
import CommandSupport

/// `ctfo enable TYPE...`: the same setting as the settings screen's checkboxes.
struct Enable: AsyncParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Enable card types.")
  @OptionGroup var global: GlobalOptions
  @Argument(help: "The types to enable (see 'ctfo types').") var types: [String]

  func run() async throws { try TypeSetting.set(types, enabled: true, global) }
}

/// `ctfo disable TYPE...`.
struct Disable: AsyncParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Disable card types.")
  @OptionGroup var global: GlobalOptions
  @Argument(help: "The types to disable (see 'ctfo types').") var types: [String]

  func run() async throws { try TypeSetting.set(types, enabled: false, global) }
}

enum TypeSetting {
  static func set(_ types: [String], enabled: Bool, _ global: GlobalOptions) throws {
    let launch = try Launch(global.values)
    let known = Set(try launch.index.catalog().map(\.type.name))
    let unknown = types.filter { !known.contains($0) }
    guard unknown.isEmpty else {
      throw CLIError(
        "unknown type \(unknown.map { "'\($0)'" }.joined(separator: ", ")); the types are "
          + known.sorted().joined(separator: ", "))
    }
    let disabled = try launch.state.disabledTypes()
    let after = enabled ? disabled.subtracting(types) : disabled.union(types)
    guard !known.subtracting(after).isEmpty else {
      throw CLIError("at least one type must stay enabled")
    }
    for type in types { try launch.state.setEnabled(type, enabled) }
  }
}
