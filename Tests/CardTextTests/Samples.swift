@testable import CardText

/// Texts in the scripts and shapes that terminal layouts get wrong, already sanitised.
enum Samples {
  static let ascii = "The quick brown fox jumps over the lazy dog while the terminal redraws"
  static let cjk = "日本語の文章は空白なしで続きます。中文字符和한국어 텍스트도 있습니다"
  static let emoji = "Cards 👍 ✨ 🎉 🇫🇷 and 🇯🇵 flags, 👨 family, ❤ hearts 🫠 melt"
  static let combining = "Ångström café naïve e\u{301} Tiếng Việt ọ̀ a\u{300}\u{301}\u{302}\u{303}"
  static let rightToLeft = "שָׁלוֹם עוֹלָם مَرْحَبًا بِالْعَالَمِ and some English"
  static let tabs = "\tIndented\tby tabs\tand  double  spaces"
  static let paragraphs = "First paragraph here.\n\nThird after a blank one.\nFourth."
  static let all = [ascii, cjk, emoji, combining, rightToLeft, tabs, paragraphs, ""]
  static let widths = [1, 2, 10, 40, 80, 200]
}

/// The width of every line fits, the way the tests check it everywhere.
func widest(_ lines: [String]) -> Int {
  lines.map { DisplayWidth.of($0) }.max() ?? 0
}
