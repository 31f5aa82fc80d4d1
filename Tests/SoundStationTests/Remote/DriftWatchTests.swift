import Testing

@testable import SoundStation
@testable import SoundStationPlayer

/// The speaker's watch on the device's timing, driven by positions and times given here.
@Suite struct DriftWatchTests {
    static let rate = 48_000.0

    /// Polls every 2 ms from `start` for `seconds`, the device `lag` frames behind the wall clock;
    /// returns the frames to drop each poll asked for.
    static func play(_ watch: inout DriftWatch, from start: Double, seconds: Double, lag: Int) -> [Int] {
        stride(from: start, to: start + seconds, by: 0.002).map {
            watch.observe(position: Int($0 * rate) - lag, at: $0)
        }
    }

    @Test func aSourceThatRanDryIsCaughtUpAtOnceByItsGap() {
        var watch = DriftWatch(rate: Self.rate, period: 50)
        #expect(Self.play(&watch, from: 0, seconds: 0.5, lag: 9_000).allSatisfy { $0 == 0 })
        // Held up 0.3 s: the device played 0.3 s of silence; the source restarts 14,400 frames
        // behind. All of it is dropped before the refill (the windows would take two of theirs).
        #expect(watch.restart(position: Int(0.8 * Self.rate) - 9_000 - 14_400, at: 0.8) == 14_400)
        // Caught up, it plays on without more drops.
        #expect(Self.play(&watch, from: 0.802, seconds: 0.5, lag: 9_000).allSatisfy { $0 == 0 })
    }

    @Test func aDryRestartWithinTheSlackOrBeforeSteadyPlayDropsNothing() {
        var watch = DriftWatch(rate: Self.rate, period: 50)
        #expect(watch.restart(position: 0, at: 1) == 0)
        _ = Self.play(&watch, from: 1, seconds: 0.5, lag: 9_000)
        #expect(watch.restart(position: Int(1.6 * Self.rate) - 9_000 - DriftWatch.slack, at: 1.6) == 0)
    }

    @Test func aPlayingSourceBehindInTwoWindowsDropsTheSmallerLag() {
        var watch = DriftWatch(rate: Self.rate, period: 50)
        _ = Self.play(&watch, from: 0, seconds: 0.5, lag: 9_000)
        // 2,000 frames more behind from 0.5 s; what is dropped moves the position on.
        var drops: [Int] = []
        for now in stride(from: 0.5, to: 0.8, by: 0.002) {
            let drop = watch.observe(position: Int(now * Self.rate) - 11_000 + drops.reduce(0, +), at: now)
            if drop > 0 { drops.append(drop) }
        }
        #expect(drops == [2_000])
    }

    @Test func aPlayingSourceAFewMillisecondsBehindDropsNothing() {
        var watch = DriftWatch(rate: Self.rate, period: 50)
        _ = Self.play(&watch, from: 0, seconds: 0.5, lag: 9_000)
        // Readings 2.5 ms behind the floor for a second (a sound server's latency reports wander by
        // that much): dropping them would put the next sounds 2.5 ms early.
        #expect(Self.play(&watch, from: 0.5, seconds: 1, lag: 9_120).allSatisfy { $0 == 0 })
        // 12 ms behind is a real drift: dropped.
        #expect(Self.play(&watch, from: 1.5, seconds: 0.5, lag: 9_576).contains { $0 > 0 })
    }

    /// A thread held up past its queue while the source still plays: the queue is dropped only when
    /// the device fell behind with it (the process stopped), not when it played on.
    @Test func aHoldUpDropsTheQueueOnlyWhenTheDeviceWasHeldUpToo() {
        var watch = DriftWatch(rate: Self.rate, period: 50)
        #expect(watch.wasHeldUp(position: 0, at: 0.1), "before steady play: taken as held up")
        _ = Self.play(&watch, from: 0, seconds: 0.5, lag: 9_000)
        // Only the thread was late: the device's position is on time (a few frames off the floor).
        #expect(!watch.wasHeldUp(position: Int(0.6 * Self.rate) - 9_000 - 40, at: 0.6))
        // The process stopped 0.3 s: the device is that far behind.
        #expect(watch.wasHeldUp(position: Int(0.9 * Self.rate) - 9_000 - 14_400, at: 0.9))
        #expect(watch.wasHeldUp(position: nil, at: 0.9), "no reading: taken as held up")
    }

    @Test func readingsAheadJustAfterADryRestartDoNotMoveTheFloor() {
        var watch = DriftWatch(rate: Self.rate, period: 50)
        _ = Self.play(&watch, from: 0, seconds: 0.5, lag: 9_000)
        #expect(watch.floor == 9_000)
        _ = watch.restart(position: Int(0.8 * Self.rate) - 9_000 - 14_400, at: 0.8)
        // The sound server reports 4 ms less latency while it starts the stream again.
        _ = Self.play(&watch, from: 0.802, seconds: 0.3, lag: 9_000 - 192)
        #expect(watch.floor == 9_000)
        // Past the settling time, a device that plays ahead lowers it.
        _ = Self.play(&watch, from: 1.4, seconds: 0.2, lag: 9_000 - 192)
        #expect(watch.floor == 9_000 - 192)
    }
}
