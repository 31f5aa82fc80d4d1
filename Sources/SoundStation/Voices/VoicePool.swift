/// The engine's voices and what is scheduled on them: the state behind the engine's lock.
///
/// Sources are created on demand up to the device's limit and then reused, never leaked; when all are
/// busy a new sound takes the voice of the least important one (lowest priority, then oldest).
struct VoicePool {
    private(set) var voices: [Voice] = []
    private var freeSlots: [Int32] = []
    /// Slots that are playing, paused or scheduled, checked by housekeeping.
    private(set) var busySlots: Set<Int32> = []
    /// Busy slots by sound name, oldest first, for per-sound limits.
    private(set) var instances: [String: [Int32]] = [:]
    /// Future starts, ordered by frame then trigger order.
    private(set) var scheduled: [(frame: Int64, slot: Int32)] = []
    private var nextSequence: UInt64 = 0
    let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    /// The number of sources created so far.
    var sourceCount: Int { voices.count { $0.source != nil } }

    func voice(_ handle: VoiceHandle) -> Voice? {
        guard handle.slot >= 0, Int(handle.slot) < voices.count else { return nil }
        let voice = voices[Int(handle.slot)]
        return voice.generation == handle.generation && voice.isBusy ? voice : nil
    }

    func handle(_ slot: Int32) -> VoiceHandle {
        VoiceHandle(slot: slot, generation: voices[Int(slot)].generation)
    }

    /// Finds a slot for a sound of `priority`: a free one, a new one, or a stolen one.
    /// - Returns: The slot and the voice it displaced, or `nil` when every voice matters more.
    mutating func claim(priority: Int, device: OpenALDevice) throws(AudioEngineError)
        -> (slot: Int32, stolen: Voice?)?
    {
        if let slot = freeSlots.popLast() { return (slot, nil) }
        if voices.count < limit {
            let source = try OpenALSource(device: device)
            voices.append(Voice(source: source))
            return (Int32(voices.count - 1), nil)
        }
        let victim = busySlots.filter { voices[Int($0)].options.priority <= priority }.min { a, b in
            let (x, y) = (voices[Int(a)], voices[Int(b)])
            return (x.options.priority, x.sequence) < (y.options.priority, y.sequence)
        }
        guard let slot = victim else { return nil }
        return (slot, take(slot))
    }

    /// Drops every source (they belong to a device that is gone); ``sourceFor(_:device:)`` makes new
    /// ones on the next device as voices need them.
    mutating func resetSources() {
        for index in voices.indices { voices[index].source = nil }
    }

    /// The slot's source, made on `device` if the slot has none yet.
    mutating func sourceFor(_ slot: Int32, device: OpenALDevice) throws(AudioEngineError) -> OpenALSource {
        if let source = voices[Int(slot)].source { return source }
        let source = try OpenALSource(device: device)
        voices[Int(slot)].source = source
        return source
    }

    /// Frees `slot` for immediate reuse and returns what it held.
    mutating func take(_ slot: Int32) -> Voice {
        let displaced = voices[Int(slot)]
        release(slot)
        freeSlots.removeAll { $0 == slot }
        return displaced
    }

    /// Marks `slot` as holding a new sound and returns its handle.
    mutating func occupy(_ slot: Int32, request: VoiceRequest, phase: Voice.Phase, startFrame: Int64)
        -> VoiceHandle
    {
        var voice = voices[Int(slot)]
        voice.generation &+= 1
        voice.name = request.name
        voice.buffer = request.buffer
        voice.stream = request.stream
        voice.options = request.options
        voice.fade = .constant(1)
        voice.stopsAfterFade = false
        voice.startOffset = request.startOffset
        voice.startFrame = startFrame
        voice.appliedGain = -1
        voice.phase = phase
        voice.sequence = nextSequence
        nextSequence += 1
        voices[Int(slot)] = voice
        busySlots.insert(slot)
        instances[request.name, default: []].append(slot)
        if case .scheduled(let frame) = phase {
            let index = scheduled.firstIndex { $0.frame > frame } ?? scheduled.endIndex
            scheduled.insert((frame, slot), at: index)
        }
        return VoiceHandle(slot: slot, generation: voice.generation)
    }

    /// Changes a busy voice in place.
    mutating func update(_ slot: Int32, _ change: (inout Voice) -> Void) {
        change(&voices[Int(slot)])
    }

    /// Returns `slot` to the free list, dropping its buffer or stream.
    mutating func release(_ slot: Int32) {
        guard voices[Int(slot)].isBusy else { return }
        let name = voices[Int(slot)].name
        voices[Int(slot)].phase = .free
        voices[Int(slot)].buffer = nil
        voices[Int(slot)].stream = nil
        busySlots.remove(slot)
        instances[name]?.removeAll { $0 == slot }
        if instances[name]?.isEmpty == true { instances[name] = nil }
        scheduled.removeAll { $0.slot == slot }
        freeSlots.append(slot)
    }

    /// Removes and returns the scheduled starts due at or before `frame`.
    mutating func takeDue(upTo frame: Int64) -> [Int32] {
        let count = scheduled.prefix { $0.frame <= frame }.count
        guard count > 0 else { return [] }
        let due = scheduled[..<count].map(\.slot)
        scheduled.removeFirst(count)
        return due
    }

    /// The frame of the next scheduled start, if any.
    var nextScheduledFrame: Int64? { scheduled.first?.frame }
}
