/// The engine's voices and what is scheduled on them: part of the state the mixer owns.
///
/// Sources are created on demand up to the device's limit and then reused, never leaked; when all are
/// busy a new sound takes the voice of the least important one (lowest priority, then oldest).
/// Voices are found by slot on the mixing side, by ticket from a handle, and by sound id for limits:
/// no string is hashed.
struct VoicePool {
    private(set) var voices: [Voice] = []
    private var freeSlots: [Int32] = []
    /// Slots that are playing, paused or scheduled, in the order they became busy (a removed slot's
    /// place is taken by the last one): housekeeping walks this array, never a hashed set.
    private(set) var busySlots: [Int32] = []
    /// Each slot's index in ``busySlots``, or -1.
    private var busyIndex: [Int32] = []
    /// The slot each live ticket names (coalesced repeats included).
    private var slotsByTicket: [UInt64: Int32] = [:]
    /// Busy slots by sound id, oldest first, for per-sound limits.
    private var instances: [[Int32]] = []
    /// Future starts, ordered by frame then trigger order.
    private(set) var scheduled: [(frame: Int64, slot: Int32)] = []
    private var nextSequence: UInt64 = 0
    let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    /// The slot each live ticket names, for the snapshot queries read.
    var tickets: [UInt64: Int32] { slotsByTicket }

    /// The number of sources created so far.
    var sourceCount: Int { voices.count { $0.source != nil } }

    /// The busy slot `handle` names, or `nil` once its sound has ended or was refused.
    func slot(of handle: VoiceHandle) -> Int32? {
        slotsByTicket[handle.ticket]
    }

    func voice(_ handle: VoiceHandle) -> Voice? {
        slot(of: handle).map { voices[Int($0)] }
    }

    func handle(_ slot: Int32) -> VoiceHandle {
        VoiceHandle(ticket: voices[Int(slot)].ticket)
    }

    /// The busy slots playing `sound`, oldest first.
    func instances(of sound: SoundID) -> [Int32] {
        let index = Int(sound.rawValue)
        return instances.indices.contains(index) ? instances[index] : []
    }

