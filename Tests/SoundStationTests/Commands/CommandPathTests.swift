import Dispatch
import Foundation
import Synchronization
import Testing

@testable import SoundStation

/// Every mutation goes through the one command path: checked on the caller's thread, written as one
/// ``EngineCommand``, carried out by the mixing side at its frame; and every query reads what the
/// mixing side published, without waiting for it.
@Suite struct CommandPathTests {
    static let rate = 48_000
    /// Not on the housekeeping grid, so a change that waited for the next quantum would show.
    static let frame = 4_800 + 37

    /// One mutation of a playing voice (or of the engine around it) and the command it must write.
    struct Mutation: CustomStringConvertible, Sendable {
        var description: String
        var apply: @Sendable (AudioEngine, VoiceHandle) throws -> Void
        var kind: UInt8
        /// A change that glides (a fade, a bus's 20 ms ramp) begins at its frame but may leave the
        /// samples unchanged until the first housekeeping step after it.
        var glides = false

        /// Whether `frame` is where this change may first be heard, for a change made at `at`.
        func heard(at frame: Int?, from at: Int) -> Bool {
            guard let frame else { return false }
            return frame >= at && frame < at + (glides ? Int(AudioEngine.quantum) + 16 : 16)
        }
    }

    static let mutations: [Mutation] = [
        Mutation(description: "stop", apply: { $0.stop($1) }, kind: 2),
        Mutation(
            description: "stop fading", apply: { $0.stop($1, fade: .milliseconds(10)) }, kind: 2, glides: true
        ),
        Mutation(description: "pause", apply: { $0.pause($1) }, kind: 4),
        Mutation(description: "voice volume", apply: { try $0.setVolume(0.25, for: $1) }, kind: 8),
        Mutation(description: "pitch", apply: { try $0.setPitch(1.5, for: $1) }, kind: 8),
        Mutation(description: "pan", apply: { try $0.setPan(-1, for: $1) }, kind: 8),
        Mutation(
            description: "volume tween",
            apply: { try $0.setVolume(0, for: $1, tween: Tween(.milliseconds(50))) },
            kind: 8),
        Mutation(
            description: "position",
            apply: { try $0.setPosition(SoundPosition(x: 35, y: 0), for: $1, glide: .zero) },
            kind: 9),
        Mutation(
            description: "voice shelf filter", apply: { try $0.setFilter(.lowpass(gainHF: 0.05), for: $1) },
            kind: 10),
        Mutation(description: "seek", apply: { try $0.seek($1, toFrame: 100) }, kind: 11),
        Mutation(
            description: "bus volume", apply: { e, _ in try e.setVolume(0.25, for: .effects) }, kind: 12,
            glides: true),
        Mutation(
            description: "bus volume tween",
            apply: { e, _ in try e.setVolume(0.25, for: .master, tween: Tween(.milliseconds(20))) }, kind: 12),
        Mutation(
            description: "mute", apply: { e, _ in e.setMuted(true, for: .effects) }, kind: 13, glides: true),
        Mutation(
            description: "bus shelf filter",
            apply: { e, _ in try e.setFilter(.lowpass(gainHF: 0.05), for: .effects) },
            kind: 14),
        Mutation(description: "pause all", apply: { e, _ in e.pauseAll() }, kind: 6, glides: true),
        Mutation(description: "stop all", apply: { e, _ in e.stopAll() }, kind: 3),
    ]

    /// A looping tone on a fresh offline engine, with a tap recording what the mixing side carries out.
    static func playing() throws -> (AudioEngine, VoiceHandle) {
        let engine = try AudioEngine(output: .offline(sampleRate: rate, channels: 2))
        let tone = try engine.makeBuffer(Signals.sine(frequency: 440, seconds: 0.5), name: "tone")
        let voice = try #require(try engine.play(tone, options: PlayOptions(volume: 0.5, loop: true)))
        return (engine, voice)
    }

    /// The first frame at which two renders differ.
    static func firstDifference(_ a: PCMAudio, _ b: PCMAudio) -> Int? {
        a.samples.indices.first { a.samples[$0] != b.samples[$0] }.map { $0 / 2 }
    }

    @Test(arguments: mutations)
    func aMutationBetweenRendersActsAtTheNextRendersFirstFrame(_ mutation: Mutation) throws {
        let (reference, _) = try Self.playing()
        let unchanged = try reference.render(frames: Self.frame + 4_800)
        let (engine, voice) = try Self.playing()
        let carried = Mutex<[(UInt8, Int64)]>([])
        engine.commandTap.withLock {
            $0 = { command, frame in carried.withLock { $0.append((command.kind, frame)) } }
        }
        let before = try engine.render(frames: Self.frame)
        carried.withLock { $0.removeAll() }  // the play
        try mutation.apply(engine, voice)
        // Written, not yet carried out: the mixing side has not run.
        #expect(carried.withLock { $0.isEmpty })
        let after = try engine.render(frames: 4_800)
        let whole = PCMAudio(sampleRate: Self.rate, channels: 2, samples: before.samples + after.samples)
        #expect(mutation.heard(at: Self.firstDifference(whole, unchanged), from: Self.frame))
        #expect(carried.withLock { $0.map(\.0) } == [mutation.kind])
        #expect(carried.withLock { $0.map(\.1) } == [Int64(Self.frame)])
    }

