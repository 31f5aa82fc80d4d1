import COpenAL

extension EngineCommand {
    /// The command in the wire encoding (``WireFormat``): a version byte, a kind byte, its fields.
    /// - Returns: A few dozen bytes; ``init(decoding:)`` reads them back to an equal command.
    package func encoded() -> [UInt8] {
        var w = WireWriter(kind: kind)
        switch self {
        case .play(let voice, let sound, let options, let frame):
            w.u64(voice.ticket)
            w.i32(sound.rawValue)
            w.options(options)
            w.optional(frame) { $0.i64($1) }
        case .stop(let voice, let fade):
            w.u64(voice.ticket)
            w.duration(fade)
        case .stopAll(let bus, let fade):
            w.optional(bus) { $0.bus($1) }
            w.duration(fade)
        case .pause(let voice), .resume(let voice): w.u64(voice.ticket)
        case .pauseAll, .resumeAll, .pauseMusic, .resumeMusic: break
        case .setVoice(let voice, let parameter, let value, let tween):
            w.u64(voice.ticket)
            w.u8(parameter.rawValue)
            w.f32(value)
            w.optional(tween) { $0.tween($1) }
        case .setPosition(let voice, let position, let glide):
            w.u64(voice.ticket)
            w.position(position)
            w.duration(glide)
        case .setVoiceFilter(let voice, let filter, let glide):
            w.u64(voice.ticket)
            w.optional(filter) { $0.filter($1) }
            w.duration(glide)
        case .seek(let voice, let frame):
            w.u64(voice.ticket)
            w.i64(Int64(frame))
        case .setBusVolume(let bus, let volume, let tween):
            w.bus(bus)
            w.f32(volume)
            w.optional(tween) { $0.tween($1) }
        case .setBusMuted(let bus, let muted):
            w.bus(bus)
            w.bool(muted)
        case .setBusFilter(let bus, let filter, let glide):
            w.bus(bus)
            w.optional(filter) { $0.filter($1) }
            w.duration(glide)
        case .setBusReverb(let bus, let reverb):
            w.bus(bus)
            w.optional(reverb) { $0.reverb($1) }
        case .setDucking(let ducking):
            w.f32(ducking.level)
            w.duration(ducking.attack)
            w.duration(ducking.release)
            w.bool(ducking.underLoudEffects)
            w.f32(ducking.loudEffectVolume)
        case .setListener(let position, let glide):
            w.position(position)
            w.duration(glide)
        case .setSpatialLayout(let layout):
            w.f32(layout.width)
            w.distanceModel(layout.distanceModel)
        case .playMusic(let sound, let transition, let position, let frame, let loop, let repeats):
            w.i32(sound.rawValue)
            w.transition(transition)
            w.startPosition(position)
            w.optional(frame) { $0.i64($1) }
            // Written only when the call asked for them: a switch without them reads as before.
            if loop != nil || repeats != nil {
                w.optional(loop) { $0.bool($1) }
                w.optional(repeats) { $0.i32(Int32(clamping: $1)) }
            }
        case .stopMusic(let fade, let frame):
            w.duration(fade)
            w.optional(frame) { $0.i64($1) }
        case .setIntensity(let intensity, let tween):
            w.f64(intensity)
            w.tween(tween)
        case .setMusicSpeed(let speed, let tween):
            w.f64(speed)
            w.duration(tween)
        case .setHRTF(let enabled): w.bool(enabled)
        }
        return w.bytes
    }

