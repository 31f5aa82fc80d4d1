extension SoundEvent {
    /// The event in the wire encoding (``WireFormat``, kinds from 64 up so a stream may mix commands
    /// and events), for the events the mixing side sends.
    /// - Returns: The bytes, or `nil` for the loader's events (``reloaded(sound:file:warnings:)``,
    ///   ``reloadFailed(file:error:)``, ``catalogueReloaded(added:removed:)``), which stay in the
    ///   process that watches the files.
    package func encoded() -> [UInt8]? {
        switch self {
        case .started(let voice, let sound, let time):
            var w = WireWriter(kind: 64)
            w.voiceEvent(voice, sound, time)
            return w.bytes
        case .finished(let voice, let sound, let reason, let time):
            var w = WireWriter(kind: 65)
            w.voiceEvent(voice, sound, time)
            w.u8(UInt8(FinishReason.allCases.firstIndex(of: reason)!))
            return w.bytes
        case .refused(let voice, let sound, let time):
            var w = WireWriter(kind: 66)
            w.voiceEvent(voice, sound, time)
            return w.bytes
        case .coalesced(let voice, let sound, let into, let time):
            var w = WireWriter(kind: 69)
            w.voiceEvent(voice, sound, time)
            w.u64(into.ticket)
            return w.bytes
        case .deviceLost(let reason, let time):
            var w = WireWriter(kind: 67)
            w.string(reason)
            w.duration(time)
            return w.bytes
        case .deviceRestored(let device, let time):
            var w = WireWriter(kind: 68)
            w.string(device)
            w.duration(time)
            return w.bytes
        case .hrtf(let status, let time):
            var w = WireWriter(kind: 70)
            w.u8(UInt8(HRTFStatus.allCases.firstIndex(of: status)!))
            w.duration(time)
            return w.bytes
        case .reloaded, .reloadFailed, .catalogueReloaded: return nil
        }
    }

    /// Reads an event written by ``encoded()``.
    /// - Parameter bytes: Exactly one encoded event.
    /// - Throws: ``WireError`` for bytes no encoder of this version writes.
    package init(decoding bytes: [UInt8]) throws(WireError) {
        var r = try WireReader(bytes)
        switch r.kind {
        case 64:
            self = .started(VoiceHandle(ticket: try r.u64()), sound: try r.string(), time: try r.duration())
        case 65:
            let (voice, sound, time) = (VoiceHandle(ticket: try r.u64()), try r.string(), try r.duration())
            let reason = Int(try r.u8())
            guard reason < FinishReason.allCases.count else {
                throw .invalidValue(field: "finish reason", value: "\(reason)")
            }
            self = .finished(voice, sound: sound, reason: FinishReason.allCases[reason], time: time)
        case 66:
            self = .refused(VoiceHandle(ticket: try r.u64()), sound: try r.string(), time: try r.duration())
        case 67: self = .deviceLost(reason: try r.string(), time: try r.duration())
        case 68: self = .deviceRestored(device: try r.string(), time: try r.duration())
        case 69:
            let (voice, sound, time) = (VoiceHandle(ticket: try r.u64()), try r.string(), try r.duration())
            self = .coalesced(voice, sound: sound, into: VoiceHandle(ticket: try r.u64()), time: time)
        case 70:
            let status = Int(try r.u8())
            guard status < HRTFStatus.allCases.count else {
                throw .invalidValue(field: "HRTF status", value: "\(status)")
            }
            self = .hrtf(HRTFStatus.allCases[status], time: try r.duration())
        default: throw .unknownKind(r.kind)
        }
        try r.finish()
    }
}

extension SoundEvent.FinishReason {
    /// Every reason, in the order of its wire number.
    static let allCases: [Self] = [.ended, .stopped, .stolen, .deviceLost]
}

extension WireWriter {
    fileprivate mutating func voiceEvent(_ voice: VoiceHandle, _ sound: String, _ time: Duration) {
        u64(voice.ticket)
        string(sound)
        duration(time)
    }
}
