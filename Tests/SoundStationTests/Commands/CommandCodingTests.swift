import Testing

@testable import SoundStation

/// The command and event vocabulary reads back exactly what was written, and refuses (never crashes
/// on) bytes no encoder writes: the next step sends them between processes.
@Suite struct CommandCodingTests {
    static let voice = VoiceHandle(ticket: 0x0123_4567_89AB_CDEF)
    static let tween = TweenSpec(duration: .milliseconds(1500), easing: .inOutCubic, start: .seconds(2))

    /// One of every command, with every optional both present and absent somewhere.
    static let commands: [EngineCommand] = [
        .play(voice: voice, sound: SoundID(rawValue: 7), options: PlayOptions(), frame: nil),
        .play(
            voice: voice, sound: SoundID(rawValue: 16_384),
            options: PlayOptions(
                volume: 0.5, pitch: 1.5, pan: -0.25, loop: true, priority: 200, bus: .voice,
                position: SoundPosition(x: 3, y: -4, z: 1), spatialize: true,
                filter: .lowpass(cutoff: 800, q: 2), reverbSend: 0.3, duckMusic: -12),
            frame: 48_000),
        .stop(voice, fade: .milliseconds(250)),
        .stopAll(bus: nil, fade: .zero),
        .stopAll(bus: .music, fade: .seconds(1)),
        .pause(voice), .resume(voice), .pauseAll, .resumeAll,
        .setVoice(voice, .volume, 0.25, tween: nil),
        .setVoice(voice, .pitch, 2, tween: tween),
        .setVoice(voice, .pan, -1, tween: TweenSpec(duration: .zero)),
        .setPosition(voice, SoundPosition(x: 1, y: 2), glide: .milliseconds(50)),
        .setVoiceFilter(voice, nil, glide: .zero),
        .setVoiceFilter(voice, .bandpass(gain: 0.9, gainLF: 0.2, gainHF: 0.3), glide: .milliseconds(10)),
        .setVoiceFilter(voice, .highpass(gain: 1, gainLF: 0.5), glide: .zero),
        .setVoiceFilter(voice, .lowpass(gain: 1, gainHF: 0.1), glide: .zero),
        .seek(voice, frame: 123_456),
        .setBusVolume(.effects, 0.8, tween: nil),
        .setBusVolume(.master, 0, tween: tween),
        .setBusMuted(.voice, true),
        .setBusFilter(.music, .highpass(cutoff: 300), glide: .seconds(2)),
        .setBusFilter(.music, nil, glide: .zero),
        .setBusReverb(.effects, ReverbPreset.allCases.last!.parameters),
        .setBusReverb(.effects, nil),
        .setDucking(Ducking(level: 0.1, attack: .milliseconds(5), underLoudEffects: true)),
        .setListener(SoundPosition(x: -5, y: 5, z: 0), glide: .zero),
        .setSpatialLayout(SpatialLayout()),
        .setSpatialLayout(SpatialLayout(width: 120, distanceModel: .none)),
        .setSpatialLayout(
            SpatialLayout(width: 40, distanceModel: .exponential(reference: 2, maxDistance: 9, rolloff: 3))),
        .setSpatialLayout(
            SpatialLayout(width: 40, distanceModel: .linear(reference: 1, maxDistance: 5, rolloff: 1))),
        .setHRTF(true), .setHRTF(false),
        .playMusic(sound: SoundID(rawValue: 3), transition: .cut, from: .restart, frame: nil),
        .playMusic(
            sound: SoundID(rawValue: 3), transition: .crossfade(.seconds(2)), from: .marker("boss"),
            frame: 96_000),
        .playMusic(
            sound: SoundID(rawValue: 4), transition: .fadeIn(.milliseconds(300)), from: .resume, frame: nil),
        .playMusic(sound: SoundID(rawValue: 4), transition: .cut, from: .downbeat, frame: 1),
        .playMusic(
            sound: SoundID(rawValue: 4), transition: .cut, from: .restart, frame: nil, loop: false, repeats: 3
        ),
        .playMusic(sound: SoundID(rawValue: 5), transition: .cut, from: .resume, frame: 9, loop: true),
        .stopMusic(fade: .seconds(1), frame: nil),
        .stopMusic(fade: .zero, frame: 480),
        .pauseMusic, .resumeMusic,
        .setIntensity(0.75, tween: tween),
        .setMusicSpeed(1.25, tween: .milliseconds(500)),
        .setMusicSpeed(0.5, tween: .zero),
        .play(voice: voice, sound: SoundID(rawValue: 9), options: shifted, frame: nil),
    ]

    /// Options with a pitch shift, which is written only when it is not 0.
    static var shifted: PlayOptions {
        var options = PlayOptions(spatialize: true)
        options.pitchShift = -7
        return options
    }

    @Test func everyCommandReadsBackEqual() throws {
        var kinds: Set<UInt8> = []
        for command in Self.commands {
            let bytes = command.encoded()
            #expect(bytes[0] == WireFormat.version)
            kinds.insert(bytes[1])
            #expect(try EngineCommand(decoding: bytes) == command, "\(command)")
        }
        // Every kind of command is in the list above.
        #expect(kinds == Set(1...25))
    }

