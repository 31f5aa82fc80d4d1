import Foundation
import SoundStationTesting
import Testing

@testable import SoundStation
@testable import SoundStationPlayer

/// The player's clock mapping: a message later than the jitter buffer, alone or in a burst, leaves
/// it where it is (every later sound keeps its time); a link whose delay really grew moves it after
/// a window; a faster link moves it a quantum per drift window; and the player's render shows it.
@Suite struct RemoteClockTests {
    /// A server with one beep, the commands it carries out kept as a link receives them, and a player
    /// that has loaded its catalogue; every message reaches the player when the player's clock (its
    /// render's) reads what the test rendered. Keep the assets while the session runs; close the
    /// player at the end.
    static func beepSession() async throws -> (
        assets: TestAssets, server: SoundSystem, sent: Locked<[(EngineCommand, Int64)]>,
        side: RemoteTestPlayer, beep: SoundID
    ) {
        let assets = try TestAssets()
        try assets.addWAV("beep", RemoteSessionTests.beep)
        let server = try await assets.system()
        let sent = server.engine.recordCommands()
        let side = try RemoteTestPlayer()
        try await side.open(server.catalogue)
        return (assets, server, sent, side, try server.bank.id(of: "beep"))
    }

    /// A message every 0.1 s of arrival for `seconds` from `start`, each `lag` late.
    static func steady(
        _ clock: inout RemoteClock, from start: Double, seconds: Double, lag: Double
    ) -> [RemoteClock.Observation] {
        stride(from: start, to: start + seconds, by: 0.1).map {
            clock.observe(lag: lag, arrival: $0, placing: true)
        }
    }

    @Test func oneLateMessageLeavesTheMappingWhereItIs() {
        var clock = RemoteClock(delay: 0.08)
        _ = clock.observe(lag: 0.010, arrival: 0, placing: false)
        _ = Self.steady(&clock, from: 0.1, seconds: 2, lag: 0.012)
        let late = clock.observe(lag: 0.250, arrival: 2.1, placing: true)
        #expect(late == RemoteClock.Observation(beyond: 0.240, late: true, moved: false))
        let after = Self.steady(&clock, from: 2.2, seconds: 3, lag: 0.011)
        #expect(clock.offset == 0.010)
        #expect(after.allSatisfy { !$0.moved && !$0.late })
    }

    @Test func aBurstReadAtOnceAfterAHoldUpLeavesTheMappingWhereItIs() {
        var clock = RemoteClock(delay: 0.08)
        _ = clock.observe(lag: 0.010, arrival: 0, placing: true)
        // Ten messages queued while the player was held up 0.3 s, all read at the same moment.
        let burst = (0..<10).map { clock.observe(lag: 0.3 - Double($0) * 0.01, arrival: 1.3, placing: true) }
        #expect(burst.allSatisfy { $0.late && !$0.moved })
        // Two late messages a second apart are not enough either.
        #expect(!clock.observe(lag: 0.2, arrival: 2.4, placing: true).moved)
        #expect(clock.offset == 0.010)
    }

    @Test func aLinkWhoseDelayGrewMovesTheMappingAfterTheLateWindow() {
        var clock = RemoteClock(delay: 0.08)
        _ = clock.observe(lag: 0.010, arrival: 0, placing: true)
        _ = Self.steady(&clock, from: 0.1, seconds: 1, lag: 0.012)
        // From 1.1 s every message is 0.3 s late (the fastest 0.29).
        var seen = Self.steady(&clock, from: 1.1, seconds: 0.5, lag: 0.3)
        seen.append(clock.observe(lag: 0.29, arrival: 1.6, placing: true))
        seen += Self.steady(&clock, from: 1.7, seconds: 0.35, lag: 0.3)
        #expect(seen.allSatisfy { $0.late && !$0.moved })
        #expect(clock.offset == 0.010)
        let moved = clock.observe(lag: 0.3, arrival: 2.1, placing: true)
        #expect(moved.moved)
        #expect(clock.offset == 0.29)
        // Back in step: nothing is late, nothing moves.
        #expect(Self.steady(&clock, from: 2.2, seconds: 3, lag: 0.3).allSatisfy { !$0.late && !$0.moved })
    }

