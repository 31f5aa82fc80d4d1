import Foundation
import SoundStationTesting
import Synchronization
import Testing

@testable import SoundStation

/// Musical time measured on rendered samples: switches, effects and beat events on the playing
/// track's grid, to the frame, through loops.
@Suite struct MusicGridTests {
    struct Grid: CustomStringConvertible, Sendable {
        var bpm: Double
        var beatsPerBar: Int
        var downbeat: Double
        var rate: Int

        var beatFrames: Double { 60 / bpm * Double(rate) }
        var barFrames: Double { beatFrames * Double(beatsPerBar) }
        /// A track of two whole bars (the loop body is the whole file).
        var trackFrames: Int { Int((2 * barFrames).rounded()) }
        var manifest: String { "\"bpm\": \(bpm), \"beatsPerBar\": \(beatsPerBar), \"downbeat\": \(downbeat)" }
        var description: String { "\(bpm) bpm, \(beatsPerBar)/bar, downbeat \(downbeat) s, \(rate) Hz" }

        /// Every frame the looping two-bar track plays a point `origin + j * step` (seconds) of the
        /// file, for loops `0..<loops`: worked out by enumeration, apart from the engine's search.
        func frames(origin: Double, step: Double, loops: Int) -> [Int] {
            var frames: [Int] = []
            for loop in 0..<loops {
                var j = 0
                while true {
                    let seconds = origin + Double(j) * step
                    let frame = Int((seconds * Double(rate)).rounded())
                    if frame >= trackFrames { break }
                    frames.append(loop * trackFrames + frame)
                    j += 1
                }
            }
            return frames
        }

        var barLines: [Int] { frames(origin: downbeat, step: 60 / bpm * Double(beatsPerBar), loops: 4) }
        var beats: [Int] { frames(origin: downbeat, step: 60 / bpm, loops: 4) }
    }

    static func trimmed(_ audio: PCMAudio, frames: Int) -> PCMAudio {
        PCMAudio(
            sampleRate: audio.sampleRate, channels: audio.channels,
            samples: Array(audio.samples.prefix(frames * audio.channels)))
    }

    static func silence(frames: Int, rate: Int) -> PCMAudio {
        PCMAudio(sampleRate: rate, channels: 2, samples: [Float](repeating: 0, count: frames * 2))
    }

    /// A system with `main` (two bars of tones on `grid`, or silence) and `game` (noise that starts
    /// from its downbeat at 0.1 s), and `click`, a stereo step for onsets.
    func system(
        _ grid: Grid, silentMain: Bool = false, mainExtra: String = "", gameExtra: String = ""
    ) async throws -> (SoundSystem, main: PCMAudio, game: PCMAudio, TestAssets) {
        let assets = try TestAssets()
        let length = grid.trackFrames
        let main =
            silentMain
            ? Self.silence(frames: length, rate: grid.rate)
            : Self.trimmed(
                Signals.stereoTones(left: 220, right: 330, seconds: 10, sampleRate: grid.rate), frames: length
            )
        let game = Signals.noise(seconds: 4, sampleRate: grid.rate, amplitude: 0.3, channels: 2, seed: 5)
        let click = PCMAudio(
            sampleRate: grid.rate, channels: 2, samples: [Float](repeating: 0.5, count: 960))
        try assets.addWAV("main", main, kind: "music", extra: grid.manifest + mainExtra)
        try assets.addWAV(
            "game", game, kind: "music",
            extra: "\"stream\": false, \"loop\": false, \"bpm\": 120, \"downbeat\": 0.1" + gameExtra)
        try assets.addWAV("click", click, kind: "effect")
        return (try await assets.system(sampleRate: grid.rate), main, game, assets)
    }

    /// The largest difference between the render from `frame` on and the looping `main` at the same
    /// frames (it started at frame 0).
    static func differenceFromMain(_ mix: PCMAudio, _ main: PCMAudio, frames: Range<Int>) -> Float {
        var largest: Float = 0
        for frame in frames {
            let source = frame % main.frameCount
            for channel in 0..<2 {
                largest = max(
                    largest, abs(mix.samples[frame * 2 + channel] - main.samples[source * 2 + channel]))
            }
        }
        return largest
    }

    static let grids = [
        Grid(bpm: 128.5, beatsPerBar: 4, downbeat: 0.0371, rate: 48_000),
        Grid(bpm: 90, beatsPerBar: 3, downbeat: 0.25, rate: 44_100),
        Grid(bpm: 174, beatsPerBar: 4, downbeat: 0, rate: 48_000),
        Grid(bpm: 97.3, beatsPerBar: 7, downbeat: 0.61, rate: 44_100),
    ]

