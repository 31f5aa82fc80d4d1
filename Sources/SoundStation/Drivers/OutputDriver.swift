import Glibc

/// What turns an engine's ``Mixer`` and where its mix goes: one type per kind of output, each
/// driving the same mixer, so the mixer asks its driver instead of testing the output's kind.
///
/// - ``DeviceDriver``: a thread turns the mixer in rounds while OpenAL mixes to a device on its own;
///   the clock follows the wall clock; a lost device is reopened.
/// - ``QuietDriver`` (silent and remote output): a thread mixes up to the wall clock on a small
///   loopback device nobody hears, only to know where each source is.
/// - ``OfflineDriver``: no thread; ``AudioEngine/render(frames:)`` turns the mixer on its caller's
///   thread, and the clock moves only then.
protocol OutputDriver: AnyObject, Sendable {
    /// Whether anyone hears the mix. Unheard, fades step on a coarser grid, a gain change needs no
    /// quantum to settle, and streams are silence of their length instead of decoded audio.
    var isHeard: Bool { get }
    /// Whether the caller of ``AudioEngine/render(frames:)`` turns the mixer (offline): nothing
    /// moves between renders, so a voice's position is read when asked, streams decode on the
    /// rendering thread, and a fed stream's write wakes nobody.
    var rendersOnCaller: Bool { get }
    /// Whether the output is a device: the clock follows the wall clock between rounds, and the
    /// device can be lost (housekeeping watches for it and keeps looping voices' positions).
    var isDevice: Bool { get }
    /// The engine clock now, as any thread reads it, from the frame the mixer has rendered up to.
    func clockFrame(rendered: Int64) -> Int64
    /// Starts turning `engine`'s mixer (a thread for a device or quiet output; nothing offline).
    func start(engine: AudioEngine)
    /// Stops turning the mixer; with `wait`, returns once the thread touches it no more (never call
    /// that from the thread itself).
    func stop(wait: Bool)
}

/// Frames since an engine opened, by the wall clock.
///
/// In integer nanoseconds of `CLOCK_MONOTONIC` rather than `ContinuousClock`'s `Duration`: a device's
/// mixer reads it for every trigger it starts, and `Duration`'s 128-bit arithmetic made that read
/// about 560 instructions (a tenth of a trigger's work on the mixer).
struct WallClock: Sendable {
    /// The monotonic clock when the engine opened, in nanoseconds.
    let start: Int64
    let sampleRate: Int

    /// The monotonic clock now, in nanoseconds.
    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    /// The frame of now.
    var frame: Int64 {
        let elapsed = max(0, Self.now() - start)
        let rate = Int64(sampleRate)
        return elapsed / 1_000_000_000 * rate + elapsed % 1_000_000_000 * rate / 1_000_000_000
    }
}
