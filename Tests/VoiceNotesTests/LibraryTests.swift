import Foundation
import Testing

@testable import VoiceNotes

@Suite("Voice note library: folder, order, rename, delete, safe names")
struct LibraryTests {
    @Test("the default folder follows XDG_DATA_HOME, then HOME; a relative XDG_DATA_HOME is ignored")
    func defaultFolder() throws {
        #expect(
            try VoiceNoteLibrary.defaultDirectory(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/a"])
                == "/data/soundstation/voice-notes")
        #expect(
            try VoiceNoteLibrary.defaultDirectory(environment: ["HOME": "/home/a"])
                == "/home/a/.local/share/soundstation/voice-notes")
        #expect(
            try VoiceNoteLibrary.defaultDirectory(environment: ["XDG_DATA_HOME": "rel", "HOME": "/home/a"])
                == "/home/a/.local/share/soundstation/voice-notes")
        #expect(throws: VoiceNoteError.self) { try VoiceNoteLibrary.defaultDirectory(environment: [:]) }
    }

    @Test("a new folder is created private (mode 0700), also as the default under XDG_DATA_HOME")
    func folderIsPrivate() throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let library = try VoiceNoteLibrary(environment: ["XDG_DATA_HOME": folder.path])
        #expect(library.directory == folder.path + "/soundstation/voice-notes")
        let mode =
            try FileManager.default.attributesOfItem(atPath: library.directory)[.posixPermissions] as? Int
        #expect(mode == 0o700)
        #expect(library.notes.isEmpty)
    }

    @Test("a folder that cannot be made is an error naming it")
    func unusableFolder() throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        try folder.write([1, 2, 3], to: folder.file("plain-file"))
        let target = folder.file("plain-file/notes")
        let error = #expect(throws: VoiceNoteError.self) { try VoiceNoteLibrary(directory: target) }
        #expect(error?.description.contains(target) == true)
        #expect(error?.description.contains("is a file") == true)
        let onFile = #expect(throws: VoiceNoteError.self) {
            try VoiceNoteLibrary(directory: folder.file("plain-file"))
        }
        #expect(onFile?.description.contains("a file of that name is in the way") == true)
    }

    @Test("notes are listed newest first with their duration and size; other files are ignored")
    func listingOrder() throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let now = Date()
        try folder.writeNote("old.ogg", seconds: 0.5, modified: now.addingTimeInterval(-3_600))
        try folder.writeNote("new.ogg", seconds: 1.25, modified: now)
        try folder.writeNote("middle.ogg", seconds: 0.75, modified: now.addingTimeInterval(-60))
        try folder.write(Array("not audio".utf8), to: folder.file("readme.txt"))
        let library = try VoiceNoteLibrary(directory: folder.path)
        #expect(library.notes.map(\.name) == ["new", "middle", "old"])
        let newest = try #require(library.notes.first)
        #expect(abs(newest.duration.inSeconds - 1.25) < 0.001)
        #expect(newest.sampleRate == 12_000 && newest.channels == 1 && newest.format == .oggVorbis)
        #expect(newest.byteCount == (try folder.read(newest.path)).count)
        #expect(library.problems.isEmpty)
    }

    @Test("a damaged file with a note's extension is reported as a problem, not listed")
    func unreadableNote() throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        try folder.write(Array("OggS but not really".utf8), to: folder.file("broken.ogg"))
        try folder.writeNote("fine.ogg")
        let library = try VoiceNoteLibrary(directory: folder.path)
        #expect(library.notes.map(\.name) == ["fine"])
        #expect(library.problems.count == 1)
        #expect(library.problems.first?.contains("broken.ogg") == true)
    }

    @Test("rename keeps the extension and refuses to overwrite or change the format")
    func rename() throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        try folder.writeNote("recording-1.ogg")
        try folder.writeNote("other.ogg")
        let library = try VoiceNoteLibrary(directory: folder.path)
        let renamed = try library.rename("recording-1", to: "meeting")
        #expect(renamed.fileName == "meeting.ogg")
        #expect(FileManager.default.fileExists(atPath: folder.file("meeting.ogg")))
        #expect(!FileManager.default.fileExists(atPath: folder.file("recording-1.ogg")))
        #expect(Set(library.notes.map(\.name)) == ["meeting", "other"])
        #expect(try library.rename("meeting.ogg", to: "standup.ogg").fileName == "standup.ogg")

        #expect(throws: VoiceNoteError.nameTaken(name: "other", folder: library.directory)) {
            try library.rename("standup", to: "other")
        }
        #expect(throws: VoiceNoteError.self) { try library.rename("standup", to: "standup.wav") }
        #expect(throws: VoiceNoteError.noSuchNote(name: "missing", folder: library.directory)) {
            try library.rename("missing", to: "x")
        }
        #expect(FileManager.default.fileExists(atPath: folder.file("other.ogg")))
    }

    @Test("delete removes the file and the list entry")
    func delete() throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        try folder.writeNote("a.ogg")
        try folder.writeNote("b.ogg")
        let library = try VoiceNoteLibrary(directory: folder.path)
        try library.delete("a")
        #expect(library.notes.map(\.name) == ["b"])
        #expect(!FileManager.default.fileExists(atPath: folder.file("a.ogg")))
        #expect(throws: VoiceNoteError.noSuchNote(name: "a", folder: library.directory)) {
            try library.delete("a")
        }
    }

    @Test("a recording still running is never deleted, renamed or played, and no note takes its name")
    func recordingInProgress() throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        try folder.writeNote("done.ogg")
        let library = try VoiceNoteLibrary(directory: folder.path)
        var running: NoteReservation? = try library.reserveNewNote(format: .oggVorbis)
        let name = try #require(running?.name)
        let busy = VoiceNoteError.beingRecorded(name: name, folder: library.directory)
        #expect(throws: busy) { try library.delete(name) }
        #expect(throws: busy) { try library.rename(name, to: "meeting") }
        #expect(throws: busy) { try library.note(named: name) }
        #expect(throws: busy) { try library.rename("done", to: name) }
        #expect(busy.description.contains(name) && busy.description.contains("still being recorded"))
        #expect(FileManager.default.fileExists(atPath: folder.file(name + ".ogg.part")))
        #expect(FileManager.default.fileExists(atPath: folder.file("done.ogg")))
        // Once no recorder holds it, it is only an unfinished file the next refresh repairs.
        withExtendedLifetime(running) {}
        running = nil
        #expect(throws: VoiceNoteError.noSuchNote(name: name, folder: library.directory)) {
            try library.delete(name)
        }
    }

    @Test(
        "names with '/' or '..' (or hidden, empty, control characters) are refused before touching a file",
        arguments: [
            "../victim", "../victim.ogg", "a/b", "/etc/passwd", "..", "x..y", ".hidden", "", "tab\tname",
            "note.ogg.part",
        ])
    func unsafeNames(name: String) throws {
        let outer = try TestFolder()
        defer { outer.remove() }
        let inner = outer.file("notes")
        try FileManager.default.createDirectory(atPath: inner, withIntermediateDirectories: true)
        try outer.writeNote("victim.ogg")
        try outer.writeNote("notes/keep.ogg")
        let library = try VoiceNoteLibrary(directory: inner)

        for attempt in [
            { try library.delete(name) }, { _ = try library.rename("keep", to: name) },
            { _ = try library.note(named: name) },
        ] as [() throws -> Void] {
            do {
                try attempt()
                Issue.record("\"\(name)\" was accepted")
            } catch let error as VoiceNoteError {
                guard case .invalidName = error else {
                    Issue.record("\"\(name)\": \(error)")
                    continue
                }
                #expect(error.description.contains("invalid note name"))
            }
        }
        #expect(FileManager.default.fileExists(atPath: outer.file("victim.ogg")))
        #expect(library.notes.map(\.name) == ["keep"])
    }

    @Test("new notes are named recording-<unix time>, with a suffix when that second is taken")
    func reservedNames() throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let library = try VoiceNoteLibrary(directory: folder.path)
        let date = VoiceNoteDate(timeIntervalSince1970: 1_712_345_678)
        let first = try library.reserveNewNote(format: .oggVorbis, date: date)
        let second = try library.reserveNewNote(format: .oggVorbis, date: date)
        #expect(first.name == "recording-1712345678")
        #expect(second.name == "recording-1712345678-2")
        #expect(first.partPath == folder.file("recording-1712345678.ogg.part"))
        let mode = try FileManager.default.attributesOfItem(atPath: first.partPath)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }
}
