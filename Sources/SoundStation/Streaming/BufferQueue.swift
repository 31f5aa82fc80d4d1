/// The bookkeeping of a source fed through a queue of OpenAL buffers (a stream, a filtered voice):
/// where in the sound each queued buffer begins, and how often the queue ran dry. Mixing side only.
struct BufferQueue {
    /// The sound frame each queued buffer begins at, oldest first (played ones stay until unqueued).
    var starts: [Int] = []
    /// The sound frame the next buffer begins at, for the position with nothing queued.
    var next = 0
    /// Times the source stopped because the queue ran dry.
    private var underruns = 0

    /// The sound frame being heard: OpenAL's offset counts from the first buffer still queued.
    func position(source: OpenALSource) -> Int {
        (starts.first ?? next) + source.sampleOffset
    }

    /// After a refill: restarts a source that ran dry.
    /// - Parameter ended: Whether nothing more will come (asked only when nothing is queued).
    /// - Returns: False once the sound has played to its end.
    mutating func settle(source: OpenALSource, ended: () -> Bool) -> Bool {
        if starts.isEmpty { return !ended() }
        if source.state == .stopped {
            underruns += 1
            try? source.play()
        }
        return true
    }

    /// `count` buffers for a queue on `device`, each holding one silent frame until filled.
    static func makeBuffers(count: Int, device: OpenALDevice, sampleRate: Int, channels: Int)
        throws(AudioEngineError) -> [OpenALBuffer]
    {
        let silence = PCMAudio(
            sampleRate: sampleRate, channels: channels, samples: [Float](repeating: 0, count: channels))
        var buffers: [OpenALBuffer] = []
        for _ in 0..<count { buffers.append(try OpenALBuffer(device: device, audio: silence)) }
        return buffers
    }

    /// How many times the queue ran dry since the last call, for the engine's running count.
    mutating func takeUnderruns() -> Int {
        defer { underruns = 0 }
        return underruns
    }
}
