/// A small, strict XML reader for feeds and OPML files: elements, attributes, text and CDATA,
/// the five predefined entities and character references. Nothing else is expanded.
///
/// A document type declaration (`<!DOCTYPE`, the DTD) is refused whole: with no DTD there are
/// no entity declarations, so no external entity (`<!ENTITY x SYSTEM "file:///etc/passwd">`)
/// is ever read and no entity ever expands into others (billion laughs). Feeds never need a
/// DTD. A named reference other than the five (`&nbsp;`, which HTML-minded feeds write) stays
/// as it is written. Bounded: at most `sizeLimit` bytes, `depthLimit` levels and
/// `elementLimit` elements.
///
///     let root = try XMLReader.parse(Array("<rss><channel><title>T</title></channel></rss>".utf8))
///     root.child("channel")?.child("title")?.text  // "T"
package enum XMLReader {
  package static let sizeLimit = 16 << 20
  package static let depthLimit = 64
  package static let elementLimit = 200_000

  /// Why a document was refused.
  package struct Problem: Error, Equatable, CustomStringConvertible {
    package var message: String
    package var description: String { message }
  }

  /// One element: its qualified name (`sy:updatePeriod`), attributes, children and the text
  /// directly inside it (CDATA included).
  package struct Element: Equatable, Sendable {
    package var name: String
    package var attributes: [String: String] = [:]
    package var children: [Element] = []
    package var text = ""
    /// The text and the children in document order: each piece of text, and the index in
    /// `children` of each child (mixed content, as XHTML's `a <em>look</em> at`).
    package var content: [Piece] = []

    package enum Piece: Equatable, Sendable {
      case text(String)
      case child(Int)
    }

    mutating func append(_ piece: String) {
      text += piece
      content.append(.text(piece))
    }

    mutating func append(child: Element) {
      content.append(.child(children.count))
      children.append(child)
    }

    /// The name without its namespace prefix.
    package var localName: Substring {
      name.firstIndex(of: ":").map { name[name.index(after: $0)...] } ?? name[...]
    }

    /// The first child whose local name (or, with a `:`, qualified name) is `name`.
    package func child(_ name: String) -> Element? {
      children.first { $0.matches(name) }
    }

    package func children(_ name: String) -> [Element] {
      children.filter { $0.matches(name) }
    }

    /// The text of the child named `name`, trimmed; nil when absent or empty.
    package func text(of name: String) -> String? {
      guard let text = child(name)?.text.trimmingSpaces, !text.isEmpty else { return nil }
      return text
    }

    private func matches(_ wanted: String) -> Bool {
      wanted.contains(":") ? name == wanted : localName == wanted[...] && !isPrefixedOther(wanted)
    }

    /// `content:encoded` does not answer for `encoded` in another namespace's place; plain
    /// names match any prefix but those listed (RSS's `atom:link` is not its `link`).
    private func isPrefixedOther(_ wanted: String) -> Bool {
      guard let colon = name.firstIndex(of: ":") else { return false }
      return ["atom", "media", "dc", "content", "itunes", "sy", "slash", "wfw"].contains(
        String(name[..<colon])) && wanted == "link"
    }
  }

  /// The root element of `bytes`.
  package static func parse(_ bytes: [UInt8]) throws(Problem) -> Element {
    guard bytes.count <= sizeLimit else {
      throw Problem(message: "over \(sizeLimit >> 20) MiB")
    }
    var scanner = Scanner(bytes: bytes)
    return try scanner.document()
  }

  private struct Scanner {
    let bytes: [UInt8]
    var at = 0
    var elements = 0

    init(bytes: [UInt8]) {
      self.bytes = bytes
      // A UTF-8 byte order mark.
      if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { at = 3 }
    }

    var peek: UInt8? { at < bytes.count ? bytes[at] : nil }

    func starts(_ text: String) -> Bool {
      let utf8 = Array(text.utf8)
      return at + utf8.count <= bytes.count && bytes[at..<at + utf8.count].elementsEqual(utf8)
    }

    func fail(_ message: String) -> Problem { Problem(message: message) }

    mutating func document() throws(Problem) -> Element {
      var root: Element?
      var stack: [Element] = []
      while at < bytes.count {
        if bytes[at] != UInt8(ascii: "<") {
          let text = try readText()
          if stack.isEmpty {
            guard text.trimmingSpaces.isEmpty else { throw fail("text outside the root element") }
          } else {
            stack[stack.count - 1].append(text)
          }
          continue
        }
        if starts("<?") {
          try skip(past: "?>")
        } else if starts("<!--") {
          try skip(past: "-->")
        } else if starts("<![CDATA[") {
          at += 9
          let start = at
          try skip(past: "]]>")
          guard !stack.isEmpty else { throw fail("CDATA outside the root element") }
          stack[stack.count - 1].append(String(decoding: bytes[start..<at - 3], as: UTF8.self))
        } else if starts("<!") {
          // <!DOCTYPE and anything else that declares: refused, never read.
          throw fail("a document type declaration (DTD); feeds are read without one")
        } else if starts("</") {
          at += 2
          let name = readName()
          skipSpace()
          guard peek == UInt8(ascii: ">"), let open = stack.popLast() else {
            throw fail("a stray closing tag </\(name)>")
          }
          at += 1
          guard open.name == name else {
            throw fail("</\(name)> closes <\(open.name)>")
          }
          if stack.isEmpty {
            guard root == nil else { throw fail("two root elements") }
            root = open
          } else {
            stack[stack.count - 1].append(child: open)
          }
        } else {
          at += 1
          var element = Element(name: readName())
          guard !element.name.isEmpty else { throw fail("a '<' that opens no tag") }
          elements += 1
          guard elements <= elementLimit else { throw fail("over \(elementLimit) elements") }
          var selfClosing = false
          while true {
            skipSpace()
            guard let byte = peek else { throw fail("the document ends inside a tag") }
            if byte == UInt8(ascii: ">") {
              at += 1
              break
            }
            if byte == UInt8(ascii: "/") {
              at += 1
              guard peek == UInt8(ascii: ">") else { throw fail("a '/' inside a tag") }
              at += 1
              selfClosing = true
              break
            }
            let name = readName()
            guard !name.isEmpty else { throw fail("a bad attribute in <\(element.name)>") }
            skipSpace()
            guard peek == UInt8(ascii: "=") else { throw fail("attribute \(name) has no value") }
            at += 1
            skipSpace()
            guard let quote = peek, quote == 0x22 || quote == 0x27 else {
              throw fail("attribute \(name) is not quoted")
            }
            at += 1
            let start = at
            while let byte = peek, byte != quote {
              guard byte != UInt8(ascii: "<") else { throw fail("a '<' in an attribute") }
              at += 1
            }
            guard peek == quote else { throw fail("the document ends inside an attribute") }
            element.attributes[name] = try decode(bytes[start..<at])
            at += 1
          }
          if selfClosing {
            if stack.isEmpty {
              guard root == nil else { throw fail("two root elements") }
              root = element
            } else {
              stack[stack.count - 1].append(child: element)
            }
          } else {
            guard stack.count < depthLimit else {
              throw fail("elements nested over \(depthLimit) deep")
            }
            stack.append(element)
          }
        }
      }
      guard stack.isEmpty else { throw fail("the document ends inside <\(stack.last!.name)>") }
      guard let root else { throw fail("no root element") }
      return root
    }

    mutating func readName() -> String {
      let start = at
      while let byte = peek,
        !(byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x3E
          || byte == 0x2F || byte == 0x3D || byte == 0x3C)
      {
        at += 1
      }
      return String(decoding: bytes[start..<at], as: UTF8.self)
    }

    mutating func skipSpace() {
      while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
        at += 1
      }
    }

    mutating func skip(past end: String) throws(Problem) {
      let utf8 = Array(end.utf8)
      while at + utf8.count <= bytes.count {
        if bytes[at] == utf8[0], bytes[at..<at + utf8.count].elementsEqual(utf8) {
          at += utf8.count
          return
        }
        at += 1
      }
      throw fail("the document ends before \(end)")
    }

    mutating func readText() throws(Problem) -> String {
      let start = at
      while let byte = peek, byte != UInt8(ascii: "<") { at += 1 }
      return try decode(bytes[start..<at])
    }

    /// Text with its references replaced: the five predefined entities and `&#N;`/`&#xN;`.
    func decode(_ raw: ArraySlice<UInt8>) throws(Problem) -> String {
      guard raw.contains(UInt8(ascii: "&")) else { return String(decoding: raw, as: UTF8.self) }
      var out: [UInt8] = []
      out.reserveCapacity(raw.count)
      var i = raw.startIndex
      while i < raw.endIndex {
        let byte = raw[i]
        guard byte == UInt8(ascii: "&"),
          let semicolon = raw[i..<min(i + 12, raw.endIndex)].firstIndex(of: UInt8(ascii: ";"))
        else {
          out.append(byte)
          i += 1
          continue
        }
        let name = String(decoding: raw[(i + 1)..<semicolon], as: UTF8.self)
        if let scalar = Self.reference(name) {
          out += Array(String(Character(scalar)).utf8)
        } else {
          out += raw[i...semicolon]
        }
        i = semicolon + 1
      }
      return String(decoding: out, as: UTF8.self)
    }

    static func reference(_ name: String) -> Unicode.Scalar? {
      switch name {
      case "lt": return "<"
      case "gt": return ">"
      case "amp": return "&"
      case "quot": return "\""
      case "apos": return "'"
      default:
        guard name.hasPrefix("#") else { return nil }
        let digits = name.dropFirst()
        let value =
          digits.hasPrefix("x") || digits.hasPrefix("X")
          ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
        return value.flatMap(Unicode.Scalar.init)
      }
    }
  }
}

extension String {
  /// Without spaces, tabs, CRs and LFs at either end.
  package var trimmingSpaces: String {
    let isSpace = { (c: Character) in c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\r\n"
    }
    guard let first = firstIndex(where: { !isSpace($0) }),
      let last = lastIndex(where: { !isSpace($0) })
    else { return "" }
    return String(self[first...last])
  }
}
