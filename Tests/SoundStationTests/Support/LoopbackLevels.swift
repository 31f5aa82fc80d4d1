@testable import SoundStation

extension OpenALDevice {
    /// Mixes `frames` frames of this stereo loopback device, whose mixing a test steps by hand, and
    /// returns the loudest sample of each `part`-frame stretch (the last may be shorter): what a queue
    /// test reads to tell which block or piece was heard where.
    func loudestSamples(frames: Int, per part: Int) -> [Float] {
        var mixed = [Float](repeating: 0, count: frames * 2)
        mixed.withUnsafeMutableBufferPointer { render(into: $0.baseAddress!, frames: frames) }
        return stride(from: 0, to: frames, by: part).map { start in
            mixed[(start * 2)..<(min(start + part, frames) * 2)].map(abs).max() ?? 0
        }
    }
}
