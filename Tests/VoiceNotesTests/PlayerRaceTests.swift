import Dispatch
import Foundation
import SoundStation
import SoundStationTesting
import Synchronization
import Testing

@testable import VoiceNotes

/// Two threads playing notes on one player at once leave exactly one note playing: the one the
/// player tracks (the start and the swap of the current voice happen under the player's lock).
@Suite("Voice note player under concurrent calls")
struct PlayerRaceTests {
    @Test func concurrentPlaysLeaveOneTrackedNote() throws {
        let rate = 48_000
        let folder = try TestFolder()
        defer { folder.remove() }
        let paths = [300, 700].map { frequency in
            let path = folder.file("tone-\(frequency).wav")
            return (path, frequency)
        }
        for (path, frequency) in paths {
            try WAVWriter.write(
                PCMAudio(
                    sampleRate: rate, channels: 1,
                    samples: Tone.sine(frequency: Double(frequency), seconds: 2, rate: rate, amplitude: 0.3)),
                toFileAt: path, format: .float32)
        }
        let engine = try AudioEngine(output: .offline(sampleRate: rate, channels: 2))
        let player = VoiceNotePlayer(engine: engine)
        let notes = try paths.map { try VoiceNote(path: $0.0) }
        for round in 0..<100 {
            let start = DispatchSemaphore(value: 0)
            let done = DispatchGroup()
            for note in notes + notes {
                done.enter()
                Thread {
                    start.wait()
                    try? player.play(note)
                    done.leave()
                }.start()
            }
            for _ in 0..<4 { start.signal() }
            done.wait()
            _ = try engine.render(frames: 480)
            #expect(engine.activeVoiceCount == 1, "round \(round): \(engine.activeVoiceCount) notes playing")
            #expect(player.isPlaying)
            // The one heard is the one the player reports.
            let mix = try engine.render(frames: 4_800)
            let playing = try #require(player.note)
            let frequency = paths.first { $0.0 == playing.path }?.1 ?? 0
            let other = frequency == 300 ? 700 : 300
            #expect(
                AudioAnalysis.amplitude(of: Double(frequency), in: mix, frames: 0..<4_800)
                    > 10 * AudioAnalysis.amplitude(of: Double(other), in: mix, frames: 0..<4_800),
                "round \(round): the tracked note is the one heard")
        }
    }
}
