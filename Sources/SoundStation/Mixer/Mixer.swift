import Glibc
import Synchronization

/// The engine's mixing side: it owns what the engine plays (``EngineState``: voices, buses, space,
/// tweens, scheduled calls, the render clock, EFX) and is the one place a command takes effect
/// (``perform(_:in:events:)``).
///
/// A mixer runs on one thread at a time, which holds it for a whole turn (``run(_:)``): a driver's
/// round on its thread (a device's or quiet output's, Drivers/OutputDriver.swift), a
/// ``AudioEngine/render(frames:)`` on its caller, or ``AudioEngine/shutdown()``, which must see the
/// live state after the driver stopped. Inside a turn nothing takes a
/// lock for the state; ``assertOnMixer(file:line:)`` checks, in debug builds, that code which may
/// only run there does. The game's threads never touch it: they write commands into the engine's
/// ring and read the snapshot the mixer publishes after each turn.
///
/// `@unchecked Sendable`: ``state`` is read and written only by the thread holding the turn, which
/// ``run(_:)`` hands over under a lock.
final class Mixer: @unchecked Sendable {
    /// The control handle this mixer works for (its ring, sound table, device, event hub), which
    /// owns the mixer and so outlives it.
    var engine: AudioEngine { attached.unsafelyUnwrapped }
    private unowned(unsafe) var attached: AudioEngine?
    /// Everything the mixer owns; touched only by the thread holding the turn.
    private var owned: EngineState
    /// Held for a whole turn.
    private let turn = Locked(())
    /// The thread holding the turn now (0 when none).
    private let holder = Atomic<UInt>(0)

    /// What turns this mixer and where its mix goes.
    let driver: any OutputDriver

    init(state: EngineState, driver: any OutputDriver) {
        owned = state
        self.driver = driver
    }

    /// Ties the mixer to the engine that owns it, once, while the engine is made.
    func attach(to engine: AudioEngine) { attached = engine }

    /// Whether the calling thread holds the mixer now.
    var isCurrent: Bool { holder.load(ordering: .relaxed) == pthread_self() }

    /// Stops a debug build when the caller does not hold the mixer: for code that may only run there
    /// (as swift-nio's `assertInEventLoop`). Free in release builds.
    func assertOnMixer(file: StaticString = #fileID, line: UInt = #line) {
        assert(isCurrent, "mixer state touched off the mixer's thread", file: file, line: line)
    }

    /// Runs `body` holding the mixer: at once when the caller holds it already (an event handler or
    /// a scheduled call inside a turn), else after the turn in progress, if any, ends.
    func run<T>(_ body: () -> T) -> T {
        if isCurrent { return body() }
        return turn.withLock { _ in
            holder.store(pthread_self(), ordering: .relaxed)
            defer { holder.store(0, ordering: .relaxed) }
            return body()
        }
    }

    /// The state, for code holding the mixer.
    var state: EngineState {
        _read {
            assertOnMixer()
            yield owned
        }
        _modify {
            assertOnMixer()
            yield &owned
        }
    }

    /// Runs `body` on the state, then sends the events it produced (after it, so a handler may call
    /// the engine).
    func withState<T>(_ body: (inout EngineState, inout [SoundEvent]) -> T) -> T {
        var events: [SoundEvent] = []
        let result = body(&state, &events)
        engine.hub.send(events)
        return result
    }

    /// Runs `body` on the state, handing its events back to the caller to send.
    func withState<T>(
        collecting events: inout [SoundEvent], _ body: (inout EngineState, inout [SoundEvent]) -> T
    ) -> T {
        body(&state, &events)
    }

    /// Runs `body` on the state (no events).
    func update<T>(_ body: (inout EngineState) -> T) -> T { body(&state) }

    /// The state as it is when nothing else can hold the mixer any more (the engine is being freed).
    func withStateWhileFreeing<T>(_ body: (inout EngineState) -> T) -> T { body(&owned) }

    // What the mixer reads of the engine it works for.

    var device: OpenALDevice { engine.device }
    var sounds: Locked<SoundTable> { engine.sounds }
    var ring: CommandRing { engine.ring }
    var hub: EventHub { engine.hub }
    var notices: Broadcast<String> { engine.notices }
    var sampleRate: Int { engine.sampleRate }
    var channels: Int { engine.channels }
    var output: AudioOutput { engine.output }
    var colourAvailable: Bool { engine.colourAvailable }

    /// The engine-clock time of `frame`, for events.
    func time(ofFrame frame: Int64) -> Duration { .frames(frame, rate: sampleRate) }

    /// The render-clock frame for `time` (``AudioEngine/frame(for:)``).
    func frame(for time: Duration) -> Int64 { engine.frame(for: time) }

    /// The clock's frame: the device clock advances with wall time, the others with rendering.
    func currentFrame(_ state: inout EngineState) -> Int64 {
        if driver.isDevice {
            state.frame = driver.clockFrame(rendered: state.frame)
            engine.renderedFrame.store(state.frame, ordering: .relaxed)
        }
        return state.frame
    }

    /// Housekeeping's grid of frames (``AudioEngine/quantum``).
    static var quantum: Int64 { AudioEngine.quantum }
}