    /// Reads a command written by ``encoded()``.
    /// - Parameter bytes: Exactly one encoded command.
    /// - Throws: ``WireError`` for bytes no encoder of this version writes (short, long, unknown kind,
    ///   values out of range); nothing is read past the end.
    package init(decoding bytes: [UInt8]) throws(WireError) {
        var r = try WireReader(bytes)
        switch r.kind {
        case 1:
            self = .play(
                voice: VoiceHandle(ticket: try r.u64()), sound: SoundID(rawValue: try r.i32()),
                options: try r.options(), frame: try r.optional { (r) throws(WireError) in try r.i64() })
        case 2: self = .stop(VoiceHandle(ticket: try r.u64()), fade: try r.duration())
        case 3:
            self = .stopAll(
                bus: try r.optional { (r) throws(WireError) in try r.bus() }, fade: try r.duration())
        case 4: self = .pause(VoiceHandle(ticket: try r.u64()))
        case 5: self = .resume(VoiceHandle(ticket: try r.u64()))
        case 6: self = .pauseAll
        case 7: self = .resumeAll
        case 8:
            let voice = VoiceHandle(ticket: try r.u64())
            let raw = try r.u8()
            guard let parameter = VoiceParameter(rawValue: raw) else {
                throw .invalidValue(field: "voice parameter", value: "\(raw)")
            }
            self = .setVoice(
                voice, parameter, try r.f32(),
                tween: try r.optional { (r) throws(WireError) in try r.tween() })
        case 9:
            self = .setPosition(VoiceHandle(ticket: try r.u64()), try r.position(), glide: try r.duration())
        case 10:
            self = .setVoiceFilter(
                VoiceHandle(ticket: try r.u64()), try r.optional { (r) throws(WireError) in try r.filter() },
                glide: try r.duration())
        case 11:
            let voice = VoiceHandle(ticket: try r.u64())
            let frame = try r.i64()
            guard let frame = Int(exactly: frame), frame >= 0 else {
                throw .invalidValue(field: "seek frame", value: "\(frame)")
            }
            self = .seek(voice, frame: frame)
        case 12:
            self = .setBusVolume(
                try r.bus(), try r.f32(), tween: try r.optional { (r) throws(WireError) in try r.tween() })
        case 13: self = .setBusMuted(try r.bus(), try r.bool())
        case 14:
            self = .setBusFilter(
                try r.bus(), try r.optional { (r) throws(WireError) in try r.filter() },
                glide: try r.duration())
        case 15: self = .setBusReverb(try r.bus(), try r.optional { (r) throws(WireError) in try r.reverb() })
        case 16:
            self = .setDucking(
                Ducking(
                    level: try r.f32(), attack: try r.duration(), release: try r.duration(),
                    underLoudEffects: try r.bool(), loudEffectVolume: try r.f32()))
        case 17: self = .setListener(try r.position(), glide: try r.duration())
        case 18:
            self = .setSpatialLayout(SpatialLayout(width: try r.f32(), distanceModel: try r.distanceModel()))
        case 19:
            let (sound, transition, position) = (
                SoundID(rawValue: try r.i32()), try r.transition(), try r.startPosition()
            )
            let frame = try r.optional { (r) throws(WireError) in try r.i64() }
            // A switch written without its loop and repeats (as the previous release wrote every
            // switch) plays as its track's entry says.
            var (loop, repeats): (Bool?, Int?) = (nil, nil)
            if !r.isAtEnd {
                loop = try r.optional { (r) throws(WireError) in try r.bool() }
                repeats = try r.optional { (r) throws(WireError) in try r.repeats() }
                // No encoder writes the two absent: a switch without them ends at its frame.
                guard loop != nil || repeats != nil else {
                    throw .invalidValue(field: "loop and repeats", value: "both absent")
                }
            }
            self = .playMusic(
                sound: sound, transition: transition, from: position, frame: frame, loop: loop,
                repeats: repeats)
        case 20:
            self = .stopMusic(
                fade: try r.duration(), frame: try r.optional { (r) throws(WireError) in try r.i64() })
        case 21: self = .pauseMusic
        case 22: self = .resumeMusic
        case 23: self = .setIntensity(try r.f64(), tween: try r.tween())
        case 24: self = .setMusicSpeed(try r.f64(), tween: try r.duration())
        case 25: self = .setHRTF(try r.bool())
        default: throw .unknownKind(r.kind)
        }
        try r.finish()
    }

