import Foundation
import SoundStation
import SoundStationTesting
import Synchronization
import Testing

@testable import VoiceNotes

/// A note longer than ``VoiceNotePlayer/streamingThreshold`` streams from its file: the engine holds
/// a few chunks of it, never the whole note, and what is heard is the note's own decoded samples at
/// the start, after a seek (playing and paused) and up to its last frame.
@Suite("Voice note player streaming long notes (offline render)")
struct PlayerStreamingTests {
    /// The note's rate and the engine's, so the mix holds the note's samples unresampled.
    static let rate = 12_000
    /// One 16-bit step: the most a rendered sample may differ from the note's decoded one.
    static let lsb: Float = 1.0 / 32_768

    /// Ten minutes of a tone sweeping 250-650 Hz and swelling, so every second differs from the others.
    static func sweep(seconds: Int) -> [Float] {
        var phase = 0.0
        return (0..<seconds * rate).map { frame in
            let t = Double(frame) / Double(rate)
            phase += 2 * Double.pi * (450 + 200 * sin(2 * Double.pi * t / 37)) / Double(rate)
            return Float((0.2 + 0.1 * sin(2 * Double.pi * t / 11)) * sin(phase))
        }
    }

    /// Checks that `mix` (stereo) holds `reference`'s frames `from..<from + frames` on both sides at
    /// the centre-pan gain, to within one 16-bit step.
    private func expectHolds(
        _ mix: PCMAudio, _ reference: PCMAudio, from: Int, frames: Int, _ label: String
    ) {
        let expected = reference.samples[from..<from + frames]
        for side in 0..<2 {
            let heard = AudioAnalysis.channel(mix, side).samples.prefix(frames)
            let gain = LeastSquares.weights(of: [Array(expected)], in: Array(heard))[0]
            // A centred mono voice reaches each side at -4.5 dB (OpenAL Soft's pan law).
            #expect(abs(gain - 0.5957) < 0.005, "\(label): side \(side) at gain \(gain)")
            let worst = zip(heard, expected).map { abs($0 - Float(gain) * $1) }.max() ?? 1
            print("measure: \(label) side \(side) gain \(gain), largest difference \(worst)")
            #expect(worst <= Self.lsb, "\(label): side \(side) differs by \(worst)")
        }
    }

    @Test("a 10-minute note streams in bounded memory and plays its exact samples, sought or not")
    func longNoteStreams() throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let minutes = 10
        let path = try folder.writeNote(
            "lecture.ogg", samples: Self.sweep(seconds: minutes * 60), rate: Self.rate)
        let reference = try AudioDecoder.decode(fileAt: path)
        let note = try VoiceNote(path: path)
        #expect(reference.frameCount == minutes * 60 * Self.rate)
        #expect(note.duration > VoiceNotePlayer.streamingThreshold)
        let wholeBytes = reference.samples.count * MemoryLayout<Float>.size

        let engine = try AudioEngine(output: .offline(sampleRate: Self.rate, channels: 2))
        let player = VoiceNotePlayer(engine: engine)
        let finished = Mutex<[PlaybackFinished]>([])
        player.onFinished { event in finished.withLock { $0.append(event) } }
        var largestResident = 0
        func render(seconds: Double) throws -> PCMAudio {
            let mix = try engine.render(frames: Int(seconds * Double(Self.rate)))
            largestResident = max(largestResident, engine.streamedBytes)
            return mix
        }

        try player.play(note)
        #expect(abs(player.duration.inSeconds - Double(minutes * 60)) < 1e-9)
        let start = try render(seconds: 1)
        expectHolds(start, reference, from: 0, frames: Self.rate, "start")
        #expect(player.currentTime == .seconds(1), "at \(player.currentTime) s")

        player.seek(to: .seconds(300))
        engine.waitForMixer()  // a seek is a command: the position follows once it is carried out
        #expect(player.currentTime == .seconds(300), "after the seek: \(player.currentTime) s")
        let middle = try render(seconds: 1)
        expectHolds(middle, reference, from: 300 * Self.rate, frames: Self.rate, "after a seek to 5:00")
        #expect(player.currentTime == .seconds(301))

        // Sought while paused: silent until resumed, then exactly from the new place.
        player.pause()
        player.seek(to: .seconds(450.25))
        engine.waitForMixer()
        #expect(player.currentTime == .seconds(450.25))
        let paused = try render(seconds: 0.5)
        #expect(AudioAnalysis.peak(paused) < 1e-6)
        #expect(player.isPaused && player.currentTime == .seconds(450.25))
        player.resume()
        let resumed = try render(seconds: 1)
        expectHolds(
            resumed, reference, from: 450 * Self.rate + 3_000, frames: Self.rate, "after a paused seek")

        // The last two seconds, then silence and one end.
        let tail = reference.frameCount - 2 * Self.rate
        player.seek(to: .seconds(Double(tail) / Double(Self.rate)))
        let end = try render(seconds: 3)
        expectHolds(end, reference, from: tail, frames: 2 * Self.rate, "the last 2 s")
        #expect(AudioAnalysis.peak(end, frames: 2 * Self.rate..<3 * Self.rate) < 1e-6)
        #expect(finished.withLock { $0.map(\.reason) } == [.ended])
        #expect(!player.isPlaying)
        #expect(engine.streamedBytes == 0)

        print(
            "measure: largest resident stream \(largestResident) bytes; the note decoded whole is \(wholeBytes)"
        )
        #expect(largestResident > 0, "the note did not stream")
        #expect(largestResident < 512 * 1_024 && largestResident * 50 < wholeBytes)
    }

    @Test("a note up to the threshold is decoded whole and holds no stream")
    func shortNoteIsDecoded() throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let path = try folder.writeNote("short.ogg", seconds: 2, rate: Self.rate)
        let engine = try AudioEngine(output: .offline(sampleRate: Self.rate, channels: 2))
        let player = VoiceNotePlayer(engine: engine)
        try player.play(fileAt: path)
        let mix = try engine.render(frames: Self.rate)
        #expect(AudioAnalysis.amplitude(of: 440, in: mix, frames: 0..<Self.rate) > 0.1)
        #expect(engine.streamedBytes == 0)
        #expect(player.isPlaying)
    }
}
