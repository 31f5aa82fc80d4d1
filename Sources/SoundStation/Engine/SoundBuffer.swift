/// Decoded audio uploaded to the engine's device, ready to play with no work left on the trigger path.
///
/// One buffer serves every voice that plays it; it is freed when the last reference goes away, and a
/// playing voice keeps a reference, so freeing never cuts a sound off. When the device is lost and
/// reopened, the engine uploads the sound again from where it came from (its file, or a copy of the
/// samples it was made from).
public final class SoundBuffer: Sendable {
    /// The name it was loaded under (a catalogue name or a file name), used in events and messages.
    public let name: String
    /// Frames per second.
    public let sampleRate: Int
    /// 1 (mono) or 2 (stereo).
    public let channels: Int
    /// Length in frames.
    public let frameCount: Int
    /// Bytes of PCM held by the device: 2 per sample for a sound whose samples are all exact 16-bit
    /// values (a 16- or 8-bit source), 4 (float) otherwise.
    public let byteCount: Int
    /// The id that triggers it (``AudioEngine/triggerPort``): its own, or its bank sound's.
    public let id: SoundID
    /// The ring of the engine that made it, which tells that engine's buffers from others'.
    let ring: CommandRing
    /// Whether the id is the buffer's own (marked unplayable when it is freed) rather than a bank
    /// sound's, which the bank manages.
    let ownsID: Bool
    /// The frames a looping voice repeats, if not all of them.
    let loopPoints: Range<Int>?
    /// Produces the samples again for a new device.
    let reload: @Sendable () throws -> PCMAudio
    private let current: Locked<OpenALBuffer>

    init(
        name: String, id: SoundID, ring: CommandRing, ownsID: Bool, audio: PCMAudio, device: OpenALDevice,
        loopPoints: Range<Int>?, reload: @escaping @Sendable () throws -> PCMAudio
    ) throws(AudioEngineError) {
        self.name = name
        self.id = id
        self.ring = ring
        self.ownsID = ownsID
        self.sampleRate = audio.sampleRate
        self.channels = audio.channels
        self.frameCount = audio.frameCount
        self.loopPoints = loopPoints
        self.reload = reload
        let uploaded = try Self.upload(audio, to: device, loopPoints: loopPoints)
        self.byteCount = uploaded.byteCount
        self.current = Locked(uploaded)
    }

    deinit {
        if ownsID { ring.setReady(id, false) }
    }

    /// The length: frames over the sample rate.
    public var duration: Duration { .frames(Int64(frameCount), rate: sampleRate) }

    /// The OpenAL buffer on the engine's current device.
    var storage: OpenALBuffer { current.withLock { $0 } }

    /// Uploads the sound to `device` without installing it yet (see ``install(_:)``).
    func prepare(for device: OpenALDevice) throws -> OpenALBuffer {
        try Self.upload(try reload(), to: device, loopPoints: loopPoints)
    }

    /// Makes `buffer` (from ``prepare(for:)``) the one voices play from now on.
    func install(_ buffer: OpenALBuffer) {
        current.withLock { $0 = buffer }
    }

    private static func upload(_ audio: PCMAudio, to device: OpenALDevice, loopPoints: Range<Int>?)
        throws(AudioEngineError) -> OpenALBuffer
    {
        let buffer = try OpenALBuffer(device: device, audio: audio, compact: true)
        if let loopPoints { try buffer.setLoopPoints(loopPoints) }
        return buffer
    }
}

/// The engine's list of live buffers, so a reopened device can be given every sound again.
final class BufferRegistry: Sendable {
    private struct Entry: @unchecked Sendable {
        // `@unchecked`: a weak reference to a Sendable class, read and written only under the mutex.
        weak var buffer: SoundBuffer?
    }

    private let entries = Locked<[Entry]>([])

    func add(_ buffer: SoundBuffer) {
        entries.withLock { entries in
            entries.removeAll { $0.buffer == nil }
            entries.append(Entry(buffer: buffer))
        }
    }

    var live: [SoundBuffer] {
        entries.withLock { $0.compactMap(\.buffer) }
    }
}
