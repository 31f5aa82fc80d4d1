import CBenchOpenAL
import Foundation
import SoundStation

/// `latency-loopback`: frames from a play call to the first non-zero output frame on the offline
/// (loopback) engine; `latency-device`: the mixing period of the OpenAL device the engine opens.
enum LatencyCase {
    static let names = [
        "latency-loopback", "latency-device", "latency-device-low", "latency-device-low-period",
        "latency-device-low-underruns",
    ]

    static func run(_ work: Workspace, runs: Int, cases: CaseFilter) throws {
        if cases.wants("latency-loopback") { try loopback(runs: runs) }
        if cases.wants("latency-device") { try device(runs: runs) }
        if cases.any(of: ["latency-device-low", "latency-device-low-period"]) {
            try lowLatency(work, runs: runs, cases: cases)
        }
        if cases.wants("latency-device-low-underruns") {
            try underruns(work, seconds: option("soak-seconds").flatMap(Double.init) ?? 60)
        }
    }

    /// `latency-device-low-underruns`: ``OutputLatency/low`` for `seconds` (`--soak-seconds`, 60) with
    /// a streamed looping track and a hit every 50 ms, counting underruns two ways: PulseAudio's (the
    /// server's log at debug level, raised for the run with `pacmd set-log-level 4`, says "underrun
    /// of '...'" every time the sink found the engine's stream empty) and the engine's own
    /// ``AudioEngine/underrunCount`` (a streamed queue that ran dry). The peer is the same server
    /// count for `pacat --latency-msec=10` playing silence as long: what any client asking for a
    /// 10 ms buffer gets on this machine.
    private static func underruns(_ work: Workspace, seconds: Double) throws {
        guard let engine = try? AudioEngine(output: .device(latency: .low)) else {
            progress(
                "latency-device-low-underruns: no playback device (run under Scripts/with-pulse.sh); left out"
            )
            return
        }
        defer { engine.shutdown() }
        let log = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"].map { $0 + "/pulse.log" }
        let sound = SoundSystem(
            engine: engine, catalogue: try Catalogue(assetsRoot: work.load))
        try sound.bank.load("blip")
        try sound.bank.load("trackA")
        let blip = try sound.bank.id(of: "blip")
        try sound.music.play("trackA")
        usleep(500_000)  // the stream's first buffers, and the sink input settled
        let serverLevel = pacmd(["set-log-level", "4"])
        let logStart =
            log.flatMap { try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int } ?? 0
        let before = engine.underrunCount
        let end = BenchClock.wall() + seconds
        while BenchClock.wall() < end {
            _ = try? sound.effects.play(blip, volume: 0.5)
            usleep(50_000)
        }
        let counted = engine.underrunCount - before
        let engineServer = serverUnderruns(log: log, from: logStart)
        // The floor: pacat asking PulseAudio for the same 10 ms buffer, playing silence as long.
        let pacatStart =
            log.flatMap { try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int } ?? 0
        let pacat = Process()
        pacat.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        pacat.arguments = ["pacat", "--raw", "--latency-msec=10", "/dev/zero"]
        pacat.standardError = FileHandle.nullDevice
        let pacatRan = (try? pacat.run()) != nil
        if pacatRan {
            usleep(UInt32(seconds * 1e6))
            pacat.terminate()
            pacat.waitUntilExit()
        }
        let pacatServer = serverUnderruns(log: log, from: pacatStart)
        if serverLevel { _ = pacmd(["set-log-level", "2"]) }
        guard serverLevel, let engineServer, let pacatServer, pacatRan else {
            progress(
                "latency-device-low-underruns: no PulseAudio debug log to read ($XDG_RUNTIME_DIR/pulse.log, pacmd, pacat); left out"
            )
            return
        }
        CaseReport(
            case: "latency-device-low-underruns", unit: "underruns",
            label:
                "PulseAudio's underruns of the engine's stream over \(Int(seconds)) s of OutputLatency.low, music streaming, a hit every 50 ms",
            samples: [Double(engineServer)],
            note:
                "\(engine.deviceName); the engine's own underrunCount (a streamed queue ran dry): \(counted)",
            extra: ["engineUnderrunCount": Double(counted)]
        ).emit()
        CaseReport(
            case: "latency-device-low-underruns", side: "peer", peer: "pacat-10ms", unit: "underruns",
            label:
                "PulseAudio's underruns of pacat --latency-msec=10 playing silence as long: this machine's floor",
            samples: [Double(pacatServer)]
        ).emit()
    }

    /// The "underrun of" lines (PulseAudio's protocol-native.c at debug level: the sink found a
    /// client's stream empty) written to the server's log after byte `offset`; nil with no log.
    private static func serverUnderruns(log: String?, from offset: Int) -> Int? {
        guard let log, let data = FileManager.default.contents(atPath: log) else { return nil }
        let lines = data.dropFirst(offset).split(separator: UInt8(ascii: "\n"))
        return lines.filter { String(decoding: $0, as: UTF8.self).contains("underrun of") }.count
    }

