import Foundation
import SoundStation

/// `stream-memory`: peak resident memory while the 10-minute track plays to its end offline, streamed
/// through the music station or decoded whole and played from one buffer. One mode per process, so each
/// peak is its own; `Scripts/bench.sh` runs the processes and pairs them.
enum MemoryCase {
    static let chunk = 4_096

    static func run(_ work: Workspace, streamed: Bool) async throws {
        let engine = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
        let baseline = residentMegabytes("VmRSS")
        let frames: Int
        // The PCM the engine holds for the track: what its stream queues and decodes ahead
        // (``AudioEngine/streamedBytes``), or the whole track's buffer.
        let pcmBytes: () -> Int
        if streamed {
            let sound = SoundSystem(
                engine: engine, catalogue: try Catalogue(assetsRoot: work.long))
            try await sound.bank.preload(["long"]).throwIfFailed()
            guard sound.bank.isStreamed("long") else { fail("stream-memory: the track did not stream") }
            try sound.music.play("long")
            frames = try AudioDecoder.info(ofFileAt: work.long + "/Music/track600.ogg").frameCount
            pcmBytes = { engine.streamedBytes }
        } else {
            let audio = try AudioDecoder.decode(fileAt: work.long + "/Music/track600.ogg")
            frames = audio.frameCount
            let buffer = try engine.makeBuffer(audio, name: "long")
            guard try engine.play(buffer, options: PlayOptions(bus: .music)) != nil else {
                fail("stream-memory: the track was refused")
            }
            pcmBytes = { buffer.byteCount }
        }
        var pcmPeak = 0
        var done = 0
        var rendered = 0
        while done < frames {
            let count = min(chunk, frames - done)
            _ = try engine.render(frames: count)
            done += count
            rendered += 1
            if rendered % 64 == 1 { pcmPeak = max(pcmPeak, pcmBytes()) }
        }
        let peak = residentMegabytes("VmHWM")
        // The streamed run is the engine's figure; the decoded-whole run is what it is compared with.
        let side = streamed ? "engine" : "engine-variant"
        let peer = streamed ? nil : "soundstation-preloaded"
        let how = streamed ? "streamed (MusicStation)" : "decoded whole (AudioDecoder + makeBuffer)"
        let extra = ["baselineMB": baseline, "seconds": Double(frames) / 48_000]
        CaseReport(
            case: "stream-memory", side: side, peer: peer, unit: "MB", label: "peak RSS, \(how)",
            samples: [peak],
            extra: extra
        ).emit()
        CaseReport(
            case: "stream-memory-pcm", side: side, peer: peer, unit: "MB",
            label: "PCM the engine holds while playing, \(how)", samples: [Double(pcmPeak) / 1e6]
        ).emit()
    }

    /// A line of /proc/self/status in megabytes (10^6 bytes).
    private static func residentMegabytes(_ key: String) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
            fail("cannot read /proc/self/status")
        }
        for line in status.split(separator: "\n") where line.hasPrefix(key + ":") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count >= 2, let kilobytes = Double(fields[1]) { return kilobytes * 1_024 / 1e6 }
        }
        fail("/proc/self/status has no \(key)")
    }
}
