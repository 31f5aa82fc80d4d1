import CSoundStationRT
import Dispatch
import Foundation
import Glibc
import Testing

@testable import SoundStation

/// How the driver's sleeps end: a kick ends a poll (which a lone command does not), a burst of
/// commands kicks, and a publication wakes a thread waiting for one. Every sleep here is 10 s and
/// every check gives it 5 s to end, so a wake-up that never comes fails rather than slips by.
@Suite struct CommandRingWakeTests {
    /// Starts `sleep` on another thread, then runs `wake`; whether the sleep ended within 5 s.
    private func ends(_ sleep: @escaping @Sendable () -> Void, after wake: () -> Void) -> Bool {
        let started = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        Thread {
            started.signal()
            sleep()
            done.signal()
        }.start()
        started.wait()
        wake()
        return done.wait(timeout: .now() + 5) == .success
    }

    @Test func aKickEndsAPoll() throws {
        let ring = try CommandRing()
        let ended = ends({ ring.poll(.seconds(10)) }, after: { ring.kick() })
        #expect(ended)
    }

    @Test func aBurstOfCommandsEndsAPollThatOneCommandDoesNot() throws {
        let ring = try CommandRing()
        let done = DispatchSemaphore(value: 0)
        let sleeper = PosixThread {
            ring.poll(.seconds(10))
            done.signal()
        }
        sleeper.name = "ring-sleeper"
        sleeper.start()
        // A poll that finds a command waiting returns at once: write only once it sleeps.
        try #require(Self.asleep("ring-sleeper"))
        // Commands written while the driver polls post nothing: the poll goes on...
        for _ in 0..<63 { #expect(ring.push(ssrt_command())) }
        #expect(done.wait(timeout: .now() + 0.2) == .timedOut)
        // ...until a burst's worth waits.
        #expect(ring.push(ssrt_command()))
        #expect(done.wait(timeout: .now() + 5) == .success)
    }

    @Test func aCommandEndsAPollAtItsNextLookWithoutAPost() throws {
        let ring = try CommandRing()
        let ended = try endsAsleep(
            "ring-looker", { ring.poll(.seconds(10), every: .milliseconds(1)) },
            after: { #expect(ring.push(ssrt_command())) })
        #expect(ended)
        #expect(ring.posts == 0)
    }

    @Test func aWakeEndsAPollAtItsNextLookWithoutAPost() throws {
        let ring = try CommandRing()
        let ended = try endsAsleep(
            "ring-waker", { ring.poll(.seconds(10), every: .milliseconds(1)) }, after: { ring.wake() })
        #expect(ended)
        #expect(ring.posts == 0)
    }

    @Test func aWakeBetweenTwoPollsIsAnsweredByTheSecondAtOnce() throws {
        let ring = try CommandRing()
        // The driver polls from here on; the first poll ends at the command (its round would follow)...
        #expect(!ring.poll(.zero))
        #expect(ring.push(ssrt_command()))
        #expect(ring.poll(.seconds(10), every: .seconds(10)))
        ring.drain { _ in }
        // ...a stream's chunk is ready while that round runs: the next poll, which would look only
        // after 10 s, returns at once, and nobody posted.
        ring.wake()
        let ended = ends({ ring.poll(.seconds(10), every: .seconds(10)) }, after: {})
        #expect(ended)
        #expect(ring.posts == 0)
    }

    @Test func aCommandWakesASleepingDriverWithOnePost() throws {
        let ring = try CommandRing()
        let ended = try endsAsleep(
            "ring-sleeper2", { ring.wait(.seconds(10)) },
            after: { for _ in 0..<3 { #expect(ring.push(ssrt_command())) } })
        #expect(ended)
        #expect(ring.posts == 1)
    }

    /// Runs `sleep` on a thread named `name`, runs `wake` once the thread sleeps in the kernel, and
    /// returns whether the sleep ended within 5 s.
    private func endsAsleep(
        _ name: String, _ sleep: @escaping @Sendable () -> Void, after wake: () -> Void
    ) throws -> Bool {
        let done = DispatchSemaphore(value: 0)
        let sleeper = PosixThread {
            sleep()
            done.signal()
        }
        sleeper.name = name
        sleeper.start()
        try #require(Self.asleep(name))
        wake()
        return done.wait(timeout: .now() + 5) == .success
    }

    /// Waits (up to 5 s) until this process's thread named `name` is blocked in the kernel (state
    /// `S` in /proc): past every step before its sleep.
    private static func asleep(_ name: String) -> Bool {
        let deadline = Date.now + 5
        while Date.now < deadline {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
            for task in tasks {
                let folder = "/proc/self/task/\(task)"
                guard let comm = try? String(contentsOfFile: folder + "/comm", encoding: .utf8),
                    comm.trimmingCharacters(in: .whitespacesAndNewlines) == name,
                    let stat = try? String(contentsOfFile: folder + "/stat", encoding: .utf8),
                    let end = stat.lastIndex(of: ")")
                else { continue }
                if stat[stat.index(after: end)...].split(separator: " ").first == "S" { return true }
            }
            sched_yield()
        }
        return false
    }

    @Test func aPublicationWakesAThreadWaitingForOne() throws {
        let ring = try CommandRing()
        let seen = ring.publications
        let woken = ends(
            { ring.waitForPublication(after: seen, timeout: .seconds(10)) }, after: { ring.notePublished() })
        #expect(woken)
        #expect(ring.publications == seen &+ 1)
    }

    @Test func aDeviceEngineWaitsForItsDriverEvenWhileItPolls() throws {
        let engine = try AudioEngine(output: .device())
        defer { engine.shutdown() }
        let audio = PCMAudio(sampleRate: 48_000, channels: 1, samples: [Float](repeating: 0.1, count: 4_800))
        let buffer = try engine.makeBuffer(audio, name: "level")
        // Triggers keep the driver polling; each wait must still see its play carried out.
        for _ in 0..<20 {
            let voice = try #require(try engine.play(buffer))
            #expect(engine.waitForMixer(timeout: .seconds(5)))
            #expect(engine.published.withLock { $0.lastTicket >= voice.ticket })
        }
    }
}
