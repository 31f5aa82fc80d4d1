import Testing

@testable import SoundStation

/// Every accepted play is answered by exactly one of `started`, `refused` or `coalesced`, stolen or
/// not, in the render it was asked in or not, and every `started` by one `finished` (issue 30,
/// item 7: 100,000 plays gave 100,000 `finished` but 6,400 `started`).
@Suite struct EventAccountingTests {
    /// Counts of each event, by kind.
    struct Tally: CustomStringConvertible {
        var started = 0
        var refused = 0
        var coalesced = 0
        var finished = 0
        var stolen = 0
        var description: String {
            "started \(started), refused \(refused), coalesced \(coalesced), finished \(finished) "
                + "(stolen \(stolen))"
        }
    }

    /// Subscribes a tally to `engine`'s events.
    static func tally(_ engine: AudioEngine) -> (Locked<Tally>, EventSubscription) {
        let tally = Locked(Tally())
        let subscription = engine.onEvent { event in
            tally.withLock { tally in
                switch event {
                case .started: tally.started += 1
                case .refused: tally.refused += 1
                case .coalesced: tally.coalesced += 1
                case .finished(_, _, let reason, _):
                    tally.finished += 1
                    if reason == .stolen { tally.stolen += 1 }
                default: break
                }
            }
        }
        return (tally, subscription)
    }

    @Test("100,000 plays of one buffer over 25 renders: a start for each, and an end for each start")
    func floodOfOneBuffer() throws {
        let engine = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
        let beep = try engine.makeBuffer(Signals.noise(seconds: 0.05), name: "beep")
        let (tally, subscription) = Self.tally(engine)
        defer { subscription.cancel() }
        var accepted = 0
        for _ in 0..<25 {
            for _ in 0..<4_000 where try engine.play(beep) != nil { accepted += 1 }
            _ = try engine.render(frames: 4_800)
        }
        _ = try engine.render(frames: 4_800)
        let counts = tally.withLock { $0 }
        #expect(accepted == 100_000)
        #expect(counts.started + counts.refused + counts.coalesced == accepted, "\(counts)")
        #expect(counts.finished == counts.started, "\(counts)")
        // The pool holds 256 voices: nearly every one of 4,000 starts in a render is stolen in it.
        #expect(counts.stolen > 90_000, "\(counts)")
        #expect(engine.activeVoiceCount == 0)
    }

    @Test("by id through instance limits, stealing and coalescing: every play accounted for")
    func floodThroughLimits() async throws {
        let assets = try TestAssets()
        try assets.addWAV("hit", Signals.noise(seconds: 0.05), extra: "\"maxInstances\": 4")
        try assets.addWAV(
            "tick", Signals.noise(seconds: 0.05, seed: 2), extra: "\"maxInstances\": 2, \"coalesceMs\": 30")
        try assets.addWAV(
            "once", Signals.noise(seconds: 0.05, seed: 3), extra: "\"maxInstances\": 1, \"steal\": \"refuse\""
        )
        let system = try await assets.system()
        let engine = system.engine
        let ids = try ["hit", "tick", "once"].map { name throws(SoundLoadError) in
            try system.bank.id(of: name)
        }
        let (tally, subscription) = Self.tally(engine)
        defer { subscription.cancel() }
        var accepted = 0
        for render in 0..<25 {
            for index in 0..<3_000 {
                // Some now, some later in this render or the next, so starts wait in the pool too.
                let at: Duration? = index.isMultiple(of: 3) ? engine.time + .milliseconds(index % 150) : nil
                if try system.effects.play(ids[(index + render) % 3], at: at) != nil { accepted += 1 }
            }
            _ = try engine.render(frames: 4_800)
        }
        _ = try engine.render(frames: 24_000)
        let counts = tally.withLock { $0 }
        #expect(accepted == 75_000)
        #expect(counts.started + counts.refused + counts.coalesced == accepted, "\(counts)")
        #expect(counts.finished == counts.started, "\(counts)")
        #expect(counts.refused > 0 && counts.coalesced > 0 && counts.stolen > 0, "\(counts)")
        #expect(engine.activeVoiceCount == 0)
    }
}