    @Test(arguments: mutations)
    func aMutationForATimeActsAtItsFrame(_ mutation: Mutation) throws {
        let (reference, _) = try Self.playing()
        let unchanged = try reference.render(frames: 2 * Self.frame)
        let (engine, voice) = try Self.playing()
        let time = Duration.frames(Int64(Self.frame), rate: Self.rate)
        engine.schedule(at: time) { try? mutation.apply(engine, voice) }
        let changed = try engine.render(frames: 2 * Self.frame)
        #expect(mutation.heard(at: Self.firstDifference(changed, unchanged), from: Self.frame))
    }

    @Test func queriesAnswerAsOfTheLastRender() throws {
        let (engine, voice) = try Self.playing()
        // The play is written but not carried out: the handle counts as waiting to start.
        #expect(engine.isActive(voice))
        #expect(engine.activeVoiceCount == 0)
        #expect(engine.position(of: voice) == nil)
        _ = try engine.render(frames: 1_000)
        #expect(engine.activeVoiceCount == 1)
        #expect(engine.position(of: voice) == 1_000)
        engine.stop(voice)
        #expect(engine.isActive(voice), "the stop is not carried out yet")
        _ = try engine.render(frames: 0)
        #expect(!engine.isActive(voice))
        #expect(engine.activeVoiceCount == 0)
        // The settings are what the game set, at once.
        try engine.setVolume(0.5, for: .music)
        engine.setMuted(true, for: .voice)
        #expect(engine.volume(of: .music) == 0.5 && engine.isMuted(.voice))
    }

    @Test func badValuesThrowBeforeAnythingIsWritten() throws {
        let (engine, voice) = try Self.playing()
        let carried = Mutex(0)
        engine.commandTap.withLock { $0 = { _, _ in carried.withLock { $0 += 1 } } }
        _ = try engine.render(frames: 0)
        let before = carried.withLock { $0 }
        #expect(throws: AudioEngineError.self) { try engine.setVolume(-1, for: voice) }
        #expect(throws: AudioEngineError.self) { try engine.setVolume(.nan, for: voice) }
        #expect(throws: AudioEngineError.self) { try engine.setPitch(0, for: voice) }
        #expect(throws: AudioEngineError.self) { try engine.setPitch(100, for: voice) }
        #expect(throws: AudioEngineError.self) { try engine.setPan(2, for: voice) }
        #expect(throws: AudioEngineError.self) { try engine.setVolume(.infinity, for: .music) }
        #expect(throws: AudioEngineError.self) { try engine.seek(voice, toFrame: -5) }
        #expect(throws: TweenError.self) { try engine.setVolume(-1, for: voice, tween: Tween(.seconds(1))) }
        _ = try engine.render(frames: 0)
        #expect(carried.withLock { $0 } == before, "nothing was written")
    }

    /// The mixing side is held inside a round (under the engine's state lock, where it does its OpenAL
    /// work); every query and every mutation a game makes still returns while it is held.
    @Test func noCallWaitsForAMixingRound() async throws {
        let engine = try AudioEngine(output: .silent)
        defer { engine.shutdown() }
        let tone = try engine.makeBuffer(Signals.sine(frequency: 440, seconds: 0.5), name: "tone")
        let voice = try #require(try engine.play(tone, options: PlayOptions(loop: true)))
        #expect(engine.waitForMixer())
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let holding = Atomic(false)
        engine.roundHook.withLock {
            $0 = {
                guard !holding.exchange(true, ordering: .acquiringAndReleasing) else { return }
                entered.signal()
                release.wait()
            }
        }
        entered.wait()
        // The mixer is inside its round now, holding the state lock, until `release` is signalled.
        #expect(engine.isActive(voice))
        #expect(engine.activeVoiceCount == 1)
        _ = engine.position(of: voice)
        _ = engine.time
        _ = engine.underrunCount
        _ = engine.streamedBytes
        try engine.setVolume(0.5, for: voice)
        try engine.setVolume(0.5, for: .effects)
        try engine.setFilter(.lowpass(gainHF: 0.5), for: .effects)
        try engine.setListener(SoundPosition(x: 1, y: 0))
        engine.pause(voice)
        engine.resume(voice)
        _ = try engine.play(tone)
        engine.schedule(at: .zero) {}
        #expect(engine.volume(of: .effects) == 0.5)
        let stillHeld = holding.load(ordering: .acquiring)
        release.signal()
        #expect(stillHeld)
        engine.roundHook.withLock { $0 = nil }
        #expect(engine.waitForMixer())
        #expect(engine.activeVoiceCount == 2)
    }
}
