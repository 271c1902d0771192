/// The size, in cells, of the text area a card is laid out for.
public struct TextArea: Sendable, Hashable {
  public var width: Int
  public var height: Int
  public init(width: Int, height: Int) {
    self.width = max(width, 1)
    self.height = max(height, 1)
  }
}