    @Test func commandsAreCompact() {
        // A trigger by id with default options: version, kind, ticket, id, options, no frame.
        let trigger = EngineCommand.play(
            voice: Self.voice, sound: SoundID(rawValue: 1), options: PlayOptions(), frame: nil)
        #expect(trigger.encoded().count <= 48)
        #expect(EngineCommand.pauseAll.encoded() == [WireFormat.version, 6])
    }

    /// A switch written without a loop and repeats (as the first release wrote every switch) reads
    /// as one that plays as its track's entry says; with them, they are read back, and repeats
    /// beyond what a call accepts are refused.
    @Test func aSwitchReadsWithAndWithoutItsLoopAndRepeats() throws {
        let plain = EngineCommand.playMusic(
            sound: SoundID(rawValue: 2), transition: .cut, from: .restart, frame: 7)
        // Version, kind, id, transition, position, a frame.
        let first: [UInt8] = [WireFormat.version, 19, 2, 0, 0, 0, 0, 0, 1, 7, 0, 0, 0, 0, 0, 0, 0]
        #expect(plain.encoded() == first)
        #expect(try EngineCommand(decoding: first) == plain)
        let once = EngineCommand.playMusic(
            sound: SoundID(rawValue: 2), transition: .cut, from: .restart, frame: 7, loop: false, repeats: 2)
        #expect(once.encoded() == first + [1, 0, 1, 2, 0, 0, 0])
        #expect(try EngineCommand(decoding: first + [1, 0, 1, 2, 0, 0, 0]) == once)
        // One encoding per command: the two written absent is not one.
        #expect(throws: WireError.invalidValue(field: "loop and repeats", value: "both absent")) {
            try EngineCommand(decoding: first + [0, 0])
        }
        #expect(throws: WireError.invalidValue(field: "repeats", value: "1001")) {
            try EngineCommand(decoding: first + [1, 0, 1, 0xE9, 3, 0, 0])
        }
        #expect(throws: AudioEngineError.self) {
            try EngineCommand.playMusic(
                sound: SoundID(rawValue: 2), transition: .cut, from: .restart, frame: nil, repeats: -1
            ).check(sampleRate: 48_000)
        }
    }

    @Test func mixerEventsReadBackEqual() throws {
        let events: [SoundEvent] = [
            .started(Self.voice, sound: "coin", time: .milliseconds(500)),
            .finished(Self.voice, sound: "coin", reason: .stolen, time: .seconds(3)),
            .finished(Self.voice, sound: "é", reason: .deviceLost, time: .zero),
            .refused(Self.voice, sound: "boom", time: .nanoseconds(20_833)),
            .deviceLost(reason: "pulse disconnected", time: .seconds(9)),
            .deviceRestored(device: "Null Output", time: .seconds(10)),
        ]
        let statuses = HRTFStatus.allCases.map { SoundEvent.hrtf($0, time: .seconds(2)) }
        for event in events + statuses {
            let bytes = try #require(event.encoded())
            #expect(try SoundEvent(decoding: bytes) == event)
        }
        #expect(SoundEvent.catalogueReloaded(added: [], removed: []).encoded() == nil)
    }

    @Test func badBytesAreRefusedByName() {
        #expect(throws: WireError.truncated(needed: 2, at: 0)) { try EngineCommand(decoding: []) }
        #expect(throws: WireError.unsupportedVersion(9)) { try EngineCommand(decoding: [9, 6]) }
        #expect(throws: WireError.unknownKind(200)) {
            try EngineCommand(decoding: [WireFormat.version, 200])
        }
        #expect(throws: WireError.trailingBytes(1)) {
            try EngineCommand(decoding: [WireFormat.version, 6, 0])
        }
        #expect(throws: WireError.invalidValue(field: "bus", value: "9")) {
            try EngineCommand(decoding: [WireFormat.version, 13, 9, 0])
        }
        var stop = EngineCommand.stop(Self.voice, fade: .zero).encoded()
        stop.removeLast()
        #expect(throws: WireError.truncated(needed: 1, at: stop.count)) { try EngineCommand(decoding: stop) }
    }

    /// Every prefix and every one-byte change of every command either reads as some command or is
    /// refused: nothing traps, nothing reads past the end (a fuzzer does this at scale: `make fuzz`).
    @Test func damagedCommandsNeverTrap() {
        var generator = SystemRandomNumberGenerator()
        for command in Self.commands {
            let bytes = command.encoded()
            for length in 0..<bytes.count { _ = try? EngineCommand(decoding: Array(bytes[..<length])) }
            for _ in 0..<200 {
                var damaged = bytes
                damaged[Int.random(in: 1..<damaged.count, using: &generator)] = .random(
                    in: 0...255, using: &generator)
                if let read = try? EngineCommand(decoding: damaged) {
                    // What reads back encodes to the same bytes: one encoding per command.
                    #expect(read.encoded() == damaged)
                }
            }
        }
    }
}
