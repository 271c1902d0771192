/// Which card links the app hands to a browser: `http` and `https` URLs with a host, and
/// nothing that could be read as an option or break out of one argument.
///
///     WebLink.isOpenable("https://www.gnu.org/")  // true
///     WebLink.isOpenable("file:///etc/passwd")    // false
public enum WebLink {
  /// True when `url` is an http or https URL with a host and no blanks or control characters.
  public static func isOpenable(_ url: String) -> Bool {
    guard url.unicodeScalars.allSatisfy(isAllowed) else { return false }
    let lower = url.lowercased()
    guard let scheme = ["http://", "https://"].first(where: lower.hasPrefix) else { return false }
    let host = lower.dropFirst(scheme.count).prefix { !"/?#".contains($0) }
    return !host.isEmpty
  }

  /// Printable, not a blank: a URL never holds a space, a line break or an escape.
  private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.generalCategory != .control && !scalar.properties.isWhitespace
      && scalar.properties.generalCategory != .format
  }
}
