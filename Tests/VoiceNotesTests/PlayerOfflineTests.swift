import Foundation
import SoundStation
import SoundStationTesting
import Synchronization
import Testing

@testable import VoiceNotes

/// The player on the offline renderer, where every frame is measured: the note on the voice bus,
/// music ducking under it, pause, resume, seek, and the finished event.
@Suite("Voice note player (offline render)")
struct PlayerOfflineTests {
    static let rate = 48_000

    private func render(_ engine: AudioEngine, seconds: Double) throws -> PCMAudio {
        try engine.render(frames: Int(seconds * Double(Self.rate)))
    }

    @Test("a note plays on the voice bus, music ducks by about 12 dB under it, and finished fires once")
    func ducksMusicAndFinishesOnce() throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let notePath = folder.file("tone.wav")
        try WAVWriter.write(
            PCMAudio(
                sampleRate: Self.rate, channels: 1,
                samples: Tone.sine(frequency: 1_000, seconds: 1, rate: Self.rate, amplitude: 0.5)),
            toFileAt: notePath, format: .float32)
        let engine = try AudioEngine(output: .offline(sampleRate: Self.rate, channels: 2))
        let music = try engine.makeBuffer(
            PCMAudio(
                sampleRate: Self.rate, channels: 1,
                samples: Tone.sine(frequency: 220, seconds: 4, rate: Self.rate, amplitude: 0.3)),
            name: "music")
        try engine.play(music, options: PlayOptions(loop: true, bus: .music))
        let player = VoiceNotePlayer(engine: engine)
        let finished = Mutex<[PlaybackFinished]>([])
        player.onFinished { event in finished.withLock { $0.append(event) } }

        let before = try render(engine, seconds: 0.5)
        let musicAlone = AudioAnalysis.amplitude(of: 220, in: before, frames: 12_000..<24_000)
        try player.play(fileAt: notePath)
        #expect(player.isPlaying && !player.isPaused)
        #expect(abs(player.duration.inSeconds - 1) < 1e-9)

        let during = try render(engine, seconds: 0.5)
        let window = 12_000..<24_000  // after the 80 ms attack
        let musicDucked = AudioAnalysis.amplitude(of: 220, in: during, frames: window)
        let note = AudioAnalysis.amplitude(of: 1_000, in: during, frames: window)
        let duck = AudioAnalysis.decibels(musicDucked / musicAlone)
        print("measure: offline duck \(String(format: "%.2f", duck)) dB, note amplitude \(note)")
        #expect(abs(duck - -12.04) < 0.5, "music ducked by \(duck) dB")
        // A centred mono sound reaches each side at -4.5 dB (OpenAL Soft's pan law).
        #expect(abs(AudioAnalysis.decibels(note / 0.5) - -4.5) < 0.5)
        #expect(abs(player.currentTime.inSeconds - 0.5) < 0.01, "at \(player.currentTime) s")

        player.pause()
        let paused = try render(engine, seconds: 0.3)
        #expect(player.isPlaying && player.isPaused)
        #expect(AudioAnalysis.amplitude(of: 1_000, in: paused, frames: 4_800..<14_400) < 1e-4)
        #expect(abs(player.currentTime.inSeconds - 0.5) < 0.01)

        player.resume()
        let resumed = try render(engine, seconds: 0.1)
        #expect(AudioAnalysis.amplitude(of: 1_000, in: resumed, frames: 0..<4_800) > 0.2)

        player.seek(to: .seconds(0.9))
        engine.waitForMixer()  // a seek is a command: the position follows once it is carried out
        #expect(abs(player.currentTime.inSeconds - 0.9) < 0.01)
        _ = try render(engine, seconds: 0.5)
        // The end is reported during the render that reaches it, before render() returns.
        #expect(finished.withLock(\.count) == 1)
        let after = try render(engine, seconds: 0.6)

        let events = finished.withLock { $0 }
        #expect(events.count == 1)
        #expect(events.first?.reason == .ended)
        #expect(events.first?.note.fileName == "tone.wav")
        #expect(!player.isPlaying)
        // The duck releases once the note has ended.
        let released = AudioAnalysis.amplitude(of: 220, in: after, frames: 19_200..<28_800)
        #expect(abs(AudioAnalysis.decibels(released / musicAlone)) < 0.5)
        #expect(AudioAnalysis.amplitude(of: 1_000, in: after, frames: 0..<28_800) < 1e-4)
    }

    @Test("stop reports .stopped once; a new play replaces the old note and reports it stopped")
    func stopAndReplace() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let path = try folder.writeNote("a.ogg", seconds: 2, rate: 24_000)
        let engine = try AudioEngine(output: .offline(sampleRate: Self.rate, channels: 2))
        let player = VoiceNotePlayer(engine: engine)
        let stream = player.finishedEvents()
        try player.play(fileAt: path)
        _ = try render(engine, seconds: 0.2)
        try player.play(fileAt: path)
        _ = try render(engine, seconds: 0.2)
        player.stop()
        player.stop()
        _ = try render(engine, seconds: 0.2)
        #expect(!player.isPlaying)
        let events = try await stream.collect(within: .seconds(10)) { $0.count == 2 }
        #expect(events.map(\.reason) == [.stopped, .stopped])
        #expect(engine.activeVoiceCount == 0)
    }

    @Test("an unreadable file is an error naming it")
    func unreadable() throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        try folder.write(Array("nothing".utf8), to: folder.file("x.ogg"))
        let engine = try AudioEngine(output: .offline())
        let player = VoiceNotePlayer(engine: engine)
        let error = #expect(throws: VoiceNoteError.self) { try player.play(fileAt: folder.file("x.ogg")) }
        #expect(error?.description.contains(folder.file("x.ogg")) == true)
        #expect(!player.isPlaying)
    }
}
