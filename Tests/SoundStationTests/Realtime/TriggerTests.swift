import Dispatch
import Foundation
import Glibc
import Synchronization
import Testing

@testable import SoundStation

/// The trigger path's contract: it never waits for the engine's lock, it is safe in a signal
/// handler, and a trigger by id for time `t` still starts at frame `round(t * rate)` offline.
@Suite struct TriggerTests {
    static let rate = 48_000

    /// A stereo buffer of a constant level: the mix (direct channels) is the sum of the levels of the
    /// voices playing, to the bit.
    private func constant(_ engine: AudioEngine, level: Float, seconds: Double = 1) throws -> SoundBuffer {
        let frames = Int(seconds * Double(Self.rate))
        let audio = PCMAudio(
            sampleRate: Self.rate, channels: 2, samples: [Float](repeating: level, count: frames * 2))
        return try engine.makeBuffer(audio, name: "level")
    }

    @Test func aTriggerCompletesWhileAnotherThreadHoldsTheEngineLock() throws {
        let engine = try AudioEngine(output: .offline(sampleRate: Self.rate, channels: 2))
        let buffer = try constant(engine, level: 0.005)
        let holding = DispatchSemaphore(value: 0)
        let triggered = DispatchSemaphore(value: 0)
        let released = DispatchSemaphore(value: 0)
        let timedOut = Atomic<Bool>(false)
        // Another thread holds the engine's state lock (as housekeeping, a stream switch or a lookup
        // would) until the triggers below are done, or gives up after 10 s.
        Thread {
            engine.mixer.run {
                holding.signal()
                if triggered.wait(timeout: .now() + 10) == .timedOut {
                    timedOut.store(true, ordering: .relaxed)
                }
            }
            released.signal()
        }.start()
        holding.wait()
        let port = engine.triggerPort
        var handles: [VoiceHandle] = []
        for _ in 0..<50 {
            handles += [try engine.play(buffer), port.play(buffer.id)].compactMap { $0 }
        }
        triggered.signal()
        released.wait()
        let waited = timedOut.load(ordering: .relaxed)
        #expect(!waited, "a trigger waited for the engine's lock")
        #expect(handles.count == 100)
        let mix = try engine.render(frames: 480)
        #expect(abs(mix.samples[200] - 100 * 0.005) < 1e-4, "every trigger is heard: \(mix.samples[200])")
    }