    /// Runs `pacmd` with `arguments` on the server of the environment; true when it succeeded.
    private static func pacmd(_ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["pacmd"] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
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

    /// `latency-device-low`: from the trigger call (``EffectStation/play(_:volume:pitch:pan:at:)`` by
    /// id, as a game fires a hit) to the sound's first sample on the null sink's monitor, recorded
    /// with `parec` (``MonitorRecorder``), with ``OutputLatency/low``; the same with the default
    /// ``OutputLatency/normal`` as an `engine-variant` row; and each one's mixing period
    /// (`latency-device-low-period`). Each run is the median of ``triggersPerRun`` triggers, each after
    /// a random quiet spell (so the trigger lands anywhere in a period and the driver may be asleep).
    private static func lowLatency(_ work: Workspace, runs: Int, cases: CaseFilter) throws {
        guard let probe = try? AudioEngine(output: .device(latency: .low)) else {
            progress("latency-device-low: no playback device (run under Scripts/with-pulse.sh); left out")
            return
        }
        probe.shutdown()
        let recorder: MonitorRecorder
        do {
            recorder = try MonitorRecorder()
        } catch {
            progress("latency-device-low: cannot start parec (\(error)); left out")
            return
        }
        defer { recorder.stop() }
        guard recorder.waitForData(timeout: 5) else {
            progress("latency-device-low: parec recorded nothing from the default source; left out")
            return
        }
        var endToEnd: [OutputLatency: [Double]] = [:]
        var periods: [OutputLatency: [Double]] = [:]
        var deviceName = ""
        var generator = SystemRandomNumberGenerator()
        for _ in -1..<runs {
            for latency in [OutputLatency.low, .normal] {
                let engine = try AudioEngine(output: .device(latency: latency))
                defer { engine.shutdown() }
                deviceName = engine.deviceName
                if let period = engine.mixingPeriod {
                    periods[latency, default: []].append(milliseconds(period))
                }
                let sound = SoundSystem(
                    engine: engine, catalogue: try Catalogue(assetsRoot: work.trigger))
                try sound.bank.load("blip")
                let blip = try sound.bank.id(of: "blip")
                var figures: [Double] = []
                for _ in 0..<triggersPerRun {
                    // Quiet long enough for the last hit to have left the monitor and the driver to sleep.
                    usleep(UInt32.random(in: 250_000...330_000, using: &generator))
                    let from = recorder.frames
                    let called = BenchClock.wall()
                    guard (try? sound.effects.play(blip, volume: 1)) != nil else {
                        fail("latency-device-low: the trigger was refused")
                    }
                    usleep(150_000)
                    guard let heard = recorder.firstSound(from: from) else {
                        fail("latency-device-low: nothing reached the monitor within 150 ms of a trigger")
                    }
                    figures.append((heard.time - called) * 1e3)
                    sound.effects.stopAll()
                }
                endToEnd[latency, default: []].append(median(figures))
            }
        }
        // The warm-up's figures are left out, as `repeated` does.
        let note = "\(deviceName), parec on its monitor; the capture's delivery delay included"
        if cases.wants("latency-device-low") {
            CaseReport(
                case: "latency-device-low", unit: "ms",
                label: "EffectStation.play to the first sample on the sink's monitor, OutputLatency.low",
                samples: Array((endToEnd[.low] ?? []).dropFirst()), note: note
            ).emit()
            CaseReport(
                case: "latency-device-low", side: "engine-variant", peer: "soundstation-normal", unit: "ms",
                label: "the same with the default OutputLatency.normal",
                samples: Array((endToEnd[.normal] ?? []).dropFirst())
            ).emit()
        }
        if cases.wants("latency-device-low-period") {
            CaseReport(
                case: "latency-device-low-period", unit: "ms",
                label: "mixing period with OutputLatency.low (AudioEngine.mixingPeriod)",
                samples: Array((periods[.low] ?? []).dropFirst()), note: deviceName
            ).emit()
            CaseReport(
                case: "latency-device-low-period", side: "engine-variant", peer: "soundstation-normal",
                unit: "ms", label: "mixing period with the default OutputLatency.normal",
                samples: Array((periods[.normal] ?? []).dropFirst())
            ).emit()
        }
    }

    /// Triggers per run of `latency-device-low`; the run's figure is their median.
    static let triggersPerRun = 5

    private static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.attoseconds) / 1e15 + Double(duration.components.seconds) * 1e3
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.count % 2 == 1
            ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
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
            guard let period = engine.mixingPeriod else {
                fail("latency: \(engine.deviceName) reports no ALC_REFRESH")
            }
            return milliseconds(period)
        }
        CaseReport(
            case: "latency-device", unit: "ms",
            label: "OpenAL period of the engine's device: 1000 / ALC_REFRESH",
            samples: periods,
            note: "\(deviceName); scheduled starts add up to the driver's 5 ms round"
        ).emit()
    }
}
