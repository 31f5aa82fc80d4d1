import Foundation
import Glibc
import SoundStation
import Synchronization

/// The device cases of issue 10 that run for seconds:
///
/// - `trigger-under-load`: one thread fires the preloaded `blip` by id every 200 µs (absolute
///   deadlines, `clock_nanosleep`) while the music streams, switching between two long tracks with
///   a 0.25 s crossfade every 0.5 s, and a task preloads and unloads a scene of the demo's effects in
///   a loop. Each run reports p50, p99, p99.9 and the maximum of the play call's time, in µs, as the
///   cases `trigger-under-load-p50`, `-p99`, `-p999` and `-max`; with `-max-unpreempted`, the
///   longest call during which the thread was not preempted (no involuntary context switch, from
///   getrusage(RUSAGE_THREAD) around each call), and `-blocked`, the calls per run that slept (a
///   voluntary context switch: waiting on a lock), which tell a stall of the engine's from the
///   shared machine's scheduler.
/// - `control-under-load`: under the same load, every fourth period the trigger thread also makes one
///   of the other calls a game makes (in turn `activeVoiceCount`, `isActive(handle)`, a bus volume
///   change), and the music thread times its `music.play` crossfade: `control-under-load-<call>-p999`
///   and `-max` per run, beside the trigger's own figures as the peer (`soundstation-trigger`). Calls
///   during which the thread was preempted (an involuntary context switch) are counted apart
///   (`preemptedControlCalls`): they measure the shared machine's scheduler, not the call. The
///   first call of each kind in the session is among them: the first run makes the session's first
///   `activeVoiceCount`, `isActive` and bus volume change, and the session's first `music.play` (a
///   cut before the load, also reported alone as `control-under-load-music-first`) joins the first
///   run's music figures.
/// - `idle-music`: CPU time (getrusage, user + system, every thread) of 20 s of one streamed looping
///   track on the device and nothing else.
/// - `idle-device`: CPU time per second of an engine with the device open and nothing playing, the
///   game silent: 10 s (`--quiet-seconds`) from 1 s after the engine opened, with no call at all
///   (a device's driver polls for 1 s after the engine opens, as after a call: before the run).
/// - `idle-device-active`: the same while the game makes a call every 0.5 s (a listener move: a
///   command that starts nothing): what the driver's polling costs while the game is active.
enum LoadCases {
    static let underLoad = "trigger-under-load"
    static let idle = "idle-music"
    static let idleDevice = "idle-device"
    static let idleDeviceActive = "idle-device-active"
    static let names = [underLoad, idle, idleDevice, idleDeviceActive]
    /// The statistics of `trigger-under-load`, as case suffixes, and their quantiles (1 for the max).
    static let quantiles: [(suffix: String, q: Double)] = [
        ("p50", 0.5), ("p99", 0.99), ("p999", 0.999), ("max", 1),
    ]

    static let period = 200e-6
    static let switchEvery = 0.5

    static func run(_ work: Workspace, runs: Int, cases: CaseFilter) async throws {
        let seconds = option("load-seconds").flatMap(Double.init) ?? 10
        let idleSeconds = option("idle-seconds").flatMap(Double.init) ?? 20
        if cases.wants(underLoad) { try await triggerUnderLoad(work, runs: runs, seconds: seconds) }
        if cases.wants(idle) { try idleMusic(work, runs: runs, seconds: idleSeconds) }
        let quietSeconds = option("quiet-seconds").flatMap(Double.init) ?? 10
        for (name, active) in [(idleDevice, false), (idleDeviceActive, true)] where cases.wants(name) {
            idleDevice(name, active: active, runs: runs, seconds: quietSeconds)
        }
    }

    // MARK: trigger-under-load

