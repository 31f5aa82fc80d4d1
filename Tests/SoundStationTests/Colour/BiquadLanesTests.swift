import CSoundStationRT
import Foundation
import Testing

@testable import SoundStation

/// The biquads run side by side (issue 23): the same samples, to the bit, as one voice at a time.
@Suite struct BiquadLanesTests {
    /// Noise-like samples that differ per seed, in -0.5...0.5.
    static func samples(_ count: Int, seed: UInt64) -> [Float] {
        var state = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(Int64(bitPattern: state >> 11) % 1_000_000) / 2_000_000
        }
    }

    @Test func lanesMatchTheVoiceByVoiceLoopToTheBit() {
        // Seven voices (mono and stereo, different filters and lengths): groups of four, a tail of
        // three, and lanes of unequal length in one group.
        let voices: [(channels: Int, frames: Int, filter: CutoffFilter)] = [
            (1, 1_024, CutoffFilter(.lowpass, cutoff: 1_000)),
            (2, 1_024, CutoffFilter(.highpass, cutoff: 300)),
            (1, 700, CutoffFilter(.bandpass, cutoff: 1_500, q: 2)),
            (2, 1_024, CutoffFilter(.lowpass, cutoff: 80)),
            (1, 1_024, CutoffFilter(.lowpass, cutoff: 12_000, q: 4)),
            (1, 3, CutoffFilter(.highpass, cutoff: 5_000)),
            (2, 513, CutoffFilter(.lowpass, cutoff: 440)),
        ]
        var expected: [[Float]] = []
        var expectedStates: [BiquadState] = []
        var actual: [[Float]] = []
        var lanes: [BiquadLane] = []
        var pointers: [UnsafeMutablePointer<Float>] = []
        for (k, voice) in voices.enumerated() {
            let c = BiquadCoefficients(voice.filter, sampleRate: 48_000)
            // Two blocks in a row, so the memory carried between blocks is checked too.
            var state = BiquadState()
            var first = Self.samples(voice.frames * voice.channels, seed: UInt64(k))
            first.withUnsafeMutableBufferPointer {
                state.process($0.baseAddress!, frames: voice.frames, channels: voice.channels, with: c)
            }
            var second = Self.samples(voice.frames * voice.channels, seed: UInt64(100 + k))
            let input = second
            second.withUnsafeMutableBufferPointer {
                state.process($0.baseAddress!, frames: voice.frames, channels: voice.channels, with: c)
            }
            expected.append(second)
            expectedStates.append(state)
            // The lanes start from the memory the first block left.
            var before = BiquadState()
            var again = Self.samples(voice.frames * voice.channels, seed: UInt64(k))
            again.withUnsafeMutableBufferPointer {
                before.process($0.baseAddress!, frames: voice.frames, channels: voice.channels, with: c)
            }
            let pointer = UnsafeMutablePointer<Float>.allocate(capacity: input.count)
            pointer.initialize(from: input, count: input.count)
            pointers.append(pointer)
            lanes.append(
                BiquadLane(
                    samples: pointer, stride: voice.channels, frames: voice.frames, x1: before.x1.0,
                    x2: before.x2.0, y1: before.y1.0, y2: before.y2.0, c: c))
            if voice.channels == 2 {
                lanes.append(
                    BiquadLane(
                        samples: pointer + 1, stride: 2, frames: voice.frames, x1: before.x1.1,
                        x2: before.x2.1,
                        y1: before.y1.1, y2: before.y2.1, c: c))
            }
        }
        BiquadLanes.run(&lanes)
        var lane = 0
        for (k, voice) in voices.enumerated() {
            actual.append(
                Array(UnsafeBufferPointer(start: pointers[k], count: voice.frames * voice.channels)))
            #expect(actual[k].map(\.bitPattern) == expected[k].map(\.bitPattern), "voice \(k)")
            #expect(lanes[lane].y1.bitPattern == expectedStates[k].y1.0.bitPattern, "voice \(k)'s memory")
            #expect(lanes[lane].x2.bitPattern == expectedStates[k].x2.0.bitPattern, "voice \(k)'s memory")
            lane += voice.channels
            pointers[k].deallocate()
        }
    }

    /// 5 to 19 lanes (eight-lane AVX groups with dummies and four-lane SSE groups and single lanes
    /// after them), each of its own length, stride, filter and memory, through `run` (the dispatching
    /// entry, and the path without AVX): every sample, every sample between a lane's (untouched), and
    /// every lane's memory must be the scalar loop's to the bit. Mixed: strides 1 to 3 and lengths of
    /// 0 to 1,100 frames; mono: every stride 1 (the AVX path's four frames at a time) and lengths of
    /// 1,016 to 1,024 frames (every remainder of four), the last lane 3 frames long for an odd count.
    @Test(arguments: [false, true], [false, true])
    func anyNumberOfLanesMatchesTheScalarLoopToTheBit(withoutAVX: Bool, mono: Bool) {
        let filters = [
            CutoffFilter(.lowpass, cutoff: 1_000), CutoffFilter(.highpass, cutoff: 300),
            CutoffFilter(.bandpass, cutoff: 1_500, q: 2), CutoffFilter(.lowpass, cutoff: 80),
            CutoffFilter(.lowpass, cutoff: 12_000, q: 4), CutoffFilter(.highpass, cutoff: 5_000, q: 0.5),
            CutoffFilter(.bandpass, cutoff: 200, q: 8),
        ]
        let lengths = [1_024, 1_024, 700, 1_100, 3, 513, 1_024, 0, 1, 999, 1_024, 64]
        for count in 5...19 {
            var lanes: [BiquadLane] = []
            var buffers: [UnsafeMutablePointer<Float>] = []
            var inputs: [[Float]] = []
            var expected: [(samples: [Float], state: BiquadState)] = []
            for k in 0..<count {
                let seed = UInt64(count * 100 + k)
                let stride = mono ? 1 : 1 + (k * 7 + count) % 3
                let monoFrames = count % 2 == 1 && k == count - 1 ? 3 : 1_024 - (k * 37 + count * 11) % 9
                let frames = mono ? monoFrames : lengths[(k + count) % lengths.count]
                let c = BiquadCoefficients(filters[(k * 3 + count) % filters.count], sampleRate: 48_000)
                let memory = Self.samples(4, seed: seed + 50_000).map(Double.init)
                let state = BiquadState(
                    x1: (memory[0], 0), x2: (memory[1], 0), y1: (memory[2], 0), y2: (memory[3], 0))
                let input = Self.samples(max(frames * stride, 1), seed: seed)
                let buffer = UnsafeMutablePointer<Float>.allocate(capacity: input.count)
                buffer.initialize(from: input, count: input.count)
                buffers.append(buffer)
                inputs.append(input)
                // The scalar loop over the lane's samples alone, gathered from its stride.
                var mine = (0..<frames).map { input[$0 * stride] }
                var after = state
                mine.withUnsafeMutableBufferPointer {
                    if let base = $0.baseAddress { after.process(base, frames: frames, channels: 1, with: c) }
                }
                var whole = input
                for i in 0..<frames { whole[i * stride] = mine[i] }
                expected.append((whole, after))
                lanes.append(
                    BiquadLane(
                        samples: buffer, stride: stride, frames: frames, x1: memory[0], x2: memory[1],
                        y1: memory[2], y2: memory[3], c: c))
            }
            if withoutAVX {
                lanes.withUnsafeMutableBufferPointer { ssdsp_biquad_lanes_sse($0.baseAddress, $0.count) }
            } else {
                BiquadLanes.run(&lanes)
            }
            for k in 0..<count {
                let out = Array(UnsafeBufferPointer(start: buffers[k], count: inputs[k].count))
                #expect(
                    out.map(\.bitPattern) == expected[k].samples.map(\.bitPattern),
                    "\(count) lanes: lane \(k)")
                let want = expected[k].state
                let got = [lanes[k].x1, lanes[k].x2, lanes[k].y1, lanes[k].y2].map(\.bitPattern)
                #expect(
                    got == [want.x1.0, want.x2.0, want.y1.0, want.y2.0].map(\.bitPattern),
                    "\(count): lane \(k)'s memory")
                buffers[k].deallocate()
            }
        }
    }

    @Test func manyFilteredVoicesRenderAsEachAlone() throws {
        // Five looping voices on a filtered bus, mono and stereo, one with its own filter too, refilled
        // together; each rendered alone (refilled by itself) must sum to the same mix.
        let tones = (0..<5).map { k in
            CutoffFilterTests.tones(
                [220 * Double(k + 1), 3_000 + 500 * Double(k)], seconds: 0.3, channels: 1 + k % 2)
        }
        func render(_ which: [Int]) throws -> [Float] {
            let engine = try CutoffFilterTests.engine()
            try engine.setFilter(.lowpass(cutoff: 1_200), for: .effects)
            for k in which {
                let filter: SoundFilter? = k == 2 ? .highpass(cutoff: 400) : nil
                try engine.play(
                    try engine.makeBuffer(tones[k], name: "t\(k)"),
                    options: PlayOptions(volume: 0.2, loop: true, filter: filter))
            }
            return try engine.render(frames: 48_000).samples
        }
        let together = try render(Array(0..<5))
        let alone = try (0..<5).map { try render([$0]) }
        // OpenAL sums the voices in its own order, so the check is to float rounding, not the bit.
        let summed = (0..<together.count).map { i in alone.reduce(Float(0)) { $0 + $1[i] } }
        let worst = zip(together, summed).map { abs($0 - $1) }.max() ?? 0
        #expect(worst < 1e-5)
        #expect(together.map { abs($0) }.max() ?? 0 > 0.01)
    }

    @Test func anOpenLowpassPassesTheSamplesUntouched() throws {
        // A low-pass at Nyquist with no resonance is "no muffle": the voice is heard as it is.
        let tone = CutoffFilterTests.tones([440, 15_000], seconds: 0.2)
        let open = try CutoffFilterTests.render(tone, voiceFilter: .lowpass(cutoff: 24_000))
        let plain = try CutoffFilterTests.render(tone)
        let worst = zip(open.samples, plain.samples).map { abs($0 - $1) }.max() ?? 1
        #expect(worst < 1e-6)
    }
}
