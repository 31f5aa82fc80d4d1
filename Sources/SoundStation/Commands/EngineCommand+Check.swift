extension EngineCommand {
    /// Throws unless every value of the command is one the call that writes it accepts: the same
    /// checks, for a command that comes from elsewhere (the SSH player's, decoded from the wire) and
    /// goes to the mixer without a call. A trigger's options are clamped where it is placed
    /// (``PlayOptions/clamped()``), as the mixer clamps a game's.
    /// - Parameter sampleRate: The engine's rate, which a filter's cutoff must stay under.
    /// - Throws: ``AudioEngineError/invalidArgument(name:value:expected:)`` naming the value.
    package func check(sampleRate: Int) throws(AudioEngineError) {
        switch self {
        case .play, .pause, .resume, .pauseAll, .resumeAll, .setBusMuted, .setDucking, .seek, .pauseMusic,
            .resumeMusic, .setHRTF:
            break
        case .stop(_, let fade), .stopAll(_, let fade), .stopMusic(let fade, _):
            try Self.check(fade, "fade")
        case .setVoice(_, let parameter, let value, let tween):
            switch parameter {
            case .volume: try PlayOptions.check(volume: value)
            case .pitch: try PlayOptions.check(pitch: value)
            case .pan: try PlayOptions.check(pan: value)
            }
            try tween.map(Self.check)
        case .setPosition(_, let position, let glide):
            try position.check()
            try Self.check(glide, "glide")
        case .setVoiceFilter(_, let filter, let glide), .setBusFilter(_, let filter, let glide):
            try filter?.check(sampleRate: sampleRate)
            try Self.check(glide, "glide")
        case .setBusVolume(_, let volume, let tween):
            try PlayOptions.check(volume: volume)
            try tween.map(Self.check)
        case .setBusReverb(_, let reverb): try reverb?.check()
        case .setListener(let position, let glide):
            try position.check("listener")
            try Self.check(glide, "glide")
        case .setSpatialLayout(let layout): try layout.check()
        case .playMusic(_, let transition, _, _, _, let repeats):
            switch transition {
            case .fadeIn(let fade), .crossfade(let fade): try Self.check(fade, "transition")
            case .cut: break
            }
            if let repeats, !PlayOptions.repeatsRange.contains(repeats) {
                throw .invalidArgument(
                    name: "repeats", value: "\(repeats)", expected: "\(PlayOptions.repeatsRange)")
            }
        case .setIntensity(let intensity, let tween):
            guard (0...1).contains(intensity) else {
                throw .invalidArgument(name: "intensity", value: "\(intensity)", expected: "0...1")
            }
            try Self.check(tween)
        case .setMusicSpeed(let speed, let tween):
            guard StretchGroup.speedRange.contains(speed) else {
                throw .invalidArgument(name: "speed", value: "\(speed)", expected: "0.5...2, 1 as recorded")
            }
            try Self.check(tween, "tween")
        }
    }

    private static func check(_ tween: TweenSpec) throws(AudioEngineError) {
        try check(tween.duration, "tween")
        if let start = tween.start { try check(start, "tween start") }
    }

    private static func check(_ length: Duration, _ name: String) throws(AudioEngineError) {
        guard length >= .zero else {
            throw .invalidArgument(name: name, value: "\(length)", expected: ".zero or longer")
        }
    }
}