    /// The kind byte of the encoding; never reused for another command.
    var kind: UInt8 {
        switch self {
        case .play: 1
        case .stop: 2
        case .stopAll: 3
        case .pause: 4
        case .resume: 5
        case .pauseAll: 6
        case .resumeAll: 7
        case .setVoice: 8
        case .setPosition: 9
        case .setVoiceFilter: 10
        case .seek: 11
        case .setBusVolume: 12
        case .setBusMuted: 13
        case .setBusFilter: 14
        case .setBusReverb: 15
        case .setDucking: 16
        case .setListener: 17
        case .setSpatialLayout: 18
        case .playMusic: 19
        case .stopMusic: 20
        case .pauseMusic: 21
        case .resumeMusic: 22
        case .setIntensity: 23
        case .setMusicSpeed: 24
        case .setHRTF: 25
        }
    }
}

extension WireWriter {
    mutating func bus(_ bus: Bus) { u8(bus.index) }

    mutating func position(_ position: SoundPosition) {
        f32(position.x)
        f32(position.y)
        f32(position.z)
    }

    mutating func tween(_ tween: TweenSpec) {
        duration(tween.duration)
        u8(UInt8(Easing.allCases.firstIndex(of: tween.easing)!))
        optional(tween.start) { $0.duration($1) }
    }

    mutating func options(_ options: PlayOptions) {
        f32(options.volume)
        f32(options.pitch)
        f32(options.pan)
        bool(options.loop)
        i64(Int64(options.priority))
        bus(options.bus)
        optional(options.position) { $0.position($1) }
        // Bit 0: spatialize; bit 1: a pitch shift follows (a trigger without one stays as compact).
        u8((options.spatialize ? 1 : 0) | (options.pitchShift != 0 ? 2 : 0))
        if options.pitchShift != 0 { f32(Float(options.pitchShift)) }
        optional(options.filter) { $0.filter($1) }
        f32(options.reverbSend)
        f32(options.duckMusic)
    }

    mutating func filter(_ filter: SoundFilter) {
        switch filter {
        case .lowpass(let gain, let gainHF):
            u8(0)
            f32(gain)
            f32(gainHF)
        case .highpass(let gain, let gainLF):
            u8(1)
            f32(gain)
            f32(gainLF)
        case .bandpass(let gain, let gainLF, let gainHF):
            u8(2)
            f32(gain)
            f32(gainLF)
            f32(gainHF)
        case .cutoff(let cutoff):
            u8(3)
            u8(UInt8(CutoffFilter.Kind.allCases.firstIndex(of: cutoff.kind)!))
            f32(cutoff.cutoff)
            f32(cutoff.q)
        }
    }

    mutating func reverb(_ r: Reverb) {
        for value in [
            r.density, r.diffusion, r.gain, r.gainHF, r.decayTime, r.decayHFRatio, r.reflectionsGain,
            r.reflectionsDelay, r.lateReverbGain, r.lateReverbDelay, r.airAbsorptionGainHF,
            r.roomRolloffFactor,
        ] { f32(value) }
        bool(r.decayHFLimit)
        f32(r.wet)
    }

    mutating func distanceModel(_ model: DistanceModel) {
        switch model {
        case .none: u8(0)
        case .inverse(let reference, let maxDistance, let rolloff),
            .linear(let reference, let maxDistance, let rolloff),
            .exponential(let reference, let maxDistance, let rolloff):
            switch model {
            case .inverse: u8(1)
            case .linear: u8(2)
            default: u8(3)
            }
            f32(reference)
            f32(maxDistance)
            f32(rolloff)
        }
    }

    mutating func transition(_ transition: MusicTransition) {
        switch transition {
        case .cut: u8(0)
        case .fadeIn(let length):
            u8(1)
            duration(length)
        case .crossfade(let length):
            u8(2)
            duration(length)
        }
    }

    mutating func startPosition(_ position: MusicStation.StartPosition) {
        switch position {
        case .restart: u8(0)
        case .resume: u8(1)
        case .downbeat: u8(2)
        case .marker(let name):
            u8(3)
            string(name)
        }
    }
}

extension WireReader {
    mutating func bus() throws(WireError) -> Bus {
        let index = try u8()
        guard index < 4 else { throw .invalidValue(field: "bus", value: "\(index)") }
        return Bus(index: index)
    }

    mutating func position() throws(WireError) -> SoundPosition {
        SoundPosition(x: try f32(), y: try f32(), z: try f32())
    }

