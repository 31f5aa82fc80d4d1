import Foundation
import SoundStation

/// `voice-encode`: a minute of 16 kHz mono speech through ``VorbisEncoder`` at quality 0.4, written in
/// 100 ms pieces as a recorder reads them from its capture device.
enum EncodeCase {
    static let piece = 1_600

    static func run(_ work: Workspace, runs: Int) throws {
        let speech = try AudioDecoder.decode(fileAt: work.speech)
        guard speech.channels == 1 else { fail("\(work.speech) is not mono") }
        let out = work.root + "/voice-engine.ogg"
        let samples = try repeated(runs: runs) { _ in
            let start = BenchClock.wall()
            let encoder = try VorbisEncoder(
                path: out, sampleRate: speech.sampleRate, channels: 1, quality: 0.4)
            var offset = 0
            while offset < speech.samples.count {
                let end = min(offset + piece, speech.samples.count)
                try encoder.write(Array(speech.samples[offset..<end]))
                offset = end
            }
            try encoder.finish()
            return (BenchClock.wall() - start) * 1e3
        }
        let seconds = Double(speech.frameCount) / Double(speech.sampleRate)
        CaseReport(
            case: "voice-encode", unit: "ms", label: "VorbisEncoder q0.4, 1600-frame writes, finish()",
            samples: samples,
            note: String(format: "audio %.3f s at %d Hz, 1 ch", seconds, speech.sampleRate),
            extra: ["audioSeconds": seconds]
        ).emit()
    }
}