    @Test(arguments: grids, [0.2, 1.234, 2.9, 3.3])
    func switchOnTheNextBarLandsOnTheBarFrame(grid: Grid, askedAt: Double) async throws {
        let (system, main, game, _) = try await system(grid)
        try system.music.play("main")
        let asked = Int((askedAt * Double(grid.rate)).rounded())
        let expected = try #require(grid.barLines.first { $0 >= asked })
        system.engine.schedule(at: .seconds(askedAt)) { try? system.music.play("game", at: .nextBar) }
        let mix = try system.engine.render(frames: expected + grid.rate / 2)
        // The old track up to the frame before, the new one from its downbeat on that frame.
        let before = max(0, expected - 4_800)..<expected
        #expect(Self.differenceFromMain(mix, main, frames: before) < 1e-5, "\(grid)")
        let downbeat = Int((0.1 * Double(grid.rate)).rounded())
        #expect(
            AudioAnalysis.largestDifference(
                mix, at: expected, game, from: downbeat, to: downbeat + grid.rate / 4)
                < 1e-5, "\(grid), asked at \(askedAt)")
        #expect(system.music.current == "game")
    }

    @Test func crossfadeOnTheBarStartsOnTheBarFrame() async throws {
        let grid = Grid(bpm: 128.5, beatsPerBar: 4, downbeat: 0.0371, rate: 48_000)
        let (system, _, _, _) = try await system(grid, silentMain: true)
        try system.music.play("main")
        let expected = try #require(grid.barLines.first { $0 >= 48_000 })
        system.engine.schedule(at: .seconds(1)) {
            try? system.music.play("game", transition: .crossfade(.seconds(0.25)), at: .nextBar)
        }
        let mix = try system.engine.render(frames: expected + 24_000)
        let onset = try #require(AudioAnalysis.onset(mix, threshold: 0))
        #expect(
            onset >= expected && onset < expected + 512, "crossfade began at \(onset), bar at \(expected)")
        #expect(AudioAnalysis.rms(mix, frames: expected + 12_000..<expected + 24_000) > 0.1)
    }

    @Test(arguments: grids)
    func beatEventsArriveOnTheGridFramesInOrderThroughLoops(grid: Grid) async throws {
        let (system, _, _, _) = try await system(grid)
        let beats = Mutex<[MusicBeat]>([])
        let subscription = system.music.onBeat { beat in beats.withLock { $0.append(beat) } }
        defer { subscription.cancel() }
        try system.music.play("main")
        let length = grid.trackFrames * 5 / 2
        _ = try system.engine.render(frames: length)
        let heard = beats.withLock { $0 }
        let expected = grid.beats.filter { $0 < length }
        #expect(heard.map { Int(($0.time.inSeconds * Double(grid.rate)).rounded()) } == expected, "\(grid)")
        // Beats count on through loops: n-th beat is bar n / beatsPerBar + 1.
        let numbers = heard.map { [$0.bar, $0.beat] }
        let counted = expected.indices.map { [$0 / grid.beatsPerBar + 1, $0 % grid.beatsPerBar + 1] }
        #expect(numbers == counted)
        #expect(heard.allSatisfy { $0.track == "main" })
    }

    @Test func beatsFollowTheNewTrackAfterASwitchAndStopWithTheMusic() async throws {
        let grid = Grid(bpm: 120, beatsPerBar: 4, downbeat: 0, rate: 48_000)
        let (system, _, _, _) = try await system(grid)
        let beats = Mutex<[MusicBeat]>([])
        let subscription = system.music.onBeat { beat in beats.withLock { $0.append(beat) } }
        defer { subscription.cancel() }
        try system.music.play("main")
        system.engine.schedule(at: .seconds(1.2)) { try? system.music.play("game", at: .nextBar) }
        system.music.stop(at: .seconds(3.1))
        _ = try system.engine.render(frames: 4 * 48_000)
        let heard = beats.withLock { $0 }
        // main: beats at 0, 0.5, 1.0, 1.5; game from its downbeat at 2.0 (the switch's frame, sent
        // once, as the new track's first), 2.5, 3.0.
        #expect(heard.map(\.time.inSeconds) == [0, 0.5, 1, 1.5, 2, 2.5, 3])
        #expect(heard.map(\.track) == ["main", "main", "main", "main", "game", "game", "game"])
        #expect(heard.map(\.bar) == [1, 1, 1, 1, 1, 1, 1] && heard.map(\.beat) == [1, 2, 3, 4, 1, 2, 3])
    }

    @Test func effectOnTheNextBeatStartsOnTheBeatFrame() async throws {
        let grid = Grid(bpm: 100, beatsPerBar: 4, downbeat: 0.013, rate: 48_000)
        let (system, _, _, _) = try await system(grid, silentMain: true)
        try system.music.play("main")
        let expected = try #require(grid.beats.first { $0 >= 36_960 })
        system.engine.schedule(at: .seconds(0.77)) { _ = try? system.effects.play("click", at: .nextBeat) }
        let mix = try system.engine.render(frames: expected + 4_800)
        #expect(AudioAnalysis.onset(mix, threshold: 0) == expected)
    }

    @Test func switchOnAMarkerWaitsForItThroughTheLoopAndStartsAtAMarker() async throws {
        let grid = Grid(bpm: 120, beatsPerBar: 4, downbeat: 0, rate: 48_000)
        let (system, _, game, _) = try await system(
            grid, mainExtra: ", \"markers\": {\"exit\": 1.7}", gameExtra: ", \"markers\": {\"in\": 0.5}")
        try system.music.play("main")
        // Asked after the marker: it comes again one loop (4 s) later.
        system.engine.schedule(at: .seconds(2)) {
            try? system.music.play("game", from: .marker("in"), at: .marker("exit"))
        }
        let expected = grid.trackFrames + 81_600
        let mix = try system.engine.render(frames: expected + 12_000)
        #expect(AudioAnalysis.largestDifference(mix, at: expected, game, from: 24_000, to: 36_000) < 1e-5)
        #expect(AudioAnalysis.rms(mix, frames: expected - 4_800..<expected) > 0.1)
    }

    @Test func multiplesOfBarsCountOnThroughLoops() async throws {
        // Two bars per loop, so bar 3 (0-based) is the second bar of the second pass.
        let grid = Grid(bpm: 128.5, beatsPerBar: 4, downbeat: 0.0371, rate: 48_000)
        let (system, _, game, _) = try await system(grid)
        try system.music.play("main")
        system.engine.schedule(at: .seconds(0.1)) { try? system.music.play("game", at: .bars(3)) }
        let expected = grid.barLines[3]
        let mix = try system.engine.render(frames: expected + 12_000)
        #expect(AudioAnalysis.largestDifference(mix, at: expected, game, from: 4_800, to: 14_800) < 1e-5)
    }

    @Test func aDeviceLostBeforeTheGridIsTiedHoldsThePositionByTheOutageOnce() async throws {
        let grid = Grid(bpm: 120, beatsPerBar: 4, downbeat: 0.25, rate: 48_000)
        let (system, _, _, _) = try await system(grid)
        let engine = system.engine
        // The station watches for the device's events only: with no other listener, triggers build
        // no events at all (while the losses below still reach it).
        #expect(!engine.hub.isListening)
        try system.music.play("main")
        // The track's voice begins on frame 0. On a device the grid is tied to that frame only when
        // the position is first asked for, which may come after the device goes: untied, as there.
        _ = try engine.render(frames: 24_000)
        system.music.state.withLock { $0.playing?.confirmed = false }
        engine.hub.send([.deviceLost(reason: "test", time: .seconds(0.5))])
        // What the recovery does to the voice: it begins again on the restore's frame (1.5 s).
        let voice = try #require(system.music.currentVoice)
        engine.mixer.run {
            engine.mixer.update { state in
                if let slot = state.pool.slot(of: voice) {
                    state.pool.update(slot) { $0.startFrame = 72_000 }
                }
                engine.mixer.publish(state)
            }
        }
        engine.hub.send([.deviceRestored(device: "test", time: .seconds(1.5))])
        // Held still through the 1 s outage: at 2 s it is where it was at 1 s (0.75 s past the
        // downbeat), not 1 s further back.
        #expect(
            system.music.musicalPosition(at: .seconds(2)) == MusicPosition(bar: 1, beat: 2, fraction: 0.5))
    }

    @Test func positionCountsBarsAndBeatsThroughLoopsAndHoldsWhilePaused() async throws {
        let grid = Grid(bpm: 120, beatsPerBar: 4, downbeat: 0.25, rate: 48_000)
        let (system, _, _, _) = try await system(grid)
        try system.music.play("main")
        _ = try system.engine.render(frames: 0)  // the switch is carried out: the grid is the track's
        #expect(
            system.music.musicalPosition(at: .seconds(1.5)) == MusicPosition(bar: 1, beat: 3, fraction: 0.5))
        #expect(system.music.musicalPosition(at: .zero) == MusicPosition(bar: 0, beat: 4, fraction: 0.5))
        // Second pass of the 4 s loop: 2.5 s into the file is beat 4.5, plus the loop's 8 beats.
        #expect(
            system.music.musicalPosition(at: .seconds(6.5)) == MusicPosition(bar: 4, beat: 1, fraction: 0.5))
        _ = try system.engine.render(frames: 48_000)
        system.music.pause()
        _ = try system.engine.render(frames: 0)
        let held = system.music.musicalPosition()
        _ = try system.engine.render(frames: 48_000)
        #expect(system.music.musicalPosition() == held)
        // Paused, the next bar is reckoned as if the music went on from now.
        #expect(try system.music.time(of: .nextBar)?.inSeconds == 2.25 + 1)
        system.music.resume()
        _ = try system.engine.render(frames: 0)
        #expect(try system.music.time(of: .nextBar)?.inSeconds == 3.25)
        #expect(
            system.music.musicalPosition(at: .seconds(3.25)) == MusicPosition(bar: 2, beat: 1, fraction: 0))
    }

    @Test func gridPointsThatCannotBeFoundAreErrors() async throws {
        let assets = try TestAssets()
        try assets.addWAV("plain", Signals.stereoTones(left: 220, right: 330, seconds: 1.5), kind: "music")
        try assets.addWAV("game", Signals.stereoTones(left: 523, right: 784, seconds: 1.5), kind: "music")
        try assets.addWAV("click", Signals.noise(seconds: 0.1, channels: 2), kind: "effect")
        let system = try await assets.system()
        // Nothing playing: there is no grid to wait for, so the switch is at once.
        #expect(try system.music.time(of: .nextBar) == nil)
        try system.music.play("plain")
        _ = try system.engine.render(frames: 0)
        #expect(throws: MusicError.noTempo(track: "plain")) { try system.music.play("game", at: .nextBar) }
        #expect(throws: MusicError.noTempo(track: "plain")) {
            try system.effects.play("click", at: .nextBeat)
        }
        #expect(throws: MusicError.invalidBars(0)) { try system.music.play("game", at: .bars(0)) }
        #expect(
            throws: MusicError.load(.catalogue(.unknownMarker(name: "plain", marker: "exit", known: [])))
        ) { try system.music.play("game", at: .marker("exit")) }
        #expect(throws: MusicError.load(.catalogue(.unknownMarker(name: "game", marker: "in", known: [])))) {
            try system.music.play("game", from: .marker("in"), at: .now)
        }
        let lone = EffectStation(bank: system.bank)
        #expect(throws: MusicError.noTimeline) { try lone.play("click", at: .nextBar) }
        let error = MusicError.noTempo(track: "plain").description
        #expect(error.contains("\"plain\"") && error.contains("\"bpm\""))
        #expect(system.music.current == "plain")
    }
}

@Suite struct StreamedGridTests {
    @Test func aStreamedTrackKeepsItsGrid() async throws {
        // Two bars at 150 bpm (3.2 s), streamed from Ogg; the switch on the bar asked at 0.8 s into
        // its second pass lands on 3.2 + 1.6 s.
        let assets = try TestAssets()
        let tones = Signals.stereoTones(left: 220, right: 330, seconds: 3.2)
        try assets.addOgg("main", tones, extra: "\"stream\": true, \"bpm\": 150")
        let game = Signals.noise(seconds: 2, amplitude: 0.3, channels: 2, seed: 3)
        try assets.addWAV("game", game, kind: "music")
        let system = try await assets.system()
        #expect(system.bank.isStreamed("main"))
        try system.music.play("main")
        system.engine.schedule(at: .seconds(4)) { try? system.music.play("game", at: .nextBar) }
        let expected = 230_400
        let mix = try system.engine.render(frames: expected + 9_600)
        #expect(AudioAnalysis.largestDifference(mix, at: expected, game, from: 0, to: 9_600) < 1e-5)
        #expect(AudioAnalysis.rms(mix, frames: expected - 9_600..<expected) > 0.1)
    }
}