    /// The default device's engine, or nil (said on standard error) when there is none. No probe
    /// engine is opened first: its device would stay open, and mix, until the probe is freed.
    private static func deviceEngine(_ name: String) -> AudioEngine? {
        do {
            return try AudioEngine(output: .device())
        } catch {
            progress(
                "\(name): no playback device (\(error.description); run under Scripts/with-pulse.sh); left out"
            )
            return nil
        }
    }

    private static func triggerUnderLoad(_ work: Workspace, runs: Int, seconds: Double) async throws {
        guard let engine = deviceEngine(underLoad) else { return }
        defer { engine.shutdown() }
        let catalogue = try Catalogue(assetsRoot: work.load)
        let sound = SoundSystem(engine: engine, catalogue: catalogue)
        let scene = catalogue.entries.map(\.name).filter { $0.hasPrefix("scene-") }
        try sound.bank.load("blip")
        try sound.bank.load("trackA")
        try sound.bank.load("trackB")
        let blip = try sound.bank.id(of: "blip")
        let effects = sound.effects
        let music = sound.music
        let bank = sound.bank
        // The session's first switch, timed alone: a first call of its kind must cost what the later
        // ones do, so it is also one of the first run's switches (the control rows' limits hold for
        // it too). The other controls' first calls are the first run's first of each kind.
        let shared = Shared()
        // From a short sleep, as every later switch comes (each waits for its deadline): straight
        // after the loading above, the thread has used its share of the processor and the scheduler
        // preempts it at its next chance, which timed the machine's other work, not the call.
        sleep(until: BenchClock.wall() + 0.05)
        let firstSwitches = threadSwitches()
        let firstFaults = threadMinorFaults()
        let firstStart = BenchClock.wall()
        try music.play("trackA")
        let firstSwitch = (BenchClock.wall() - firstStart) * 1e6
        let firstSwitchFaults = threadMinorFaults() - firstFaults
        let firstPreempted = threadSwitches().involuntary != firstSwitches.involuntary
        if firstPreempted { shared.preemptedControls.add(1, ordering: .relaxed) }
        let switchTimes = Mutex<[Double]>(firstPreempted ? [] : [firstSwitch])
        // `--load-parts` (diagnostics; default "music,scene"): which load runs beside the triggers;
        // "scene1" loads the scene one sound after another on one thread (bank.load), as the C peer.
        let parts = (option("load-parts") ?? "music,scene").split(separator: ",").map(String.init)
        // The music: a crossfade to the other track every 0.5 s.
        let musicDone = DispatchSemaphore(value: 0)
        let musicThread = Thread {
            var deadline = BenchClock.wall() + switchEvery
            var next = 1
            while !shared.stop.load(ordering: .relaxed) {
                LoadCases.sleep(until: deadline)
                deadline += switchEvery
                do {
                    let before = threadSwitches()
                    let start = BenchClock.wall()
                    try music.play(
                        next == 0 ? "trackA" : "trackB", transition: .crossfade(.milliseconds(250)))
                    let time = (BenchClock.wall() - start) * 1e6
                    // A call the scheduler preempted measures the machine, not the call: counted apart.
                    if threadSwitches().involuntary == before.involuntary {
                        switchTimes.withLock { $0.append(time) }
                    } else {
                        shared.preemptedControls.add(1, ordering: .relaxed)
                    }
                } catch {
                    fail("trigger-under-load: music.play failed: \(error)")
                }
                next ^= 1
                shared.switches.add(1, ordering: .relaxed)
            }
            musicDone.signal()
        }
        musicThread.name = "bench-music"
        if parts.contains("music") { musicThread.start() } else { musicDone.signal() }
        // The scene: preload (parallel, as a game does) and unload, back to back.
        let sceneTask = Task.detached { () -> Int in
            var cycles = 0
            while parts.contains("scene") && !shared.stop.load(ordering: .relaxed) {
                let held = try await bank.preload(scene)
                if let failure = held.failures.first { fail("trigger-under-load: scene preload: \(failure)") }
                held.unload()
                cycles += 1
            }
            // `scene1`: the C peer's load, one sound after another on one thread.
            while parts.contains("scene1") && !shared.stop.load(ordering: .relaxed) {
                for name in scene { try bank.load(name) }
                for name in scene { bank.unload(name) }
                cycles += 1
            }
            return cycles
        }

        // The trigger thread is this one. One sample per call; the warm-up is one second.
        let perRun = Int(seconds / period)
        let times = UnsafeMutableBufferPointer<Double>.allocate(capacity: perRun)
        defer { times.deallocate() }
        var refused = 0
        var late = 0
        var stats: [[Double]] = Array(repeating: [], count: quantiles.count)
        var blocked = 0
        var preempted = 0
        var running = 0.0
        var unpreempted: [Double] = []
        var blockedPerRun: [Double] = []
        // The other calls, timed in turn every fourth period (names as in the case names).
        let controls = ["voices", "isactive", "busvolume"]
        var controlTimes: [[Double]] = Array(repeating: [], count: controls.count)
        var controlStats: [String: [Double]] = [:]
        var lastHandle: VoiceHandle?
        let startSwitches = shared.switches.load(ordering: .relaxed)
        var total = 0
        for run in -1..<runs {
            let count = run < 0 ? Int(1 / period) : perRun
            var deadline = BenchClock.wall() + period
            for i in 0..<count {
                if sleep(until: deadline) {
                    // Late (preempted): count it and go on from now rather than fire a burst.
                    late += 1
                    deadline = BenchClock.wall()
                }
                deadline += period
                let pitch = 0.9 + 0.02 * Float(i % 11)
                let pan = Float(i % 21) / 10 - 1
                let before = threadSwitches()
                let start = BenchClock.wall()
                let handle = try effects.play(blip, volume: 0.8, pitch: pitch, pan: pan)
                let time = (BenchClock.wall() - start) * 1e6
                if i % 4 == 0, run >= 0 {
                    let which = (i / 4) % controls.count
                    let switchesBefore = threadSwitches()
                    let begin = BenchClock.wall()
                    switch which {
                    case 0: _ = engine.activeVoiceCount
                    case 1: _ = lastHandle.map(engine.isActive)
                    default: try engine.setVolume(0.9 + 0.01 * Float(i % 7), for: .effects)
                    }
                    let elapsed = (BenchClock.wall() - begin) * 1e6
                    if threadSwitches().involuntary == switchesBefore.involuntary {
                        controlTimes[which].append(elapsed)
                    } else {
                        shared.preemptedControls.add(1, ordering: .relaxed)
                    }
                }
                lastHandle = handle ?? lastHandle
                let after = threadSwitches()
                times[i] = time
                if handle == nil { refused += 1 }
                if run >= 0 {
                    // A voluntary switch: the call slept (a lock, a futex); involuntary: it was preempted.
                    if after.voluntary > before.voluntary { blocked += 1 }
                    if after.involuntary > before.involuntary {
                        preempted += 1
                    } else {
                        running = max(running, time)
                    }
                }
            }
            if run < 0 { continue }
            total += count
            unpreempted.append(running)
            blockedPerRun.append(Double(blocked))
            blocked = 0
            running = 0
            for (which, name) in controls.enumerated() {
                let sorted = controlTimes[which].sorted()
                controlTimes[which].removeAll(keepingCapacity: true)
                controlStats["\(name)-p999", default: []].append(Self.quantile(0.999, of: sorted))
                controlStats["\(name)-max", default: []].append(sorted.last ?? 0)
            }
            let switches = switchTimes.withLock { times in
                defer { times.removeAll() }
                return times.sorted()
            }
            controlStats["music-p999", default: []].append(Self.quantile(0.999, of: switches))
            controlStats["music-max", default: []].append(switches.last ?? 0)
            let sorted = times[0..<count].sorted()
            for (k, quantile) in quantiles.enumerated() {
                // Nearest rank: the smallest figure with at least q of the calls at or below it.
                let rank = Int((quantile.q * Double(count)).rounded(.up))
                stats[k].append(sorted[min(count, max(1, rank)) - 1])
            }
        }
        shared.stop.store(true, ordering: .relaxed)
        let cycles = try await sceneTask.value
        musicDone.wait()
        let switched = shared.switches.load(ordering: .relaxed) - startSwitches
        engine.waitForMixer()
        guard engine.activeVoiceCount > 0 else { fail("trigger-under-load: nothing is playing at the end") }
        if refused > 0 { progress("trigger-under-load: \(refused) triggers refused (ring full)") }
        let note = "default device \(engine.deviceName); 1 trigger / 200 us for \(seconds) s per run"
        let extra = [
            "triggers": Double(total), "refused": Double(refused), "lateWakeups": Double(late),
            "musicSwitches": Double(switched), "sceneCycles": Double(cycles), "preempted": Double(preempted),
            "preemptedControlCalls": Double(shared.preemptedControls.load(ordering: .relaxed)),
        ]
        let what =
            "every 200 us while music crossfades every 0.5 s (streamed) and a scene is preloaded and unloaded in a loop"
        for (k, quantile) in quantiles.enumerated() {
            CaseReport(
                case: "\(underLoad)-\(quantile.suffix)", unit: "us",
                label: "EffectStation.play(SoundID, ...) call time, \(quantile.suffix), " + what,
                samples: stats[k], note: note, extra: extra
            ).emit()
        }
        // The other calls, each beside the trigger's own figure of the same statistic.
        for name in controls + ["music"] {
            for (suffix, k) in [("p999", 2), ("max", 3)] {
                let call =
                    name == "music"
                    ? "music.play(crossfade) on the music thread" : "\(name) on the trigger thread"
                CaseReport(
                    case: "control-under-load-\(name)-\(suffix)", unit: "us",
                    label: "\(call) (calls the scheduler did not preempt), \(suffix), " + what,
                    samples: controlStats["\(name)-\(suffix)"] ?? [],
                    note: note, extra: extra
                ).emit()
                CaseReport(
                    case: "control-under-load-\(name)-\(suffix)", side: "engine-variant",
                    peer: "soundstation-trigger", unit: "us",
                    label: "the trigger's own call time, \(suffix), " + what, samples: stats[k], note: note
                ).emit()
            }
        }
        CaseReport(
            case: "control-under-load-music-first", unit: "us",
            label: "the session's first music.play (a cut, before the load starts), one per process; "
                + "counted in the first run's music rows unless the scheduler preempted it",
            samples: [firstSwitch], note: note,
            extra: extra.merging([
                "firstPreempted": firstPreempted ? 1 : 0, "firstMinorFaults": Double(firstSwitchFaults),
            ]) { $1 }
        ).emit()
        CaseReport(
            case: "\(underLoad)-max-unpreempted", unit: "us",
            label: "the longest play call the thread was not preempted in (no involuntary context switch), "
                + what,
            samples: unpreempted, note: note, extra: extra
        ).emit()
        CaseReport(
            case: "\(underLoad)-blocked", unit: "calls",
            label: "play calls per run that slept (a voluntary context switch: a lock or futex wait), "
                + what,
            samples: blockedPerRun, note: note, extra: extra
        ).emit()
    }

