import Foundation
import Testing

@testable import VoiceNotes

/// Each note's loudness as block characters: measured per slice, cached next to the notes, and drawn
/// in the list.
@Suite("Voice note waveforms")
struct WaveformTests {
    static let rate = 12_000

    /// 4 s of silence, then 4 s of a 440 Hz tone at half scale (RMS -9 dBFS).
    @discardableResult
    private func silenceThenTone(_ folder: TestFolder, _ name: String = "rising.ogg") throws -> String {
        let silence = [Float](repeating: 0, count: 4 * Self.rate)
        let tone = Tone.sine(frequency: 440, seconds: 4, rate: Self.rate, amplitude: 0.5)
        return try folder.writeNote(name, samples: silence + tone, rate: Self.rate)
    }

    /// Polls `condition` every 10 ms until it holds or `seconds` pass.
    private func eventually(within seconds: Double = 20, _ condition: () -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while !condition() {
            if ContinuousClock.now >= deadline { return false }
            try await Task.sleep(for: .milliseconds(10))
        }
        return true
    }

    @Test("silence then a loud tone: low blocks in the first half of the cells, high blocks in the second")
    func silenceThenLoud() throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let waveform = try VoiceNoteWaveform(fileAt: try silenceThenTone(folder))
        print("measure: levels \(waveform.levels.map { String(format: "%.1f", $0) })")
        #expect(waveform.levels.count == 16)
        #expect(waveform.levels.prefix(7).allSatisfy { $0 <= VoiceNoteWaveform.floor })
        // Vorbis smears a little of the tone's onset into the last silent slice (pre-echo): -56 dB.
        #expect(waveform.levels[7] < -50)
        #expect(waveform.levels.suffix(8).allSatisfy { abs($0 - -9.03) < 0.5 })
        #expect(waveform.blocks == "▁▁▁▁▁▁▁▁▇▇▇▇▇▇▇▇")
        #expect(
            VoiceNoteWaveform(levels: [-100, -60, -52, -45, -37, -30, -22, -15, -7, 0]).blocks == "▁▁▂▃▄▅▆▇██"
        )
    }

    @Test("an unreadable note is an error naming it")
    func unreadable() throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        try folder.write(Array("not audio".utf8), to: folder.file("x.ogg"))
        let error = #expect(throws: VoiceNoteError.self) {
            try VoiceNoteWaveform(fileAt: folder.file("x.ogg"))
        }
        #expect(error?.description.contains(folder.file("x.ogg")) == true)
    }

    @Test(
        "measured once off the caller's thread, kept in .waveforms, renamed along, remeasured when the note changes"
    )
    func cached() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        try silenceThenTone(folder)
        let library = try VoiceNoteLibrary(directory: folder.path)
        let note = try library.note(named: "rising")
        #expect(library.waveform(for: note) == nil, "the first call only queues the note")
        #expect(try await eventually { library.waveform(for: note) != nil })
        #expect(library.waveform(for: note)?.blocks == "▁▁▁▁▁▁▁▁▇▇▇▇▇▇▇▇")
        #expect(try await eventually { FileManager.default.fileExists(atPath: folder.file(".waveforms")) })
        #expect(library.measuredWaveforms == 1)
        #expect(library.notes.map(\.fileName) == ["rising.ogg"], "the cache file is not a note")

        // Another run reads it instead of measuring.
        let reopened = try VoiceNoteLibrary(directory: folder.path)
        #expect(reopened.waveform(for: try reopened.note(named: "rising"))?.blocks == "▁▁▁▁▁▁▁▁▇▇▇▇▇▇▇▇")
        let renamed = try reopened.rename("rising", to: "renamed")
        #expect(reopened.waveform(for: renamed) != nil, "a rename keeps the waveform")
        #expect(reopened.measuredWaveforms == 0)

        // The note written again (another size and time): measured again.
        let tone = Tone.sine(frequency: 440, seconds: 3, rate: Self.rate, amplitude: 0.5)
        try folder.writeNote("renamed.ogg", samples: tone, rate: Self.rate)
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(5)], ofItemAtPath: folder.file("renamed.ogg"))
        try reopened.refresh()
        let changed = try reopened.note(named: "renamed")
        #expect(reopened.waveform(for: changed) == nil)
        #expect(try await eventually { reopened.waveform(for: changed) != nil })
        #expect(reopened.waveform(for: changed)?.blocks == "▇▇▇▇▇▇▇▇▇▇▇▇▇▇▇▇")
        #expect(reopened.measuredWaveforms == 1)
    }

    @Test("the list row shows the waveform after the name, dots until it is measured")
    func row() throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let note = try VoiceNote(path: try silenceThenTone(folder))
        let waveform = try VoiceNoteWaveform(fileAt: note.path)
        var model = ScreenModel(
            folder: "/notes", recording: RecordingStatus(), notes: [note], selected: 0,
            playback: PlaybackStatus(), playbackTime: .zero, message: nil)
        let waiting = ScreenLayout.lines(model, rows: 20).map(\.plainText)
        let pad = String(repeating: " ", count: ScreenLayout.nameWidth + 1 - "rising".count)
        #expect(
            waiting.contains { $0.hasPrefix(" > rising" + pad + String(repeating: "·", count: 16) + "  ") })
        model.waveforms = ["rising.ogg": waveform]
        let lines = ScreenLayout.lines(model, rows: 20)
        let row = try #require(lines.first { $0.plainText.hasPrefix(" > rising") })
        #expect(row.plainText.hasPrefix(" > rising" + pad + "▁▁▁▁▁▁▁▁▇▇▇▇▇▇▇▇  "))
        #expect(row.rendered(width: 99).contains("\u{1B}[36m▁▁▁▁▁▁▁▁▇▇▇▇▇▇▇▇"))
    }
}
