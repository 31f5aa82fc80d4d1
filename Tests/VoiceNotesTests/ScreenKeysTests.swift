import Foundation
import SoundStation
import TerminalKit
import Testing

@testable import VoiceNotes

/// The screen's keys on a real notes folder: `n` renames on an inline line, `d` deletes after `y`,
/// and what each step shows on the prompt, message and keys rows.
@Suite("Voice notes screen: rename and delete keys")
struct ScreenKeysTests {
    private struct Fixture {
        let folder: TestFolder
        let library: VoiceNoteLibrary
        let screen: VoiceNotesScreen

        init() throws {
            folder = try TestFolder()
            let now = Date()
            try folder.writeNote("alpha.ogg", modified: now)
            try folder.writeNote("beta.ogg", modified: now.addingTimeInterval(-60))
            library = try VoiceNoteLibrary(directory: folder.path)
            let engine = try AudioEngine(output: .offline())
            screen = VoiceNotesScreen(
                library: library, recorder: VoiceNoteRecorder(library: library),
                player: VoiceNotePlayer(engine: engine))
        }

        func type(_ text: String) {
            for key in Key.decode(Array(text.utf8)) { screen.handle(key) }
        }

        /// The frame's rows as text.
        var rows: [String] { ScreenLayout.lines(screen.model(), rows: 24).map(\.plainText) }
        /// The prompt, message and keys rows.
        var footer: (prompt: String, message: String, keys: String) {
            let rows = self.rows
            return (rows[rows.count - 3], rows[rows.count - 2], rows[rows.count - 1])
        }
    }

    @Test("the keys row names n rename and d delete")
    func keysShown() throws {
        let fixture = try Fixture()
        defer { fixture.folder.remove() }
        #expect(fixture.footer.keys.contains("n rename") && fixture.footer.keys.contains("d delete"))
        #expect(fixture.footer.prompt.trimmingCharacters(in: .whitespaces).isEmpty)
    }

    @Test("n opens the name for editing; typing, Backspace and Enter rename the file, keeping .ogg")
    func renames() throws {
        let fixture = try Fixture()
        defer { fixture.folder.remove() }
        fixture.screen.handle(.down)
        fixture.type("n")
        #expect(fixture.footer.prompt == #" Rename "beta" to: beta "#)
        #expect(fixture.footer.keys.contains("Enter rename") && fixture.footer.keys.contains("Esc cancel"))
        for _ in 0..<4 { fixture.screen.handle(.backspace) }
        fixture.type("standup notes")
        #expect(fixture.footer.prompt == #" Rename "beta" to: standup notes "#)
        fixture.screen.handle(.enter)
        #expect(fixture.footer.message == " renamed beta to standup notes")
        #expect(FileManager.default.fileExists(atPath: fixture.folder.file("standup notes.ogg")))
        #expect(!FileManager.default.fileExists(atPath: fixture.folder.file("beta.ogg")))
        #expect(fixture.rows.contains { $0.hasPrefix(" > standup notes") }, "the renamed note stays selected")
        #expect(fixture.screen.model().mode == .browsing)
    }

    @Test("a taken or unsafe name is refused on screen and the line stays open; Escape cancels")
    func refusals() throws {
        let fixture = try Fixture()
        defer { fixture.folder.remove() }
        fixture.type("n")
        for _ in 0..<5 { fixture.screen.handle(.backspace) }
        fixture.type("beta")
        fixture.screen.handle(.enter)
        #expect(fixture.footer.message.contains(#"a voice note named "beta" already exists"#))
        #expect(fixture.footer.prompt == #" Rename "alpha" to: beta "#, "the line stays open")
        fixture.type("/../x")
        fixture.screen.handle(.enter)
        #expect(fixture.footer.message.contains(#"invalid note name "beta/../x""#))
        fixture.screen.handle(.escape)
        #expect(fixture.footer.message == " kept the name alpha")
        #expect(fixture.screen.model().mode == .browsing)
        #expect(Set(fixture.library.notes.map(\.fileName)) == ["alpha.ogg", "beta.ogg"])
        #expect(FileManager.default.fileExists(atPath: fixture.folder.file("alpha.ogg")))
    }

    @Test("d asks y/n: n keeps the note, y deletes its file")
    func deletes() throws {
        let fixture = try Fixture()
        defer { fixture.folder.remove() }
        fixture.type("d")
        #expect(fixture.footer.prompt.hasPrefix(#" Delete "alpha" (0:00.5, "#))
        #expect(fixture.footer.prompt.hasSuffix("? y/n"))
        #expect(fixture.footer.keys.contains("y delete"))
        fixture.type("n")
        #expect(fixture.footer.message == " kept alpha")
        #expect(FileManager.default.fileExists(atPath: fixture.folder.file("alpha.ogg")))
        fixture.type("dy")
        #expect(fixture.footer.message == " deleted alpha.ogg")
        #expect(!FileManager.default.fileExists(atPath: fixture.folder.file("alpha.ogg")))
        #expect(fixture.library.notes.map(\.name) == ["beta"])
        #expect(fixture.rows.contains { $0.hasPrefix(" > beta") })
    }
}
