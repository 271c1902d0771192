import Foundation
import Testing

@testable import Decks

/// The XML reader, the feed formats' dates and HTML made text.
@Suite struct FeedDocumentTests {
  @Test func aDTDIsRefusedWholeSoNoEntityIsEverDeclared() {
    let laughs = """
      <?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>
      <r>&b;</r>
      """
    let external = #"<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>"#
    for text in [laughs, external, "<!DOCTYPE html><r/>"] {
      #expect(throws: XMLReader.Problem.self) { try XMLReader.parse(Array(text.utf8)) }
    }
  }

  @Test func onlyThePredefinedEntitiesAndCharacterReferencesExpand() throws {
    let root = try XMLReader.parse(
      Array(
        "<r a='&lt;&#x41;&amp;'>&lt;b&gt; &amp;amp; &#233; &nbsp; &undefined;<![CDATA[<i>&lt;</i>]]></r>"
          .utf8))
    #expect(root.attributes["a"] == "<A&")
    #expect(root.text == "<b> &amp; é &nbsp; &undefined;<i>&lt;</i>")
  }

  @Test func malformedAndOversizedDocumentsAreRefused() {
    let deep = String(repeating: "<a>", count: 100) + String(repeating: "</a>", count: 100)
    for text in ["<a><b></a>", "<a>", "text", "<a></a><b/>", deep, "<a x=1/>"] {
      #expect(throws: XMLReader.Problem.self, "\(text.prefix(20))") {
        try XMLReader.parse(Array(text.utf8))
      }
    }
  }

  @Test func datesOfBothFormatsAreRead() {
    #expect(FeedDates.parse("Tue, 10 Jun 2003 04:00:00 GMT") == 1_055_217_600)
    #expect(FeedDates.parse("Tue, 10 Jun 2003 06:00:00 +0200") == 1_055_217_600)
    #expect(FeedDates.parse("10 Jun 03 00:00 EDT") == 1_055_217_600)
    #expect(FeedDates.parse("2003-06-10T04:00:00Z") == 1_055_217_600)
    #expect(FeedDates.parse("2003-06-10T05:30:00.123+01:30") == 1_055_217_600)
    #expect(FeedDates.parse("yesterday") == nil)
    #expect(FeedDeck.day(of: 1_055_217_600) == "2003-06-10")
  }

  @Test func htmlBecomesPlainText() {
    #expect(
      HTMLText.plain("<p>One &amp; <b>two</b></p><script>alert('x')</script><p>Three&#8217;s</p>")
        == "One & two\n\nThree’s")
    #expect(HTMLText.plain("a<br/>b<STYLE>p{}</STYLE>  c\t d") == "a\nb c d")
  }

  @Test func intervalsComeFromTtlOrTheSyndicationModule() throws {
    let ttl = try FeedDocument.parse(Array("<rss><channel><ttl>45</ttl></channel></rss>".utf8))
    #expect(ttl.interval == 2700)
    let sy = try FeedDocument.parse(
      Array(
        "<rss xmlns:sy='x'><channel><sy:updatePeriod>daily</sy:updatePeriod><sy:updateFrequency>4</sy:updateFrequency></channel></rss>"
          .utf8))
    #expect(sy.interval == 21_600)
  }

  @Test func feedNamesComeFromTitlesOrHosts() {
    #expect(FeedDeck.typeName(forTitle: "Bits from Debian!") == "bits-from-debian")
    #expect(FeedDeck.typeName(forTitle: "日本") == nil)
    #expect(FeedDeck.typeName(forURL: "https://www.lwn.net:443/feed") == "lwn-net")
    #expect(FeedDeck.webLink("javascript:alert(1)") == nil)
    #expect(FeedDeck.webLink(" https://a.example/x ") == "https://a.example/x")
  }
}
