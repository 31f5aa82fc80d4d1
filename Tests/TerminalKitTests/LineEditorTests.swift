import Testing

@testable import TerminalKit

@Suite("Line editor")
struct LineEditorTests {
    @Test("typing inserts at the cursor, Backspace erases before it, arrows move it, Enter submits")
    func editing() {
        var editor = LineEditor(text: "note")
        #expect(editor.cursor == 4)
        for key in Key.decode(Array("s 1".utf8)) { #expect(editor.handle(key) == .editing) }
        #expect(editor.text == "notes 1")
        #expect(editor.handle(.backspace) == .editing)
        #expect(editor.handle(.backspace) == .editing)
        #expect(editor.text == "notes")
        _ = editor.handle(.left)
        _ = editor.handle(.left)
        _ = editor.handle(.character("é"))
        #expect(editor.text == "notées" && editor.cursor == 4)
        #expect(editor.beforeCursor == "noté" && editor.underCursor == "e" && editor.afterCursor == "s")
        _ = editor.handle(.right)
        _ = editor.handle(.right)
        _ = editor.handle(.right)
        #expect(editor.cursor == 6 && editor.underCursor == " " && editor.afterCursor == "")
        #expect(editor.handle(.enter) == .submitted("notées"))
    }

    @Test("Escape and Ctrl-C cancel; Backspace at the start and keys past the limit do nothing")
    func edges() {
        var editor = LineEditor(text: "abc", limit: 4)
        #expect(editor.handle(.character("d")) == .editing)
        #expect(editor.handle(.character("e")) == .editing)
        #expect(editor.text == "abcd")
        var empty = LineEditor()
        #expect(empty.handle(.backspace) == .editing && empty.text.isEmpty)
        #expect(editor.handle(.escape) == .cancelled)
        #expect(editor.handle(.interrupt) == .cancelled)
    }
}
