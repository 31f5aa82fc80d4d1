import Foundation
import Synchronization
import Testing

@testable import SoundStation

/// Silent and remote output keep a device's books on a small mono loopback device and stream
/// silence of a track's length: what a game sees (its events and their engine-clock times) must be
/// what a device engine would show.
@Suite struct QuietOutputTests {
    /// The started and finished times of each voice, by sound name.
    private final class Lifetimes: Sendable {
        let times = Mutex<[String: (started: Duration?, finished: Duration?, reason: String?)]>([:])

        func record(_ event: SoundEvent) {
            times.withLock { times in
                switch event {
                case .started(_, let sound, let time): times[sound, default: (nil, nil, nil)].started = time
                case .finished(_, let sound, let reason, let time):
                    times[sound, default: (nil, nil, nil)].finished = time
                    times[sound, default: (nil, nil, nil)].reason = reason.rawValue
                default: break
                }
            }
        }

        var finishedCount: Int { times.withLock { $0.values.filter { $0.finished != nil }.count } }
    }

    /// Polls with a deadline, blocking this thread: the engine runs on the wall clock, and a task
    /// suspended behind busy suites could wake long after the sounds ended.
    private func wait(for lifetimes: Lifetimes, count: Int) {
        let deadline = ContinuousClock.now + .seconds(20)
        while lifetimes.finishedCount < count, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.005)
        }
    }

    /// The first round comes after the engine's own opening (device, mixer, remote link): it mixes
    /// all of it, so the clock keeps the wall clock's time that messages sent before it were stamped
    /// by. A later round held up as long (a stopped process) mixes a quarter of a second and skips
    /// the rest.
    @Test("a quiet engine's first round mixes its whole opening; a later late round skips the rest")
    func firstRoundKeepsTheOpening() {
        let opened = WallClock.now() - 400_000_000
        let driver = QuietDriver(wallClock: WallClock(start: opened, sampleRate: 48_000), realTime: false)
        #expect(driver.clockFrame(rendered: 0) >= 19_200, "before the first round: the wall clock")
        let first = driver.roundFrames(rendered: 0)
        #expect(first >= 19_200, "the first round mixed \(first) frames of the 0.4 s opening")
        #expect(driver.quietWallFrame >= Int64(first), "the first round skipped nothing")
        // The hold-up under test, not a wait for something: a round 0.4 s late.
        Thread.sleep(forTimeInterval: 0.4)
        let second = driver.roundFrames(rendered: Int64(first))
        #expect(second == 12_000, "a late round mixes a quarter of a second")
        let ahead = driver.quietWallFrame - Int64(first) - 12_000
        #expect(ahead >= 0 && ahead < 4_800, "the rest was skipped: the clock \(ahead) frames past the mix")
    }

    @Test("on silent output a one-shot, a pitched one-shot and a streamed track end when their sounds do")
    func voicesEndOnTime() throws {
        let folder = try DecodingTestDirectory()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        // A track at another rate than the engine's, stereo: the small mix converts both.
        let path = folder.path("track.wav")
        try WAVWriter.write(
            Signals.sine(frequency: 300, seconds: 0.3, sampleRate: 44_100, channels: 2), toFileAt: path,
            format: .float32)
        let engine = try AudioEngine(output: .silent)
        defer { engine.shutdown() }
        #expect(engine.sampleRate == 48_000 && engine.channels == 2)
        let lifetimes = Lifetimes()
        engine.onEvent { lifetimes.record($0) }
        let beep = try engine.makeBuffer(Signals.sine(frequency: 500, seconds: 0.1), name: "beep")
        let slow = try engine.makeBuffer(Signals.sine(frequency: 500, seconds: 0.2), name: "high")
        let stream = try engine.makeStream(fileAt: path)
        try engine.play(beep)
        try engine.play(slow, options: PlayOptions(pitch: 2))
        try engine.play(stream)
        wait(for: lifetimes, count: 3)
        let times = lifetimes.times.withLock { $0 }
        for (name, length) in [("beep", 0.1), ("high", 0.1), ("track.wav", 0.3)] {
            let lifetime = try #require(times[name], "\(name) never started")
            let started = try #require(lifetime.started)
            let finished = try #require(lifetime.finished)
            #expect(lifetime.reason == "ended")
            // A voice's end is seen by the round at its predicted end, or one quantum (5.3 ms) later.
            let heard = (finished - started).inSeconds
            #expect(heard >= length - 0.001 && heard <= length + 0.012, "\(name) lasted \(heard) s")
        }
    }

    @Test("on silent output a play is carried out at the frame it came, not where the last round ended")
    func commandsTakeTheFrameTheyCameAt() throws {
        let engine = try AudioEngine(output: .silent)
        defer { engine.shutdown() }
        // What a remote output sends the player as each command's frame on the game's clock.
        let stamps = Mutex<[Int64]>([])
        engine.commandTap.withLock {
            $0 = { command, frame in
                if case .play = command { stamps.withLock { $0.append(frame) } }
            }
        }
        let beep = try engine.makeBuffer(Signals.sine(frequency: 500, seconds: 0.02), name: "beep")
        var calls: [Int64] = []
        for count in 1...3 {
            // Nothing is due: the driver sleeps (up to a quarter of a second) while the clock moves on.
            Thread.sleep(forTimeInterval: 0.1)
            calls.append(engine.frameNow)
            try engine.play(beep)
            let deadline = ContinuousClock.now + .seconds(10)
            while stamps.withLock({ $0.count }) < count, ContinuousClock.now < deadline {
                Thread.sleep(forTimeInterval: 0.002)
            }
        }
        let frames = stamps.withLock { $0 }
        try #require(frames.count == 3)
        for (call, frame) in zip(calls, frames) {
            // Never before the clock read just before the call (the last round ended up to 100 ms
            // before it); a frame after it is the driver's wake-up time.
            #expect(frame >= call, "a play at frame \(call) was carried out at \(frame)")
        }
    }

    @Test("a quiet engine's track is silence of the track's length, read without decoding, and seeks")
    func silentDecoderKeepsTheLength() {
        let info = AudioFileInfo(format: .wav, sampleRate: 44_100, channels: 2, frameCount: 10_000)
        let decoder = SilentDecoder(info: info)
        let first = decoder.read(maxFrames: 8_192)
        #expect(first.count == 8_192 * 2 && first.allSatisfy { $0 == 0 })
        #expect(decoder.read(maxFrames: 8_192).count == (10_000 - 8_192) * 2)
        #expect(decoder.read(maxFrames: 8_192).isEmpty)
        decoder.seek(toFrame: 9_000)
        #expect(decoder.read(maxFrames: 8_192).count == 1_000 * 2)
        decoder.seek(toFrame: -5)
        #expect(decoder.read(maxFrames: 100).count == 200)
    }

    @Test("the quiet mix runs ahead of the clock by less than one of its frames")
    func quietFramesCoverTheClock() {
        for frame: Int64 in [0, 1, 5, 6, 7, 47_999, 48_000, 1_000_003] {
            let quiet = Mixer.quietFrames(at: frame, rate: 48_000)
            let covered = Double(quiet) * 6
            #expect(covered >= Double(frame) && covered < Double(frame) + 6, "frame \(frame): \(quiet)")
        }
        #expect(Mixer.quietFrames(at: 44_100, rate: 44_100) == 8_000)
    }
}