    /// Makes `ticket` name the voice in `slot` too (a repeat folded into it).
    mutating func alias(_ ticket: UInt64, to slot: Int32) {
        slotsByTicket[ticket] = slot
        voices[Int(slot)].aliases.append(ticket)
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
            busyIndex.append(-1)
            return (Int32(voices.count - 1), nil)
        }
        var victim: Int32?
        for slot in busySlots where voices[Int(slot)].options.priority <= priority {
            guard let best = victim else {
                victim = slot
                continue
            }
            let (x, y) = (voices[Int(slot)], voices[Int(best)])
            if (x.options.priority, x.sequence) < (y.options.priority, y.sequence) { victim = slot }
        }
        guard let slot = victim else { return nil }
        return (slot, take(slot))
    }

    /// Drops every source (they belong to a device that is gone); ``sourceFor(_:device:)`` makes new
    /// ones on the next device as voices need them.
    mutating func resetSources() {
        for index in voices.indices {
            voices[index].source = nil
            voices[index].gainSettled = false
        }
    }

    /// The slot's source, made on `device` if the slot has none yet.
    mutating func sourceFor(_ slot: Int32, device: OpenALDevice) throws(AudioEngineError) -> OpenALSource {
        if let source = voices[Int(slot)].source { return source }
        let source = try OpenALSource(device: device)
        voices[Int(slot)].source = source
        voices[Int(slot)].gainSettled = false
        return source
    }

    /// Frees `slot` for immediate reuse and returns what it held.
    mutating func take(_ slot: Int32) -> Voice {
        let displaced = voices[Int(slot)]
        release(slot)
        freeSlots.removeAll { $0 == slot }
        return displaced
    }

    /// Marks `slot` as holding a new sound under `ticket` and returns its handle.
    mutating func occupy(
        _ slot: Int32, request: VoiceRequest, ticket: UInt64, phase: Voice.Phase, startFrame: Int64
    ) -> VoiceHandle {
        let index = Int(slot)
        voices[index].ticket = ticket
        voices[index].aliases.removeAll(keepingCapacity: true)
        voices[index].sound = request.sound
        voices[index].name = request.name
        voices[index].content = request.content
        voices[index].options = request.options
        voices[index].positionRamp = request.options.position.map(PositionRamp.constant)
        voices[index].cutoffRamp = request.options.filter?.cutoffFilter.map(CutoffRamp.constant)
        voices[index].filtered = nil
        voices[index].stretch =
            request.stretch
            ?? (request.options.pitchShift == 0
                ? nil
                : StretchTap(group: StretchGroup(members: 1, semitones: request.options.pitchShift), index: 0))
        voices[index].fade = .constant(1)
        voices[index].stopsAfterFade = false
        voices[index].startOffset = request.startOffset
        voices[index].group = request.group
        voices[index].startFrame = startFrame
        voices[index].endEstimate = .max
        voices[index].appliedGain = -1
        voices[index].gainSettled = false
        voices[index].phase = phase
        // Its `started` is sent when it begins (``AudioEngine/begin(_:in:at:events:holdingPlay:)``),
        // or, should it end before then, just before its `finished`.
        voices[index].announced = false
        voices[index].resuming = false
        voices[index].pausedBeforeStart = false
        voices[index].sequence = nextSequence
        nextSequence += 1
        if busyIndex[index] < 0 {
            busyIndex[index] = Int32(busySlots.count)
            busySlots.append(slot)
        }
        slotsByTicket[ticket] = slot
        let sound = Int(request.sound.rawValue)
        if sound >= 0 {
            if sound >= instances.count {
                instances += Array(repeating: [], count: sound + 1 - instances.count)
            }
            instances[sound].append(slot)
        }
        if case .scheduled(let frame) = phase {
            let at = scheduled.firstIndex { $0.frame > frame } ?? scheduled.endIndex
            scheduled.insert((frame, slot), at: at)
        }
        return VoiceHandle(ticket: ticket)
    }

    /// Puts a busy voice back among the scheduled starts, at `frame` (a stream not decoded yet).
    mutating func reschedule(_ slot: Int32, at frame: Int64) {
        voices[Int(slot)].phase = .scheduled(frame: frame)
        voices[Int(slot)].gainSettled = false
        let at = scheduled.firstIndex { $0.frame > frame } ?? scheduled.endIndex
        scheduled.insert((frame, slot), at: at)
    }

    /// Changes a busy voice in place; its gain is worked out again at the next housekeeping.
    mutating func update(_ slot: Int32, _ change: (inout Voice) -> Void) {
        change(&voices[Int(slot)])
        voices[Int(slot)].gainSettled = false
    }

    /// Marks the voice's applied gain final under the current bus levels (``Voice/gainSettled``).
    mutating func settleGain(_ slot: Int32) {
        voices[Int(slot)].gainSettled = true
    }

    /// Records where a looping or streamed voice is, for a lost device (``Voice/lastOffset``): not a
    /// change its gain depends on.
    mutating func setLastOffset(_ slot: Int32, _ offset: Int) {
        voices[Int(slot)].lastOffset = offset
    }

    /// Returns `slot` to the free list, dropping its buffer or stream.
    mutating func release(_ slot: Int32) {
        let index = Int(slot)
        guard voices[index].isBusy else { return }
        // A slot is scheduled once at most (``takeDue(upTo:)`` removes it before a reschedule), and a
        // voice stolen before it began is near the front: no walk over the whole list.
        if case .scheduled = voices[index].phase, let at = scheduled.firstIndex(where: { $0.slot == slot }) {
            scheduled.remove(at: at)
        }
        voices[index].phase = .free
        voices[index].gainSettled = false
        voices[index].stream?.releaseBuffers()
        voices[index].content = nil
        voices[index].filtered = nil
        // The stretcher (and its SoundTouch instance) goes with the last voice that reads it.
        voices[index].stretch = nil
        let at = Int(busyIndex[index])
        if at >= 0 {
            let last = busySlots.removeLast()
            if at < busySlots.count {
                busySlots[at] = last
                busyIndex[Int(last)] = Int32(at)
            }
            busyIndex[index] = -1
        }
        slotsByTicket[voices[index].ticket] = nil
        for alias in voices[index].aliases { slotsByTicket[alias] = nil }
        let sound = Int(voices[index].sound.rawValue)
        if instances.indices.contains(sound), let at = instances[sound].firstIndex(of: slot) {
            instances[sound].remove(at: at)
        }
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
