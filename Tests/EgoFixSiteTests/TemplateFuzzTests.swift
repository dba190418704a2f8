import EgoFixCore
import EgoFixResources
import XCTest
@testable import EgoFixSite

/// Issue 30: the template reader and renderer, fed random and mutated templates (fixed seed,
/// bounded run). No input crashes or hangs them, and every refusal is one line naming the file.
final class TemplateFuzzTests: XCTestCase {
    static let pieces = ["{{", "}}", "{{{", "}}}", "{{#a}}", "{{/a}}", "{{^a}}", "{{#list}}", "{{/list}}", "{{.}}", "{{a}}", "{{a.b}}",
                         "{{{html}}}", "{{&html}}", "{{> p}}", "{{>p}}", "{{> q}}", "{{> ../x}}", "{{!c}}", "{{=<% %>=}}", "{{%PRAGMA}}",
                         "{{<a}}", "{{$a}}", "{{a(b)}}", "{{ }}", "{{#}}", "{{/}}", "\n", "\r\n", " ", "\t", "text", "<p>", "\u{301}",
                         "\"", "&", "{", "}", "é", "🐛", "\u{0}", "\u{1B}", "{{#b}}", "{{/b}}", "{{^b}}", "{{missing}}"]

    func randomTemplate(_ r: inout SplitMix64) -> String {
        (0..<r.below(40)).map { _ in r.pick(Self.pieces) }.joined()
    }

    func mutated(_ text: String, _ r: inout SplitMix64) -> String {
        var scalars = Array(text.unicodeScalars)
        for _ in 0..<(1 + r.below(6)) where !scalars.isEmpty {
            let i = r.below(scalars.count)
            switch r.below(4) {
            case 0: scalars.remove(at: i)
            case 1: scalars.insert(contentsOf: r.pick(Self.pieces).unicodeScalars, at: i)
            case 2: scalars.insert(contentsOf: scalars[i..<min(scalars.count, i + r.below(200))], at: i)
            default: scalars[i] = r.pick(["{", "}", "#", "/", "^", ">", "!", "&", "\n"] as [Unicode.Scalar])
            }
        }
        var s = String.UnicodeScalarView()
        s.append(contentsOf: scalars)
        return String(s)
    }

    func test_Hardening_templateParserFuzz() throws {
        let builtIn = BuiltIn.files(under: "Templates").filter { $0.path.hasSuffix(".mustache") }.map { String(decoding: $0.data, as: UTF8.self) }
        XCTAssertFalse(builtIn.isEmpty)
        let context: [String: Any] = ["a": ["b": "x"], "list": ["one", "two"], "html": RawHTML(trusted: "<b>x</b>"), "b": true]
        var r = SplitMix64(seed: 30)
        let started = Date()
        var (runs, refused) = (0, 0)
        while runs < 20_000 && Date().timeIntervalSince(started) < 3 {
            runs += 1
            var main = runs % 3 == 0 ? mutated(r.pick(builtIn), &r) : randomTemplate(&r)
            if runs % 1000 == 0 {  // deep nesting, closed or not
                let n = 50 + r.below(4000)
                main = String(repeating: r.pick(["{{#a}}", "{{^b}}", "{{#list}}"]), count: n) + main + String(repeating: "{{/a}}", count: r.below(n))
            }
            let templates = ["t": main, "p": randomTemplate(&r), "q": r.below(4) == 0 ? "{{> q}}" : "q"]
            do {
                let set = try TemplateSet(templates: templates)
                _ = try? set.render("t", context)
                do { _ = try set.render("t", context) } catch let e as TemplateError {
                    XCTAssertFalse(e.description.contains("\n"), "run \(runs): \(e.description)")
                }
            } catch let e as TemplateError {
                refused += 1
                XCTAssertFalse(e.description.isEmpty)
                XCTAssertFalse(e.description.contains("\n"), "run \(runs): a refusal on more than one line: \(e.description)")
                XCTAssertTrue(e.description.hasPrefix("Templates/"), "run \(runs): names no file: \(e.description)")
            } catch {
                XCTFail("run \(runs): not a TemplateError: \(error)")
            }
        }
        XCTAssertGreaterThan(runs, 100, "the fuzz run did too little")
        XCTAssertGreaterThan(refused, 0)
        XCTAssertLessThan(refused, runs, "nothing was ever accepted")
    }
}