    @Test func aSignalHandlerTriggersWhileTheGameThreadDoes() throws {
        let engine = try AudioEngine(output: .offline(sampleRate: Self.rate, channels: 2))
        let buffer = try constant(engine, level: 0.001)
        SignalTarget.port.withLock { $0 = engine.triggerPort }
        SignalTarget.sound.store(buffer.id.rawValue, ordering: .relaxed)
        SignalTarget.fired.store(0, ordering: .relaxed)
        signal(SIGALRM) { _ in
            // Async-signal-safe: a plain load of the port, then the trigger itself.
            guard let port = SignalTarget.unsafePort else { return }
            if port.play(SoundID(rawValue: SignalTarget.sound.load(ordering: .relaxed))) != nil {
                SignalTarget.fired.add(1, ordering: .relaxed)
            }
        }
        // Ignored afterwards rather than restored: a late signal must not end the test process.
        defer { signal(SIGALRM, SIG_IGN) }
        SignalTarget.publish()
        // A game thread triggers while another signals it every millisecond, so some signals land
        // in the middle of a trigger (only that thread is interrupted, not the other tests').
        let counted = Atomic<Int>(0)
        let done = DispatchSemaphore(value: 0)
        let game = Thread {
            // Test-pool threads block signals; a game's thread does not.
            var unblock = sigset_t()
            sigemptyset(&unblock)
            sigaddset(&unblock, SIGALRM)
            pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
            SignalTarget.gameThread.store(
                UInt(bitPattern: Int(bitPattern: pthread_self())), ordering: .releasing)
            // Until the signals are over, so none is sent to a thread that has ended.
            while !SignalTarget.over.load(ordering: .acquiring) {
                if counted.load(ordering: .relaxed) < 100, engine.triggerPort.play(buffer.id) != nil {
                    counted.add(1, ordering: .relaxed)
                }
                usleep(500)
            }
            done.signal()
        }
        game.start()
        while SignalTarget.gameThread.load(ordering: .acquiring) == 0 { usleep(100) }
        let target = pthread_t(
            bitPattern: Int(bitPattern: SignalTarget.gameThread.load(ordering: .acquiring)))
        for _ in 0..<60 {
            pthread_kill(target, SIGALRM)
            usleep(1_000)
        }
        SignalTarget.over.store(true, ordering: .releasing)
        done.wait()
        let fromThread = counted.load(ordering: .relaxed)
        SignalTarget.unpublish()
        let fromHandler = SignalTarget.fired.load(ordering: .relaxed)
        #expect(fromHandler > 0, "the timer fired")
        let total = fromThread + fromHandler
        let mix = try engine.render(frames: 480)
        #expect(engine.activeVoiceCount == min(total, engine.voiceLimit))
        let expected = Float(min(total, engine.voiceLimit)) * 0.001
        #expect(
            abs(mix.samples[100] - expected) < 1e-4, "\(total) voices: \(mix.samples[100]) vs \(expected)")
    }

    @Test(arguments: [0.0, 0.25, 0.3333])
    func aTriggerByIDForATimeStartsAtItsFrame(time: Double) throws {
        let engine = try AudioEngine(output: .offline(sampleRate: Self.rate, channels: 2))
        let buffer = try constant(engine, level: 0.25, seconds: 0.1)
        #expect(engine.triggerPort.play(buffer.id, at: .seconds(time)) != nil)
        let mix = try engine.render(frames: Self.rate / 2)
        let onset = mix.samples.firstIndex { $0 != 0 }.map { $0 / 2 }
        #expect(onset == Int((time * Double(Self.rate)).rounded()))
    }

    @Test func finishedComesAtTheSoundsLastFrame() throws {
        let engine = try AudioEngine(output: .offline(sampleRate: Self.rate, channels: 2))
        // 57,600 frames (1.2 s) started at 0.25 s ends at exactly 1.45 s, not on a housekeeping step.
        let buffer = try constant(engine, level: 0.25, seconds: 1.2)
        let times = Mutex<[Double]>([])
        engine.onEvent { event in
            if case .finished(_, _, .ended, let time) = event { times.withLock { $0.append(time.inSeconds) } }
        }
        try engine.play(buffer, at: .seconds(0.25))
        let mix = try engine.render(frames: 2 * Self.rate)
        #expect(times.withLock { $0 } == [1.45])
        let last = mix.samples.lastIndex { $0 != 0 }.map { $0 / 2 }
        #expect(last == 69_600 - 1)
    }

    @Test func badValuesAndUnknownIDsAreRefusedWithoutAStart() throws {
        let engine = try AudioEngine(output: .offline(sampleRate: Self.rate, channels: 2))
        let buffer = try constant(engine, level: 0.25)
        let port = engine.triggerPort
        #expect(port.play(SoundID(rawValue: -1)) == nil)
        #expect(port.play(SoundID(rawValue: 9_999)) == nil)
        #expect(port.play(SoundID(rawValue: Int32.max)) == nil)
        #expect(port.play(buffer.id, volume: .nan) == nil)
        #expect(port.play(buffer.id, pitch: .infinity) == nil)
        // A time too far away to count in frames is clamped, never a crash.
        #expect(port.play(buffer.id, at: .seconds(Int64.max)) != nil)
        #expect(try engine.play(buffer, at: .seconds(Int64.max)) != nil)
        let mix = try engine.render(frames: 480)
        #expect(mix.samples.allSatisfy { $0 == 0 })
    }

    @Test func aPanOutsideTheFieldIsRefusedWithAnEventNotClamped() throws {
        let engine = try AudioEngine(output: .offline(sampleRate: Self.rate, channels: 2))
        let buffer = try constant(engine, level: 0.25)
        let refused = Mutex<[VoiceHandle]>([])
        engine.onEvent { event in
            if case .refused(let handle, _, _) = event { refused.withLock { $0.append(handle) } }
        }
        let port = engine.triggerPort
        let wide = try #require(port.play(buffer.id, pan: 1.5))
        let left = try #require(port.play(buffer.id, at: .milliseconds(1), pan: -3))
        let mix = try engine.render(frames: 480)
        #expect(refused.withLock { $0 } == [wide, left])
        #expect(!engine.isActive(wide) && !engine.isActive(left))
        #expect(mix.samples.allSatisfy { $0 == 0 }, "nothing was played at a clamped pan")
        // The edges of the field are fine.
        let right = try #require(port.play(buffer.id, pan: 1))
        _ = try engine.render(frames: 480)
        #expect(engine.isActive(right))
    }

    @Test func aFreedBufferStopsTriggeringByItsID() throws {
        let engine = try AudioEngine(output: .offline(sampleRate: Self.rate, channels: 2))
        var buffer: SoundBuffer? = try constant(engine, level: 0.25)
        let id = try #require(buffer?.id)
        #expect(engine.triggerPort.play(id) != nil)
        _ = try engine.render(frames: 48_000 + 480)
        buffer = nil
        #expect(engine.triggerPort.play(id) == nil, "the id of a freed buffer is refused")
        #expect(engine.bufferCount == 0)
    }

    @Test func aBufferMadeWhileTheDeviceWasReplacedMovesToTheNewOne() throws {
        let engine = try AudioEngine(output: .offline(sampleRate: Self.rate, channels: 2))
        let buffer = try constant(engine, level: 0.25)
        let old = engine.device
        // As a device reopened between this buffer's upload and its registration would.
        let fresh = try OpenALDevice(loopbackSampleRate: Self.rate, channels: 2)
        engine.currentDevice.withLock { $0 = fresh }
        engine.register(buffer)
        #expect(buffer.storage.device === fresh)
        #expect(buffer.storage.device !== old)
    }
}

