import Foundation
import SoundStation
import SoundStationTesting

@testable import VoiceNotes

/// Speech from espeak-ng, played into a private sink while its monitor is recorded.
struct SpeechFixture {
    let folder: TestFolder
    let sink: PrivateSink
    let speechPath: String
    let speech: PCMAudio

    init(text: String) throws {
        folder = try TestFolder()
        sink = try PrivateSink()
        speechPath = folder.file("speech.wav")
        try PulseTools.speech(text, to: speechPath)
        speech = try AudioDecoder.decode(fileAt: speechPath)
        // OpenAL Soft lists devices when asked; asking now makes it see the sink just loaded.
        let devices = VoiceNoteRecorder.captureDevices()
        guard devices.contains(sink.monitor) else {
            throw ToolFailure(message: "OpenAL does not list \(sink.monitor): \(devices)")
        }
    }

    var notesFolder: String { folder.file("notes") }

    func playSpeech() throws -> Process { try PulseTools.play(speechPath, sink: sink.name) }

    func remove() {
        sink.unload()
        folder.remove()
    }

    /// How the loudness of `recorded` follows the speech: the correlation of their 50 ms loudness
    /// contours at the best alignment, and the level inside the speech against the level outside it.
    func loudnessMatch(_ recorded: PCMAudio) -> (correlation: Double, speechDB: Double, outsideDB: Double) {
        let reference = AudioAnalysis.envelope(speech)
        let heard = AudioAnalysis.envelope(recorded)
        let (lag, correlation) = AudioAnalysis.bestAlignment(of: reference, in: heard)
        let window = recorded.sampleRate / 20
        let inside = (lag * window)..<min(recorded.frameCount, (lag + reference.count) * window)
        // Two windows of margin either side keep an alignment off by one window out of the contrast.
        let margin = 2 * window
        let before = 0..<max(0, inside.lowerBound - margin)
        let after = min(recorded.frameCount, inside.upperBound + margin)..<recorded.frameCount
        var outsideSquares = 0.0
        for range in [before, after] {
            outsideSquares += pow(AudioAnalysis.rms(recorded, frames: range), 2) * Double(range.count)
        }
        let outsideCount = before.count + after.count
        let outside = outsideCount > 0 ? (outsideSquares / Double(outsideCount)).squareRoot() : 0
        return (
            correlation, AudioAnalysis.decibels(AudioAnalysis.rms(recorded, frames: inside)),
            AudioAnalysis.decibels(outside)
        )
    }
}
