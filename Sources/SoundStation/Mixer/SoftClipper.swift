import CSoundStationRT
import Glibc

/// Keeps an offline mix within ±1 without latency: samples up to ``knee`` pass untouched, louder
/// ones bend smoothly towards ±1 and never reach past it.
///
/// OpenAL Soft's own limiter needs 1 ms of lookahead, which would make offline renders start sounds
/// late; this curve is stateless, so a render stays sample-exact and deterministic.
package enum SoftClipper {
    /// Magnitudes at or below this pass unchanged (about -1.9 dBFS).
    package static let knee: Float = 0.8

    /// Shapes one sample.
    /// - Parameter sample: Any value.
    /// - Returns: The same value when within the knee, otherwise a value strictly inside ±1.
    @inlinable
    package static func shape(_ sample: Float) -> Float {
        let magnitude = abs(sample)
        guard magnitude > knee else { return sample }
        let room = 1 - knee
        let bent = knee + room * tanh((magnitude - knee) / room)
        return sample < 0 ? -bent : bent
    }

    /// Shapes every sample in place.
    /// - Parameter samples: Interleaved samples.
    package static func apply(to samples: inout [Float]) {
        samples.withUnsafeMutableBufferPointer { apply(to: $0) }
    }

    /// Shapes every sample of `samples` in place: a scan for the block's peak in vector lanes first
    /// (`ssdsp_peak`, in C: Swift's `SIMD` minimum and maximum come out lane by lane), so a block
    /// within the knee (nearly every block of a game's mix) costs a fraction of a test per sample; a
    /// louder one is shaped sample by sample, exactly as ``shape(_:)``.
    static func apply(to samples: UnsafeMutableBufferPointer<Float>) {
        guard let base = samples.baseAddress, ssdsp_peak(base, samples.count) > knee else { return }
        for index in samples.indices where abs(samples[index]) > knee {
            samples[index] = shape(samples[index])
        }
    }
}
