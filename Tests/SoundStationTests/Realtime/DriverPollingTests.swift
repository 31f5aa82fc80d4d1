import Foundation
import Glibc
import Testing

@testable import SoundStation

/// A device's driver polls while the game is active and sleeps once it has been silent: a command
/// within ``DriverThread/activeWindow`` of the last (or of the engine's start) is carried out without
/// its caller posting the driver's semaphore, also after a quiet spell longer than the busy
/// ``DriverThread/pollingWindow``; after ``DriverThread/activeWindow`` of silence the driver sleeps
/// until a command wakes it. Counts only: every wait has a deadline of seconds, so a slow machine
/// fails nothing.
@Suite struct DriverPollingTests {
    private static func tone(_ engine: AudioEngine) throws -> SoundBuffer {
        let audio = PCMAudio(sampleRate: 48_000, channels: 1, samples: [Float](repeating: 0.1, count: 480))
        return try engine.makeBuffer(audio, name: "tick")
    }

    /// Waits (up to 5 s, without waking the driver) until the driver has carried out `voice`'s play.
    private static func carriedOut(_ voice: VoiceHandle, by engine: AudioEngine) -> Bool {
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            if engine.published.withLock({ $0.lastTicket >= voice.ticket }) { return true }
            usleep(1_000)
        }
        return false
    }

    @Test func aCommandAfterAQuietSpellCostsItsCallerNoPost() throws {
        let engine = try AudioEngine(output: .device())
        defer { engine.shutdown() }
        let buffer = try Self.tone(engine)
        // Quiet spells past the busy window (after which a driver that only polled while commands
        // kept coming would sleep on its semaphore), well within the active window.
        let quiet = DriverThread.pollingWindow * 3
        #expect(quiet * 2 < DriverThread.activeWindow)
        var done = ContinuousClock.now
        var (checked, tries) = (0, 0)
        while checked < 3, tries < 20 {
            tries += 1
            usleep(UInt32(quiet.inSeconds * 1e6))
            let posts = engine.ring.posts
            // The spell as the driver saw it, give or take the wait's look: a machine so busy that
            // the sleep overran the active window (the driver then rightly slept) checks nothing.
            let spell = ContinuousClock.now - done
            let voice = try #require(try engine.play(buffer))
            #expect(Self.carriedOut(voice, by: engine))
            done = ContinuousClock.now
            if spell < DriverThread.activeWindow - .milliseconds(200) {
                #expect(engine.ring.posts == posts)
                checked += 1
            }
        }
        #expect(checked == 3)
    }

    @Test func aSilentGamesDriverSleepsUntilACommandWakesIt() throws {
        let engine = try AudioEngine(output: .device())
        defer { engine.shutdown() }
        let buffer = try Self.tone(engine)
        let first = try #require(try engine.play(buffer))
        #expect(Self.carriedOut(first, by: engine))
        // Silent past the active window (and the poll that began in it): the driver has gone to sleep
        // on its semaphore, so the next command posts it, once, and is carried out. (Had the driver
        // kept polling, nothing would be posted.)
        let silence = DriverThread.activeWindow * 2 + DriverThread.longestSleep * 2
        usleep(UInt32(silence.inSeconds * 1e6))
        let posts = engine.ring.posts
        let voice = try #require(try engine.play(buffer))
        #expect(Self.carriedOut(voice, by: engine))
        #expect(engine.ring.posts == posts + 1)
    }
}
