import Foundation
import Testing

@testable import VoiceNotes

@Suite("The screen's layout, as the seed's view")
struct ScreenLayoutTests {
    private func note(_ name: String, seconds: Double = 3.4) throws -> VoiceNote {
        let folder = try TestFolder()
        defer { folder.remove() }
        let path = try folder.writeNote(name + ".ogg", seconds: seconds)
        return try VoiceNote(path: path)
    }

    private func model(
        notes: [VoiceNote], recording: Bool = false, playing: VoiceNote? = nil, paused: Bool = false,
        selected: Int = 0
    ) -> ScreenModel {
        var recordingStatus = RecordingStatus()
        recordingStatus.isRecording = recording
        recordingStatus.inputStarted = recording
        recordingStatus.elapsed = recording ? .milliseconds(3_250) : .zero
        recordingStatus.level = InputLevel(peak: -6, rms: -15)
        var playback = PlaybackStatus()
        playback.note = playing
        playback.isPlaying = playing != nil
        playback.isPaused = paused
        playback.duration = playing?.duration ?? .zero
        return ScreenModel(
            folder: "/notes", recording: recordingStatus, notes: notes, selected: selected,
            playback: playback,
            playbackTime: .milliseconds(1_200), message: nil)
    }

    @Test("title, a plain Ready status, the blue start button and no meter when idle")
    func idle() throws {
        let lines = ScreenLayout.lines(model(notes: []), rows: 20)
        #expect(lines[0].plainText == " Voice Notes")
        #expect(lines.contains { $0.plainText == " Ready" })
        let button = try #require(lines.first { $0.plainText.contains("Start recording") })
        #expect(button.rendered(width: 80).contains("\u{1B}[1;37;44m"))
        #expect(!lines.contains { $0.plainText.contains("Level") })
        #expect(lines.contains { $0.plainText.contains("No recordings yet") })
        #expect(lines.count == 20)
    }

    @Test("while recording: a red status with the time, a red stop button and the level meter")
    func recording() throws {
        let lines = ScreenLayout.lines(model(notes: [], recording: true), rows: 20)
        let status = try #require(lines.first { $0.plainText.contains("Recording") })
        #expect(status.rendered(width: 80).contains("\u{1B}[1;31m"))
        #expect(status.plainText.contains("0:03.2"))
        #expect(lines.contains { $0.plainText.contains("Stop recording") })
        let meter = try #require(lines.first { $0.plainText.contains("Level") })
        // -6 dB peak on a 60 dB meter of 30 cells fills 27 of them.
        #expect(meter.plainText.filter { $0 == "#" }.count == 27)
        #expect(meter.plainText.contains("-6.0 dB peak"))
    }

    @Test("the playing note is red, a paused one green, the others plain")
    func playingColours() throws {
        let first = try note("first")
        let second = try note("second")
        let playing = ScreenLayout.lines(model(notes: [first, second], playing: second), rows: 20)
        let row = try #require(playing.first { $0.plainText.contains("second") })
        #expect(row.rendered(width: 120).contains("31m"))
        #expect(row.plainText.contains("playing 0:01.2/0:03.4"))
        let other = try #require(playing.first { $0.plainText.contains("first") })
        #expect(!other.rendered(width: 120).contains("31m") && !other.rendered(width: 120).contains("32m"))

        let paused = ScreenLayout.lines(
            model(notes: [first, second], playing: second, paused: true), rows: 20)
        let pausedRow = try #require(paused.first { $0.plainText.contains("second") })
        #expect(pausedRow.rendered(width: 120).contains("32m"))
        #expect(pausedRow.plainText.contains("paused"))
    }

    @Test("the list scrolls to keep the selection on screen, and rows are cut to the width")
    func scrolling() throws {
        let base = try note("n")
        let notes = Array(repeating: base, count: 30)
        let lines = ScreenLayout.lines(model(notes: notes, selected: 29), rows: 16)
        #expect(lines.filter { $0.plainText.hasPrefix(" > ") }.count == 1)
        #expect(lines.count == 16)
        let frame = ScreenLayout.frame(lines, columns: 20, rows: 16)
        #expect(frame.hasPrefix("\u{1B}[H"))
        #expect(frame.components(separatedBy: "\r\n").count == 16)
    }

    @Test("clock and size formats")
    func formats() {
        #expect(Duration.zero.clockText == "0:00.0")
        #expect(Duration.seconds(75.36).clockText == "1:15.3")
        #expect(ScreenLayout.size(512) == "512 B")
        #expect(ScreenLayout.size(15_436) == "15 KB")
    }
}
