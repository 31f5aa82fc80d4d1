import Foundation
import SoundStation

/// `preload`, `preload-1thread` and `preload-music-streamed`: decoding and uploading a catalogue.
enum PreloadCases {
    /// The cases that run on Swift's concurrency pool (valgrind 3.19 cannot run its threads).
    static let parallelNames = ["preload", "preload-music-streamed", "preload-cached"]

    /// `preload-1thread`: every sound loaded with ``SoundBank/load(_:)`` on this thread, one after
    /// another; synchronous, so `valgrind --tool=callgrind` can profile it.
    static func runSingleThread(_ work: Workspace, runs: Int) throws {
        let engine = try AudioEngine(output: .offline())
        let decoded = try Catalogue(assetsRoot: work.preload)
        let single = try repeated(runs: runs) { _ in
            let bank = SoundBank(engine: engine, catalogue: decoded)
            let start = BenchClock.wall()
            for entry in decoded.entries { try bank.load(entry.name) }
            let elapsed = BenchClock.wall() - start
            for entry in decoded.entries { bank.unload(entry.name) }
            return elapsed * 1e3
        }
        CaseReport(
            case: "preload-1thread", unit: "ms", label: "SoundBank.load(_:) for each sound on one thread",
            samples: single
        ).emit()
    }

    /// `preload` and `preload-music-streamed`: the parallel preloader.
    static func run(_ work: Workspace, runs: Int, cases: CaseFilter) async throws {
        let engine = try AudioEngine(output: .offline())
        let decoded = try Catalogue(assetsRoot: work.preload)
        let cores = ProcessInfo.processInfo.activeProcessorCount

        if cases.wants("preload") {
            let parallel = try await repeated(runs: runs) { _ in
                try await timedPreload(SoundBank(engine: engine, catalogue: decoded))
            }
            CaseReport(
                case: "preload", unit: "ms", label: "SoundBank.preload(), parallel on \(cores) cores",
                samples: parallel, note: "\(decoded.entries.count) sounds, every one decoded"
            ).emit()
        }

        if cases.wants("preload-cached") {
            // A game's second start: the warm-up run decodes and fills a cache of this run's own, every
            // counted run reads the samples back (hashing each file, checking each entry).
            let cached = try await DecodedCache.inFolder(work.root + "/pcm-cache") {
                try await repeated(runs: runs) { _ in
                    try await timedPreload(SoundBank(engine: engine, catalogue: decoded))
                }
            }
            CaseReport(
                case: "preload-cached", unit: "ms",
                label: "SoundBank.preload(), parallel, decoded samples read back from the PCMCache",
                samples: cached, note: "\(decoded.entries.count) sounds, the cache filled by the warm-up run"
            ).emit()
        }

        if cases.wants("preload-music-streamed") {
            let shipped = try Catalogue(assetsRoot: work.streamed)
            let streamed = try await repeated(runs: runs) { _ in
                try await timedPreload(SoundBank(engine: engine, catalogue: shipped))
            }
            CaseReport(
                case: "preload-music-streamed", unit: "ms",
                label: "SoundBank.preload(), music opened for streaming", samples: streamed
            ).emit()
        }
    }

    /// Milliseconds `bank.preload()` takes; the sounds are released afterwards.
    private static func timedPreload(_ bank: SoundBank) async throws -> Double {
        let start = BenchClock.wall()
        let held = try await bank.preload()
        let elapsed = BenchClock.wall() - start
        try held.throwIfFailed()
        held.unload()
        return elapsed * 1e3
    }
}
