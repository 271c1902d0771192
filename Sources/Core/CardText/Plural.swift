/// A count with its noun in the right number, for messages.
///
///     Plural.count(1, "card")  // "1 card"
///     Plural.count(3, "card")  // "3 cards"
///     Plural.count(2, "entry", "entries")  // "2 entries"
public enum Plural {
  public static func count(_ count: Int, _ noun: String, _ plural: String? = nil) -> String {
    "\(count) " + (count == 1 ? noun : plural ?? noun + "s")
  }
}