    @Test func aFasterLinkMovesTheMappingAQuantumPerDriftWindowAndTheFirstCommandFixesIt() {
        var clock = RemoteClock(delay: 0.08)
        _ = clock.observe(lag: 0.050, arrival: 0, placing: false)
        // Before the first command the mapping follows the fastest message.
        _ = clock.observe(lag: 0.040, arrival: 0.1, placing: false)
        #expect(clock.offset == 0.040)
        _ = clock.observe(lag: 0.030, arrival: 0.2, placing: true)
        #expect(clock.offset == 0.040)
        // 20 ms faster for 10 s: one quantum (5.33 ms) nearer, not the whole way at once.
        let step = RemoteClock.resyncStep
        let seen = Self.steady(&clock, from: 0.3, seconds: 10, lag: 0.020)
        #expect(seen.filter(\.moved).count == 1)
        #expect(clock.offset == 0.040 - step)
        #expect(abs(step - 256.0 / 48_000) < 1e-12)
        // Now within the margin (14.7 ms faster): it stays.
        #expect(Self.steady(&clock, from: 10.3, seconds: 30, lag: 0.020).allSatisfy { !$0.moved })
        #expect(clock.offset == 0.040 - step)
        // 40 ms faster than that: a quantum a window until it is within the margin again.
        let faster = Self.steady(&clock, from: 40.3, seconds: 60, lag: -0.005)
        #expect(faster.filter(\.moved).count == 5)
        #expect(abs(clock.offset! - (0.040 - 6 * step)) < 1e-12)
    }

    /// On real samples: the player's render of two beeps, with a clock message 0.4 s late between
    /// them, holds the second at its server time plus the delay (moving the mapping for that one
    /// message put it 0.4 s late).
    @Test func theSoundAfterALateMessageIsRenderedAtItsTime() async throws {
        let (assets, server, sent, side, id) = try await Self.beepSession()
        defer { withExtendedLifetime(assets) { side.close() } }
        let player = side.player

        // Local 0 s: a beep for server 0.2 s, sent on time.
        // The server's mixing side takes the command (and stamps its frame) when it renders.
        try server.effects.play("beep", at: .milliseconds(200))
        _ = try server.engine.render(frames: 480)
        let first = sent.withLock { $0 }
        try await side.send(first, naming: [(id, "beep")])
        let before = try side.engine.render(frames: 24_000)
        #expect(AudioAnalysis.onset(before, threshold: 0.05) == 9_600 + RemoteTestPlayer.shift)

        // Local 0.5 s: a clock message from server 0.1 s (0.4 s late: the player was held up, or
        // the link hiccupped), then a beep for server 0.9 s sent on time at server 0.5 s.
        _ = try server.engine.render(frames: 24_000 - 480)
        sent.withLock { $0.removeAll() }
        try server.effects.play("beep", at: .milliseconds(900))
        _ = try server.engine.render(frames: 480)
        let second = sent.withLock { $0 }
        try await side.send(second, after: [.clock(frame: 4_800)])
        let after = try side.engine.render(frames: 48_000)
        // Server 0.9 s plus the player's shift, in this render (which began at local frame 24,000).
        #expect(AudioAnalysis.onset(after, threshold: 0.05) == 43_200 + RemoteTestPlayer.shift - 24_000)
        #expect(first.count == 1 && second.count == 1)
        #expect(player.report.resyncs == 0 && player.report.lateMessages == 1 && player.report.late == 0)
    }

    /// A play whose message comes later than its time and the delay plays at once, and the report
    /// names it with how late it was placed: what a check of the heard sound judges it by (counted
    /// run 53: one of Starfall's plays came 100 ms after the buffer and was heard 82 ms late, where
    /// the player had put it, and the check, judging it at its time, failed).
    @Test func aPlayWhoseMessageComesLatePlaysAtOnceAndTheReportSaysHowLate() async throws {
        let (assets, server, sent, side, id) = try await Self.beepSession()
        defer { withExtendedLifetime(assets) { side.close() } }

        // A beep for server 0.2 s whose message arrives at local 0.5 s: 0.3 s after it was sent,
        // 0.2 s more than the 100 ms delay absorbs.
        try server.effects.play("beep", at: .milliseconds(200))
        _ = try server.engine.render(frames: 480)
        let before = try side.engine.render(frames: 24_000)
        try await side.send(sent.withLock { $0 }, naming: [(id, "beep")])
        let after = try side.engine.render(frames: 24_000)
        #expect(AudioAnalysis.onset(before, threshold: 0.05) == nil)
        #expect(AudioAnalysis.onset(after, threshold: 0.05) == 0, "played at once, at local 0.5 s")
        let report = side.player.report
        #expect(report.late == 1 && report.lateMessages == 1 && report.resyncs == 0)
        #expect(report.latePlays.map(\.frame) == [9_600])
        #expect(report.latePlays.map(\.by) == [Double(24_000 - 9_600 - RemoteTestPlayer.shift) / 48_000])
    }
}
