import Testing

@testable import SoundStation

/// The manifest's own JSON reader, which must keep integers, numbers and booleans apart.
@Suite struct CatalogueJSONTests {
    func parse(_ text: String) throws(ManifestJSON.SyntaxError) -> ManifestJSON.Value {
        try ManifestJSON.parse(Array(text.utf8))
    }

    func syntaxError(_ text: String) -> ManifestJSON.SyntaxError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func scalarsKeepTheirTypes() throws {
        #expect(try parse("1") == .integer(1))
        #expect(try parse("-0") == .integer(0))
        #expect(try parse("1.0") == .number(1))
        #expect(try parse("2e3") == .number(2000))
        #expect(try parse("true") == .bool(true))
        #expect(try parse("false") == .bool(false))
        #expect(try parse("null") == .null)
        #expect(try parse(" \"hi\" ") == .string("hi"))
        #expect(try parse("99999999999999999999") == .number(1e20))
    }

    @Test func stringEscapesAndUnicode() throws {
        #expect(try parse(#""a\"b\\c\/d\n\t""#) == .string("a\"b\\c/d\n\t"))
        #expect(try parse(#""\u00e9\ud83d\udd0a""#) == .string("\u{E9}\u{1F50A}"))
        #expect(try parse("\"caf\u{E9}\"") == .string("caf\u{E9}"))
    }

    @Test func objectsKeepKeyOrder() throws {
        guard case .object(let object) = try parse(#"{"b": 1, "a": [true, null]}"#) else {
            Issue.record("expected an object")
            return
        }
        #expect(object.members.map(\.key) == ["b", "a"])
        #expect(object["a"] == .array([.bool(true), .null]))
    }

    @Test func byteOrderMarkIsSkipped() throws {
        #expect(try ManifestJSON.parse([0xEF, 0xBB, 0xBF] + Array("[]".utf8)) == .array([]))
    }

    @Test(
        arguments: [
            "", "{", "[1,]", "{\"a\" 1}", "01", "1.", "-", "tru", "\"unterminated", "\"\\x\"",
            "\"\\ud83d\"", "[1] 2", "{\"a\": 1,}", "'single'", "\"tab\there\"", "NaN",
        ])
    func malformedInputIsRejected(text: String) {
        #expect(syntaxError(text) != nil)
    }

    @Test func invalidUTF8IsRejected() {
        #expect(throws: ManifestJSON.SyntaxError.self) { try ManifestJSON.parse([0x22, 0xFF, 0x22]) }
    }

    @Test func errorsPointAtLineAndColumn() throws {
        let error = try #require(syntaxError("{\n  \"a\": 1,\n  \"a\": 2\n}"))
        #expect(error.line == 3)
        #expect(error.column == 3)
        #expect(error.message.contains("duplicate key \"a\""))
    }

    @Test func deepNestingIsRefused() {
        let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(syntaxError(deep)?.message.contains("nested") == true)
        let fine = String(repeating: "[", count: 20) + String(repeating: "]", count: 20)
        #expect(syntaxError(fine) == nil)
    }
}
