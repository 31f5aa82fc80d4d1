import Testing

@testable import SoundStationPlayer

/// The player's arrival clock against a render clock that steps as a sound server takes pieces.
@Suite struct ArrivalClockTests {
    /// A speaker whose device takes three 10 ms pieces every 30 ms, keeping 80 ms rendered ahead: the
    /// render clock leads the wall clock by 80 ms after each render and by 50 ms just before the next.
    struct SteppingRender {
        var clock = ArrivalClock()
        var render = 0.08
        var lastTake = 0.0

        /// The render clock at wall time `wall`, after the renders due by then.
        mutating func advance(to wall: Double) -> Double {
            while lastTake + 0.03 <= wall {
                lastTake += 0.03
                render += 0.03
                clock.rendered(render, at: lastTake)
            }
            return render
        }
    }

    @Test func equalLinkLagsReadEqualWhereverTheRenderStepped() throws {
        var speaker = SteppingRender()
        speaker.clock.rendered(speaker.render, at: 0)
        var steady: [Double] = []
        var raw: [Double] = []
        // A message every 7 ms (every phase of the render's steps), each 5 ms after its send.
        for index in 0..<400 {
            let sent = 0.5 + Double(index) * 0.007
            let read = sent + 0.005
            let render = speaker.advance(to: read)
            let arrival = try #require(speaker.clock.arrival(at: read))
            #expect(arrival >= render - 1e-9, "the render clock ran ahead of the arrival clock at \(read)")
            steady.append(arrival - sent)
            raw.append(render - sent)
        }
        let steadySpread = steady.max()! - steady.min()!
        let rawSpread = raw.max()! - raw.min()!
        #expect(steadySpread < 0.0005, "arrival lags spread \(steadySpread * 1000) ms")
        // What the render clock alone read: its steps, 30 ms of a link that did not move.
        #expect(rawSpread > 0.025, "the render clock's lags spread \(rawSpread * 1000) ms")
    }

    @Test func aLinkWithinTheDelayIsNeverLateWhateverThePhaseOfTheFirstMessage() throws {
        // The anchor taken from a message read just before a step and a later one just after it,
        // 70 ms slower on the link than the anchor: within the 80 ms delay.
        for anchorPhase in stride(from: 0.0, to: 0.03, by: 0.003) {
            var speaker = SteppingRender()
            speaker.clock.rendered(speaker.render, at: 0)
            var remote = RemoteClock(delay: 0.08)
            var late = 0
            for index in 0..<50 {
                let sent = 0.3 + anchorPhase + Double(index) * 0.1
                let link = index == 0 ? 0.001 : 0.001 + Double(index % 8) * 0.01
                let read = sent + link
                _ = speaker.advance(to: read)
                let arrival = try #require(speaker.clock.arrival(at: read))
                if remote.observe(lag: arrival - sent, arrival: arrival, placing: index > 0).late {
                    late += 1
                }
            }
            #expect(late == 0, "late messages with the first read \(anchorPhase * 1000) ms into a step")
        }
    }

    @Test func aRenderThatFallsBackIsFollowedWithinTwoWindows() throws {
        var clock = ArrivalClock()
        clock.rendered(0.08, at: 0)
        // The lead falls from 80 to 60 ms (the render skipped back, say) and stays there.
        var wall = 0.01
        while wall < 3 {
            clock.rendered(wall + 0.06, at: wall)
            wall += 0.01
        }
        let arrival = try #require(clock.arrival(at: wall))
        #expect(abs(arrival - wall - 0.06) < 1e-9, "lead \((arrival - wall) * 1000) ms")
    }
}