/// What the signal handler reads: published before the timer starts, withdrawn after it stops.
private enum SignalTarget {
    static let port = Mutex<TriggerPort?>(nil)
    static let sound = Atomic<Int32>(-1)
    static let fired = Atomic<Int>(0)
    static let gameThread = Atomic<UInt>(0)
    static let over = Atomic<Bool>(false)
    /// Written only while no signal can arrive (before the timer starts and after it stops).
    nonisolated(unsafe) static var unsafePort: TriggerPort?

    static func publish() { unsafePort = port.withLock { $0 } }
    static func unpublish() { unsafePort = nil }
}

/// A sound whose samples are exact 16-bit values is kept as 16-bit PCM: half the memory, the same
/// output to the bit.
@Suite struct CompactBufferTests {
    @Test func sixteenBitSourcesTakeHalfTheMemoryAndRenderTheSame() throws {
        let rate = 48_000
        let exact = (0..<4_800).map { Float(Int16(truncatingIfNeeded: $0 &* 37 % 20_000 - 10_000)) / 32_768 }
        let float = exact.map { $0 + 1e-6 }
        let engine = try AudioEngine(output: .offline(sampleRate: rate, channels: 2))
        let compact = try engine.makeBuffer(
            PCMAudio(sampleRate: rate, channels: 1, samples: exact), name: "pcm16")
        let wide = try engine.makeBuffer(
            PCMAudio(sampleRate: rate, channels: 1, samples: float), name: "float")
        #expect(compact.byteCount == exact.count * 2)
        #expect(wide.byteCount == float.count * 4)
        try engine.play(compact, options: PlayOptions(pan: -1))
        let reference = try AudioEngine(output: .offline(sampleRate: rate, channels: 2))
        try reference.play(
            try reference.makeBuffer(
                PCMAudio(sampleRate: rate, channels: 1, samples: exact.map { $0 * 1.0000001 }), name: "f"),
            options: PlayOptions(pan: -1))
        let a = try engine.render(frames: 4_800)
        let b = try reference.render(frames: 4_800)
        let largest = zip(a.samples, b.samples).map { abs($0 - $1) }.max() ?? 1
        #expect(largest < 1e-5, "16-bit and float copies of one sound render alike: \(largest)")
        #expect(a.samples.contains { $0 != 0 })
    }
}
