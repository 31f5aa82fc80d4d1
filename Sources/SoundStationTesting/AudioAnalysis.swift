import Foundation
import SoundStation

/// Measurements on rendered or decoded samples, for tests of a game's sound.
///
/// Every function reads interleaved ``PCMAudio`` (or plain samples) and measures frames, never wall
/// time, so a test of an offline render gives the same number on every run:
///
/// ```swift
/// import SoundStation
/// import SoundStationTesting
/// import Testing
///
/// @Test func theCoinIsHeardAtOneSecond() throws {
///     let engine = try AudioEngine(output: .offline())
///     let coin = try engine.makeBuffer(try AudioDecoder.decode(fileAt: "Assets/Effects/coin.wav"), name: "coin")
///     _ = engine.play(coin, at: 1.0)
///     let mix = try engine.render(frames: 96_000)
///     #expect(AudioAnalysis.onset(mix) == 48_000)
///     #expect(AudioAnalysis.decibels(AudioAnalysis.rms(mix, frames: 48_000..<52_800)) > -30)
/// }
/// ```
public enum AudioAnalysis {
    /// The first frame from `start` on whose sample on any channel exceeds `threshold` in magnitude:
    /// where a sound starts in a render.
    /// - Parameters:
    ///   - audio: The samples to search.
    ///   - threshold: The magnitude a sample must exceed; 1e-4 (-80 dBFS) by default.
    ///   - start: The first frame looked at.
    /// - Returns: The frame, or nil when every sample stays at or below `threshold`.
    public static func onset(_ audio: PCMAudio, threshold: Float = 1e-4, from start: Int = 0) -> Int? {
        for frame in max(0, start)..<audio.frameCount {
            for channel in 0..<audio.channels
            where abs(audio.samples[frame * audio.channels + channel]) > threshold {
                return frame
            }
        }
        return nil
    }

    /// The sum of squared samples (the energy) of one channel, or of all, over a frame range.
    /// - Parameters:
    ///   - audio: The samples to measure.
    ///   - channel: One channel, or nil for every channel.
    ///   - frames: The frames measured; all by default.
    /// - Returns: The energy, 0 for an empty range.
    public static func energy(_ audio: PCMAudio, channel: Int? = nil, frames: Range<Int>? = nil) -> Double {
        measure(audio, channel: channel, frames: frames).sum
    }

    /// The root mean square of one channel, or of all, over a frame range.
    /// - Parameters:
    ///   - audio: The samples to measure.
    ///   - channel: One channel, or nil for every channel.
    ///   - frames: The frames measured; all by default.
    /// - Returns: The RMS level as an amplitude (a full-scale sine is 0.707), 0 for an empty range.
    public static func rms(_ audio: PCMAudio, channel: Int? = nil, frames: Range<Int>? = nil) -> Double {
        let (sum, count) = measure(audio, channel: channel, frames: frames)
        return count > 0 ? (sum / Double(count)).squareRoot() : 0
    }

    /// The root mean square of plain samples.
    /// - Parameter samples: The samples, of any channel layout.
    /// - Returns: The RMS level as an amplitude, 0 for no samples.
    public static func rms(_ samples: [Float]) -> Double {
        rms(PCMAudio(sampleRate: 1, channels: 1, samples: samples))
    }

    /// The largest absolute sample of one channel, or of all, over a frame range.
    /// - Parameters:
    ///   - audio: The samples to measure.
    ///   - channel: One channel, or nil for every channel.
    ///   - frames: The frames measured; all by default.
    /// - Returns: The peak as an amplitude (as a `Double`, like ``rms(_:channel:frames:)``), 0 for an
    ///   empty range.
    public static func peak(_ audio: PCMAudio, channel: Int? = nil, frames: Range<Int>? = nil) -> Double {
        var largest: Float = 0
        forEachSample(audio, channel: channel, frames: frames) { largest = max(largest, abs($0)) }
        return Double(largest)
    }

    /// An amplitude (or an amplitude ratio) in decibels: `20 log10(amplitude)`, so an RMS or peak
    /// of full scale is 0 dBFS. Silence gives -140 dB rather than minus infinity, so it compares as a
    /// number.
    /// - Parameter amplitude: An amplitude or ratio of amplitudes.
    /// - Returns: Decibels, at least -140.
    public static func decibels(_ amplitude: Double) -> Double {
        amplitude > 1e-7 ? 20 * log10(amplitude) : -140
    }

