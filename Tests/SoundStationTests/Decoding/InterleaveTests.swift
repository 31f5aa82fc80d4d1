import CSoundStationRT
import Testing

/// A decoder's planar channels become one interleaved block (`ssdsp_interleave`, in C so a stream's
/// refill is quick in a debug build too).
@Suite struct InterleaveTests {
    @Test("planes interleave frame by frame; a missing plane is silence", arguments: [1, 2, 3, 6])
    func interleaves(channels: Int) {
        let frames = 5
        // Channel c's frame f holds c * 100 + f + 1, so every sample says where it belongs.
        let owned = (0..<channels).map { channel in
            let plane = UnsafeMutablePointer<Float>.allocate(capacity: frames)
            for frame in 0..<frames { plane[frame] = Float(channel * 100 + frame + 1) }
            return plane
        }
        defer { for plane in owned { plane.deallocate() } }
        let missing = channels == 1 ? nil : channels - 1
        let planes = owned.enumerated().map { $0.offset == missing ? nil : $0.element }
        var out = [Float](repeating: -1, count: frames * channels + 1)
        ssdsp_interleave(&out, planes, channels, frames)
        for frame in 0..<frames {
            for channel in 0..<channels {
                let expected: Float = channel == missing ? 0 : Float(channel * 100 + frame + 1)
                #expect(out[frame * channels + channel] == expected, "frame \(frame), channel \(channel)")
            }
        }
        #expect(out.last == -1, "nothing is written past the block")
    }
}