    mutating func tween() throws(WireError) -> TweenSpec {
        let length = try duration()
        let easing = Int(try u8())
        guard easing < Easing.allCases.count else { throw .invalidValue(field: "easing", value: "\(easing)") }
        return TweenSpec(
            duration: length, easing: Easing.allCases[easing],
            start: try optional { (r) throws(WireError) in try r.duration() })
    }

    mutating func options() throws(WireError) -> PlayOptions {
        let (volume, pitch, pan, loop) = (try f32(), try f32(), try f32(), try bool())
        let priority = try i64()
        guard (0...255).contains(priority) else {
            throw .invalidValue(field: "priority", value: "\(priority)")
        }
        let bus = try bus()
        let position = try optional { (r) throws(WireError) in try r.position() }
        let flags = try u8()
        guard flags <= 3 else { throw .invalidValue(field: "spatialize", value: "\(flags)") }
        let pitchShift = flags & 2 != 0 ? Double(try f32()) : 0
        var options = PlayOptions(
            volume: volume, pitch: pitch, pan: pan, loop: loop, priority: Int(priority), bus: bus,
            position: position, spatialize: flags & 1 != 0,
            filter: try optional { (r) throws(WireError) in try r.filter() }, reverbSend: try f32(),
            duckMusic: try f32())
        options.pitchShift = pitchShift
        return options
    }

    mutating func filter() throws(WireError) -> SoundFilter {
        switch try u8() {
        case 0: return .lowpass(gain: try f32(), gainHF: try f32())
        case 1: return .highpass(gain: try f32(), gainLF: try f32())
        case 2: return .bandpass(gain: try f32(), gainLF: try f32(), gainHF: try f32())
        case 3:
            let kind = Int(try u8())
            guard kind < CutoffFilter.Kind.allCases.count else {
                throw .invalidValue(field: "filter kind", value: "\(kind)")
            }
            return .cutoff(CutoffFilter(CutoffFilter.Kind.allCases[kind], cutoff: try f32(), q: try f32()))
        case let other: throw .invalidValue(field: "filter", value: "\(other)")
        }
    }

    mutating func reverb() throws(WireError) -> Reverb {
        var r = Reverb(EFXEAXREVERBPROPERTIES())
        r.density = try f32()
        r.diffusion = try f32()
        r.gain = try f32()
        r.gainHF = try f32()
        r.decayTime = try f32()
        r.decayHFRatio = try f32()
        r.reflectionsGain = try f32()
        r.reflectionsDelay = try f32()
        r.lateReverbGain = try f32()
        r.lateReverbDelay = try f32()
        r.airAbsorptionGainHF = try f32()
        r.roomRolloffFactor = try f32()
        r.decayHFLimit = try bool()
        r.wet = try f32()
        return r
    }

    mutating func distanceModel() throws(WireError) -> DistanceModel {
        let kind = try u8()
        if kind == 0 { return .none }
        let (reference, maxDistance, rolloff) = (try f32(), try f32(), try f32())
        switch kind {
        case 1: return .inverse(reference: reference, maxDistance: maxDistance, rolloff: rolloff)
        case 2: return .linear(reference: reference, maxDistance: maxDistance, rolloff: rolloff)
        case 3: return .exponential(reference: reference, maxDistance: maxDistance, rolloff: rolloff)
        default: throw .invalidValue(field: "distance model", value: "\(kind)")
        }
    }

    mutating func transition() throws(WireError) -> MusicTransition {
        switch try u8() {
        case 0: return .cut
        case 1: return .fadeIn(try duration())
        case 2: return .crossfade(try duration())
        case let other: throw .invalidValue(field: "transition", value: "\(other)")
        }
    }

    mutating func repeats() throws(WireError) -> Int {
        let repeats = Int(try i32())
        guard PlayOptions.repeatsRange.contains(repeats) else {
            throw .invalidValue(field: "repeats", value: "\(repeats)")
        }
        return repeats
    }

    mutating func startPosition() throws(WireError) -> MusicStation.StartPosition {
        switch try u8() {
        case 0: return .restart
        case 1: return .resume
        case 2: return .downbeat
        case 3: return .marker(try string())
        case let other: throw .invalidValue(field: "start position", value: "\(other)")
        }
    }
}