    /// The dominant frequency of one channel, from its positive-going zero crossings: exact enough
    /// for a clean tone, meaningless for noise.
    /// - Parameters:
    ///   - audio: The samples to measure.
    ///   - channel: The channel measured.
    ///   - frames: The frames measured; all by default.
    /// - Returns: The frequency in Hz.
    public static func zeroCrossingFrequency(_ audio: PCMAudio, channel: Int = 0, frames: Range<Int>? = nil)
        -> Double
    {
        let range = frames ?? 0..<audio.frameCount
        guard range.count > 1 else { return 0 }
        var crossings = 0
        var previous = audio.samples[range.lowerBound * audio.channels + channel]
        for frame in range.dropFirst() {
            let value = audio.samples[frame * audio.channels + channel]
            if previous <= 0 && value > 0 { crossings += 1 }
            previous = value
        }
        return Double(crossings) * Double(audio.sampleRate) / Double(range.count)
    }

    /// The amplitude of one frequency in one channel over a frame range (the Goertzel algorithm): 1
    /// for a full-scale sine at that frequency, near 0 when it is absent.
    /// - Parameters:
    ///   - frequency: The frequency in Hz.
    ///   - audio: The samples to measure.
    ///   - frames: The frames measured; a whole number of periods gives the cleanest figure.
    ///   - channel: The channel measured.
    /// - Returns: The amplitude of that frequency.
    public static func amplitude(
        of frequency: Double, in audio: PCMAudio, frames: Range<Int>, channel: Int = 0
    )
        -> Double
    {
        guard !frames.isEmpty else { return 0 }
        let omega = 2 * Double.pi * frequency / Double(audio.sampleRate)
        let coefficient = 2 * cos(omega)
        var (previous, beforePrevious) = (0.0, 0.0)
        for frame in frames {
            let value =
                Double(audio.samples[frame * audio.channels + channel]) + coefficient * previous
                - beforePrevious
            beforePrevious = previous
            previous = value
        }
        let power =
            previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
        return 2 * max(0, power).squareRoot() / Double(frames.count)
    }

    /// The loudness contour of one channel: the RMS of every `window`-second stretch.
    /// - Parameters:
    ///   - audio: The samples to measure.
    ///   - window: The length of each stretch in seconds; 50 ms by default.
    ///   - channel: The channel measured.
    /// - Returns: One RMS level per whole window, in order.
    public static func envelope(_ audio: PCMAudio, window: Double = 0.05, channel: Int = 0) -> [Double] {
        let size = max(1, Int(window * Double(audio.sampleRate)))
        return stride(from: 0, to: audio.frameCount - size + 1, by: size).map {
            rms(audio, channel: channel, frames: $0..<$0 + size)
        }
    }

    /// The Pearson correlation of two series of the same length.
    /// - Parameters:
    ///   - a: One series, e.g. an ``envelope(_:window:channel:)``.
    ///   - b: The other.
    /// - Returns: From -1 to 1; 0 when either series is constant.
    public static func correlation(_ a: [Double], _ b: [Double]) -> Double {
        let count = Double(min(a.count, b.count))
        guard count > 0 else { return 0 }
        let meanA = a.prefix(Int(count)).reduce(0, +) / count
        let meanB = b.prefix(Int(count)).reduce(0, +) / count
        var (covariance, varianceA, varianceB) = (0.0, 0.0, 0.0)
        for (x, y) in zip(a, b) {
            covariance += (x - meanA) * (y - meanB)
            varianceA += (x - meanA) * (x - meanA)
            varianceB += (y - meanB) * (y - meanB)
        }
        let denominator = (varianceA * varianceB).squareRoot()
        return denominator > 0 ? covariance / denominator : 0
    }

    /// The lag at which `recorded` best follows `reference`, and the correlation there: where a known
    /// sound sits in a longer recording of it.
    /// - Parameters:
    ///   - reference: The series looked for.
    ///   - recorded: The longer series searched.
    /// - Returns: The lag in elements and the Pearson correlation at it (-1 and lag 0 when
    ///   `recorded` is the shorter).
    public static func bestAlignment(of reference: [Double], in recorded: [Double]) -> (
        lag: Int, correlation: Double
    ) {
        var best = (lag: 0, correlation: -1.0)
        guard recorded.count >= reference.count else { return best }
        for lag in 0...(recorded.count - reference.count) {
            let r = correlation(reference, Array(recorded[lag..<lag + reference.count]))
            if r > best.correlation { best = (lag, r) }
        }
        return best
    }

    /// One channel of `audio` as mono audio of its own.
    /// - Parameters:
    ///   - audio: Interleaved samples.
    ///   - channel: The channel taken.
    /// - Returns: Mono audio at the same rate.
    public static func channel(_ audio: PCMAudio, _ channel: Int) -> PCMAudio {
        let samples = stride(from: channel, to: audio.samples.count, by: audio.channels).map {
            audio.samples[$0]
        }
        return PCMAudio(sampleRate: audio.sampleRate, channels: 1, samples: samples)
    }

