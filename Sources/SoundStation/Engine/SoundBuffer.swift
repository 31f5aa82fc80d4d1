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
    /// The decoded samples, kept for voices the engine filters itself (``CutoffFilter``), which it
    /// feeds to OpenAL block by block without decoding on the mixing side. They share storage with the
    /// samples the buffer was made from; for a sound loaded from a file they are 4 bytes a sample
    /// beside OpenAL's copy (a preloaded 30 s stereo track: 11.5 MB; long music is better streamed).
    let samples: [Float]
    /// Produces the samples again for a new device.
    let reload: @Sendable () throws -> PCMAudio
    /// The device's copy; shared (the same box) by every buffer made with ``init(sharing:name:id:)``
    /// from this one, so a device change that uploads the origin again moves them all.
    private let current: Locked<OpenALBuffer>
    /// The buffer whose samples and device copy this one plays, kept alive (and so in the engine's
    /// list of buffers to upload again after a device loss) for as long as this one lives; `nil` for
    /// a buffer that uploaded its own.
    let origin: SoundBuffer?

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
        self.samples = audio.samples
        self.reload = reload
        let uploaded = try Self.upload(audio, to: device, loopPoints: loopPoints)
        self.byteCount = uploaded.byteCount
        self.current = Locked(uploaded)
        self.origin = nil
    }

    /// A buffer under another name and id that plays `source`'s samples and device copy (loop points
    /// included): nothing is decoded, copied or uploaded, so a catalogue of many entries on one file
    /// holds that file's samples once.
    /// - Parameters:
    ///   - source: A buffer of the same engine.
    ///   - name: The name this one is played under.
    ///   - id: Its id (a bank's, which the bank manages).
    init(sharing source: SoundBuffer, name: String, id: SoundID) {
        let origin = source.origin ?? source
        self.name = name
        self.id = id
        self.ring = origin.ring
        self.ownsID = false
        self.sampleRate = origin.sampleRate
        self.channels = origin.channels
        self.frameCount = origin.frameCount
        self.loopPoints = origin.loopPoints
        self.samples = origin.samples
        self.reload = origin.reload
        self.byteCount = origin.byteCount
        self.current = origin.current
        self.origin = origin
    }

    /// The buffer that holds the samples this one plays: itself, or the one it shares.
    var holder: SoundBuffer { origin ?? self }

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
