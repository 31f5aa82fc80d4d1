import CSoundStation
import SoundStation

/// The events an engine keeps for `ss_poll_event`: the latest `capacity`, oldest first.
final class EventQueue: Sendable {
    /// One event as the C struct reports it.
    struct Record: Sendable {
        /// `SS_EVENT_*`.
        var type: Int32
        /// The sound's id, or -1.
        var soundID: Int32
        /// The sound's name, or the device or the reason of a device event.
        var name: String
        /// Seconds on the engine clock.
        var time: Double
        /// `SS_FINISH_*`, or 0.
        var reason: Int32
        /// The voice's ticket, or 0.
        var voice: UInt64

        init(
            type: ss_event_type, soundID: Int32, name: String, time: Double, reason: Int32 = 0,
            voice: UInt64 = 0
        ) {
            self.type = Int32(bitPattern: type.rawValue)
            self.soundID = soundID
            self.name = name
            self.time = time
            self.reason = reason
            self.voice = voice
        }
    }

    private struct Ring {
        var items: [Record] = []
        var head = 0
        /// Events dropped since the last overflow event was taken.
        var dropped = 0
    }

    private let ring = Locked(Ring())
    private let capacity: Int?

    /// A queue.
    /// - Parameter capacity: The most events kept (the oldest are dropped and counted), or `nil` to
    ///   keep every event until it is taken (offline, where a render makes them all at once).
    init(capacity: Int?) {
        self.capacity = capacity
    }

    /// Adds an event, dropping (and counting) the oldest when full.
    func push(_ record: Record) {
        ring.withLock { ring in
            if let capacity, ring.items.count - ring.head >= capacity {
                ring.head += 1
                ring.dropped += 1
            }
            ring.items.append(record)
            if ring.head > 1024 && ring.head * 2 > ring.items.count {
                ring.items.removeFirst(ring.head)
                ring.head = 0
            }
        }
    }

    /// Takes the oldest event; when events were dropped, first an `SS_EVENT_OVERFLOW` with the count.
    func pop() -> Record? {
        ring.withLock { ring in
            if ring.dropped > 0 {
                defer { ring.dropped = 0 }
                let time = ring.head < ring.items.count ? ring.items[ring.head].time : 0
                return Record(
                    type: SS_EVENT_OVERFLOW, soundID: -1, name: "\(ring.dropped) event(s) dropped",
                    time: time,
                    reason: Int32(clamping: ring.dropped))
            }
            guard ring.head < ring.items.count else {
                if !ring.items.isEmpty { ring.items.removeAll(keepingCapacity: false) }
                ring.head = 0
                return nil
            }
            defer { ring.head += 1 }
            return ring.items[ring.head]
        }
    }

    /// Drops every event and the memory they held (at `ss_close`).
    func clear() {
        ring.withLock { $0 = Ring() }
    }
}

extension ss_event {
    /// The C struct for a record, its name cut to 63 bytes and its text to 255 (on a UTF-8 boundary),
    /// NUL-terminated.
    init(_ record: EventQueue.Record) {
        self.init()
        type = record.type
        sound_id = record.soundID
        reason = record.reason
        time = record.time
        voice = record.voice
        let bytes = Array(record.name.utf8)
        withUnsafeMutableBytes(of: &name) { Self.copy(bytes, into: $0) }
        withUnsafeMutableBytes(of: &text) { Self.copy(bytes, into: $0) }
    }

    /// Copies `bytes` NUL-terminated into `raw`, cut on a UTF-8 boundary to fit.
    private static func copy(_ bytes: [UInt8], into raw: UnsafeMutableRawBufferPointer) {
        raw.initializeMemory(as: UInt8.self, repeating: 0)
        var end = min(bytes.count, raw.count - 1)
        if end < bytes.count {
            while end > 0 && bytes[end] & 0xC0 == 0x80 { end -= 1 }
        }
        raw.copyBytes(from: bytes[..<end])
    }
}