    /// The largest difference between the frames of `rendered` from `at` on and the frames
    /// `from..<to` of `source`, over every channel: 0 when the render holds that stretch unchanged.
    /// - Parameters:
    ///   - rendered: The render.
    ///   - at: The render's frame that should match `source`'s frame `from`.
    ///   - source: The sound expected, with as many channels as `rendered`.
    ///   - from: The first frame of `source` compared.
    ///   - to: The frame of `source` after the last compared.
    /// - Returns: The largest absolute difference of a sample.
    public static func largestDifference(
        _ rendered: PCMAudio, at: Int, _ source: PCMAudio, from: Int, to: Int
    )
        -> Float
    {
        let channels = min(rendered.channels, source.channels)
        var largest: Float = 0
        for frame in 0..<max(0, to - from) {
            for channel in 0..<channels {
                let a = rendered.samples[(at + frame) * rendered.channels + channel]
                let b = source.samples[(from + frame) * source.channels + channel]
                largest = max(largest, abs(a - b))
            }
        }
        return largest
    }

    /// The power of one channel within a band of frequencies (Welch's method: 2048-frame Hann
    /// windows overlapping by half, their spectra averaged): compare it between a filtered render
    /// and the same render unfiltered, e.g. "energy above 4F falls by 20 dB".
    /// - Parameters:
    ///   - audio: The samples to measure.
    ///   - band: The frequencies in Hz, e.g. `3_200...24_000`.
    ///   - frames: The frames measured; at least 2048 of them.
    ///   - channel: The channel measured.
    /// - Returns: The mean power per window in the band (a sum of squared bin magnitudes), 0 when
    ///   `frames` is shorter than one window.
    public static func bandEnergy(
        _ audio: PCMAudio, band: ClosedRange<Double>, frames: Range<Int>, channel: Int = 0
    ) -> Double {
        let size = 2_048
        let window = (0..<size).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(size)) }
        let binWidth = Double(audio.sampleRate) / Double(size)
        let bins = (0...(size / 2)).filter { band.contains(Double($0) * binWidth) }
        var total = 0.0
        var windows = 0
        var start = frames.lowerBound
        while start + size <= frames.upperBound {
            var real = (0..<size).map {
                Double(audio.samples[(start + $0) * audio.channels + channel]) * window[$0]
            }
            var imaginary = [Double](repeating: 0, count: size)
            fourier(&real, &imaginary)
            total += bins.reduce(0.0) { $0 + real[$1] * real[$1] + imaginary[$1] * imaginary[$1] }
            windows += 1
            start += size / 2
        }
        return windows == 0 ? 0 : total / Double(windows)
    }

    /// An in-place radix-2 FFT of a power-of-two length.
    private static func fourier(_ real: inout [Double], _ imaginary: inout [Double]) {
        let count = real.count
        var j = 0
        for i in 1..<count {
            var bit = count >> 1
            while j & bit != 0 {
                j ^= bit
                bit >>= 1
            }
            j |= bit
            if i < j {
                real.swapAt(i, j)
                imaginary.swapAt(i, j)
            }
        }
        var length = 2
        while length <= count {
            let angle = -2 * Double.pi / Double(length)
            for start in stride(from: 0, to: count, by: length) {
                for k in 0..<(length / 2) {
                    let (c, s) = (cos(angle * Double(k)), sin(angle * Double(k)))
                    let (a, b) = (start + k, start + k + length / 2)
                    let tr = real[b] * c - imaginary[b] * s
                    let ti = real[b] * s + imaginary[b] * c
                    real[b] = real[a] - tr
                    imaginary[b] = imaginary[a] - ti
                    real[a] += tr
                    imaginary[a] += ti
                }
            }
            length <<= 1
        }
    }

    /// The largest step between neighbouring samples of one channel within `frames`: a click shows
    /// as a step far above the sound's own.
    /// - Parameters:
    ///   - audio: The samples to measure.
    ///   - frames: The frames measured.
    ///   - channel: The channel measured.
    /// - Returns: The largest absolute step.
    public static func largestJump(_ audio: PCMAudio, frames: Range<Int>, channel: Int = 0) -> Float {
        var largest: Float = 0
        for frame in frames.dropFirst() {
            let step =
                audio.samples[frame * audio.channels + channel]
                - audio.samples[(frame - 1) * audio.channels + channel]
            largest = max(largest, abs(step))
        }
        return largest
    }

    /// The sum of squares and the count of the samples selected.
    private static func measure(_ audio: PCMAudio, channel: Int?, frames: Range<Int>?) -> (
        sum: Double, count: Int
    ) {
        var sum = 0.0
        var count = 0
        forEachSample(audio, channel: channel, frames: frames) {
            sum += Double($0) * Double($0)
            count += 1
        }
        return (sum, count)
    }

    private static func forEachSample(
        _ audio: PCMAudio, channel: Int?, frames: Range<Int>?, _ body: (Float) -> Void
    ) {
        for frame in frames ?? 0..<audio.frameCount {
            for c in 0..<audio.channels where channel == nil || channel == c {
                body(audio.samples[frame * audio.channels + c])
            }
        }
    }
}