    /// Nearest rank: the smallest figure with at least `q` of the sorted figures at or below it.
    static func quantile(_ q: Double, of sorted: [Double]) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((q * Double(sorted.count)).rounded(.up))
        return sorted[min(sorted.count, max(1, rank)) - 1]
    }

    /// What the trigger thread shares with the music thread and the scene task.
    private final class Shared: Sendable {
        let stop = Atomic<Bool>(false)
        let switches = Atomic<Int>(0)
        /// Control calls left out of the figures because the thread was preempted during them.
        let preemptedControls = Atomic<Int>(0)
    }

    // MARK: idle-music

    private static func idleMusic(_ work: Workspace, runs: Int, seconds: Double) throws {
        guard let engine = deviceEngine(idle) else { return }
        defer { engine.shutdown() }
        let sound = SoundSystem(
            engine: engine, catalogue: try Catalogue(assetsRoot: work.load))
        try sound.bank.load("trackA")
        try sound.music.play("trackA")
        let samples = repeated(runs: runs) { run in
            let span = run < 0 ? 1 : seconds
            let start = rusageCPU()
            sleep(until: BenchClock.wall() + span)
            return (rusageCPU() - start) * 1e3
        }
        engine.waitForMixer()
        guard sound.music.current == "trackA", engine.activeVoiceCount == 1 else {
            fail("idle-music: the track is not playing at the end")
        }
        CaseReport(
            case: idle, unit: "ms",
            label:
                "CPU (getrusage user+sys) of \(Int(seconds)) s of music.play(streamed looping track), nothing else",
            samples: samples, note: "default device \(engine.deviceName)"
        ).emit()
    }

    // MARK: idle-device

    /// `idle-device` (`active` false) and `idle-device-active`: one engine per run, so every run
    /// begins as a game's does, and no warm-up run (what a run measures starts 1 s after the engine
    /// opened, when its one-time costs are behind it).
    private static func idleDevice(_ name: String, active: Bool, runs: Int, seconds: Double) {
        var deviceName = ""
        let samples = (0..<runs).map { _ -> Double in
            guard let engine = deviceEngine(name) else { return .nan }
            defer { engine.shutdown() }
            deviceName = engine.deviceName
            sleep(until: BenchClock.wall() + 1)
            let start = rusageCPU()
            let began = BenchClock.wall()
            var next = began
            while BenchClock.wall() < began + seconds {
                if active {
                    do {
                        try engine.setListener(SoundPosition(x: 0, y: 0), glide: .zero)
                    } catch {
                        fail("\(name): setListener failed: \(error)")
                    }
                }
                next += switchEvery
                sleep(until: min(next, began + seconds))
            }
            let cpu = rusageCPU() - start
            guard engine.activeVoiceCount == 0 else { fail("\(name): something is playing") }
            return cpu * 1e3 / seconds
        }
        guard !samples.contains(where: \.isNaN) else { return }
        CaseReport(
            case: name, unit: "ms/s",
            label: active
                ? "CPU per second (getrusage user+sys) of an engine with the device open and nothing playing, "
                    + "a setListener call every 0.5 s"
                : "CPU per second (getrusage user+sys) of an engine with the device open and nothing playing, "
                    + "no call, \(Int(seconds)) s from 1 s after it opened",
            samples: samples, note: "default device \(deviceName)"
        ).emit()
    }

    /// User plus system CPU time of the whole process, in seconds.
    static func rusageCPU() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) * 1e-6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) * 1e-6
    }

    /// The calling thread's context switches so far (getrusage RUSAGE_THREAD).
    static func threadSwitches() -> (voluntary: Int, involuntary: Int) {
        var usage = rusage()
        getrusage(1, &usage)  // RUSAGE_THREAD (Linux), which Glibc does not export to Swift
        return (usage.ru_nvcsw, usage.ru_nivcsw)
    }

    /// The calling thread's minor page faults so far (a first touch of a code or data page: the
    /// cost a session's first call of a kind pays that later ones do not).
    static func threadMinorFaults() -> Int {
        var usage = rusage()
        getrusage(1, &usage)  // RUSAGE_THREAD
        return usage.ru_minflt
    }

    /// Sleeps until `deadline` on the monotonic clock.
    /// - Returns: True when the deadline had already passed (the caller is late).
    @discardableResult
    static func sleep(until deadline: Double) -> Bool {
        if BenchClock.wall() >= deadline { return true }
        var target = timespec(tv_sec: Int(deadline), tv_nsec: Int((deadline - deadline.rounded(.down)) * 1e9))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, nil) == EINTR {}
        return false
    }
}
