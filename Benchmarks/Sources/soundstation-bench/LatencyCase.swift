import CBenchOpenAL
import Foundation
import SoundStation

/// `latency-loopback`: frames from a play call to the first non-zero output frame on the offline
/// (loopback) engine; `latency-device`: the mixing period of the OpenAL device the engine opens.
enum LatencyCase {
    static let names = ["latency-loopback", "latency-device", "latency-device-low"]

    static func run(runs: Int, cases: CaseFilter) throws {
        if cases.wants("latency-loopback") { try loopback(runs: runs) }
        if cases.wants("latency-device") { try device(runs: runs) }
        if cases.wants("latency-device-low") { try lowLatency(runs: runs) }
    }

    private static func loopback(runs: Int) throws {
        let engine = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
        let level = try engine.makeBuffer(
            PCMAudio(sampleRate: 48_000, channels: 1, samples: [Float](repeating: 0.5, count: 4_800)),
            name: "level")
        let frames = try repeated(runs: runs) { run in
            // A lead that is no multiple of the engine's 256-frame housekeeping quantum.
            _ = try engine.render(frames: 1_000 + 37 * (run + 1))
            guard let voice = try engine.play(level) else { fail("latency: the sound was refused") }
            let out = try engine.render(frames: 1_024).samples
            guard
                let first = stride(from: 0, to: out.count, by: 2).first(where: {
                    out[$0] != 0 || out[$0 + 1] != 0
                })
            else { fail("latency: no sound within 1024 frames of play") }
            engine.stop(voice)
            _ = try engine.render(frames: 256)
            return Double(first / 2)
        }
        CaseReport(
            case: "latency-loopback", unit: "frames",
            label: "AudioEngine.play between two render(frames:) calls",
            samples: frames
        ).emit()
    }

    /// `latency-device-low`: the period granted with ``OutputLatency/low`` (PulseAudio asked for a
    /// 10 ms buffer), against the default period (an `engine-variant` row), and the underruns the
    /// engine counted while a looping voice played on it for the run.
    private static func lowLatency(runs: Int) throws {
        guard let probe = try? AudioEngine(output: .device(latency: .low)) else {
            progress("latency-device-low: no playback device (run under Scripts/with-pulse.sh); left out")
            return
        }
        probe.shutdown()
        var (low, normal): ([Double], [Double]) = ([], [])
        var deviceName = ""
        for _ in -1..<runs {
            for latency in [OutputLatency.low, .normal] {
                let engine = try AudioEngine(output: .device(latency: latency))
                defer { engine.shutdown() }
                deviceName = engine.deviceName
                guard let period = engine.mixingPeriod else {
                    fail("latency-device-low: no mixing period on \(engine.deviceName)")
                }
                let ms =
                    Double(period.components.attoseconds) / 1e15 + Double(period.components.seconds) * 1e3
                if latency == .low { low.append(ms) } else { normal.append(ms) }
            }
        }
        // The warm-up's figures are left out, as `repeated` does.
        CaseReport(
            case: "latency-device-low", unit: "ms",
            label: "mixing period with OutputLatency.low (AudioEngine.mixingPeriod)",
            samples: Array(low.dropFirst()), note: deviceName
        ).emit()
        CaseReport(
            case: "latency-device-low", side: "engine-variant", peer: "soundstation-normal", unit: "ms",
            label: "mixing period with the default OutputLatency.normal", samples: Array(normal.dropFirst())
        ).emit()
    }

    private static func device(runs: Int) throws {
        guard let probe = try? AudioEngine(output: .device()) else {
            progress("latency-device: no playback device (run under Scripts/with-pulse.sh); left out")
            return
        }
        probe.shutdown()
        var deviceName = ""
        let periods = try repeated(runs: runs) { _ in
            let engine = try AudioEngine(output: .device())
            defer { engine.shutdown() }
            deviceName = engine.deviceName
            // Any engine call that touches OpenAL selects the engine's context on this thread.
            _ = try engine.makeBuffer(PCMAudio(sampleRate: 48_000, channels: 1, samples: [0]), name: "probe")
            guard let context = alcGetThreadContext(), let device = alcGetContextsDevice(context) else {
                fail("latency: the engine's OpenAL context is not current on this thread")
            }
            var refresh: ALCint = 0
            alcGetIntegerv(device, ALC_REFRESH, 1, &refresh)
            guard alcGetError(device) == ALC_NO_ERROR, refresh > 0 else {
                fail("latency: alcGetIntegerv(ALC_REFRESH) failed on \(engine.deviceName)")
            }
            return 1_000 / Double(refresh)
        }
        CaseReport(
            case: "latency-device", unit: "ms",
            label: "OpenAL period of the engine's device: 1000 / ALC_REFRESH",
            samples: periods,
            note: "\(deviceName); scheduled starts add up to the driver's 5 ms round"
        ).emit()
    }
}
