import CSoundStationRT

// The ranges are the C core's (ssrt.h), which `ss_play` checks and the mixing side holds a trigger
// from a signal handler to: one range per number, whatever the entry.
extension PlayOptions {
    /// The volumes a sound may be played at: silent to 24 dB up.
    public static let volumeRange: ClosedRange<Float> = 0...SSRT_VOLUME_MAX
    /// The pitches a sound may be played at: four octaves down to four up.
    public static let pitchRange: ClosedRange<Float> = SSRT_PITCH_MIN...SSRT_PITCH_MAX
    /// The pans a sound may be played at: hard left to hard right.
    public static let panRange: ClosedRange<Float> = -1...1
    /// The repeats a sound may be played with (``repeats``): each is one more whole pass.
    public static let repeatsRange: ClosedRange<Int> = 0...1000

    /// Throws unless every value is one the engine plays as asked: a bad value is a programming
    /// error, reported rather than quietly clamped.
    /// - Throws: ``AudioEngineError/invalidArgument(name:value:expected:)`` naming the value.
    public func check() throws(AudioEngineError) {
        try Self.check(volume: volume)
        try Self.check(pitch: pitch)
        try Self.check(pan: pan)
        try Self.check(reverbSend, "reverb send", in: 0...1, "0 dry to 1 full")
        guard (0...255).contains(priority) else {
            throw .invalidArgument(name: "priority", value: "\(priority)", expected: "0...255")
        }
        guard Self.repeatsRange.contains(repeats) else {
            throw .invalidArgument(
                name: "repeats", value: "\(repeats)", expected: "0...1000 passes after the first (or loop)")
        }
        guard fadeIn >= .zero, fadeIn <= .seconds(3600) else {
            throw .invalidArgument(name: "fadeIn", value: "\(fadeIn)", expected: "0...3600 seconds")
        }
        guard pitchShift.isFinite, StretchGroup.semitoneRange.contains(pitchShift) else {
            throw .invalidArgument(
                name: "pitchShift", value: "\(pitchShift)", expected: "-24...24 semitones, 0 for none")
        }
        try position?.check()
        try filter?.check()
        try Self.check(
            duckMusic, "duckMusic", in: Self.deepestDuck...0, "decibels the music dips to, 0 for none")
    }

    /// Throws unless `volume` is within ``volumeRange``.
    /// - Parameter volume: A linear gain.
    /// - Throws: ``AudioEngineError/invalidArgument(name:value:expected:)`` naming the value.
    public static func check(volume: Float) throws(AudioEngineError) {
        try check(volume, "volume", in: volumeRange, "a linear gain, 0 silent, 1 as recorded")
    }

    /// `pitch` brought into ``pitchRange``, 1 when it is not a number: for a product of checked
    /// values (a pitch times a catalogue entry's variation) and for a decoded command.
    static func clamped(pitch: Float) -> Float {
        pitch.isFinite ? pitchRange.clamp(pitch) : 1
    }

    /// These options brought into their ranges (``volumeRange``, ``pitchRange`` and the rest, the
    /// ranges ``check()`` holds them to), for options decoded from a game's commands rather than
    /// checked at a call: a number that is not finite takes its default, a position or filter with one
    /// is dropped.
    package func clamped() -> PlayOptions {
        var clamped = self
        clamped.volume = volume.isFinite ? Self.volumeRange.clamp(volume) : 0
        clamped.pitch = Self.clamped(pitch: pitch)
        clamped.pan = pan.isFinite ? Self.panRange.clamp(pan) : 0
        clamped.priority = max(0, min(255, priority))
        if let position, (try? position.check()) == nil { clamped.position = nil }
        if let filter, (try? filter.check()) == nil { clamped.filter = nil }
        clamped.reverbSend = reverbSend.isFinite ? max(0, min(1, reverbSend)) : 1
        clamped.duckMusic = duckMusic.isFinite ? max(Self.deepestDuck, min(0, duckMusic)) : 0
        clamped.pitchShift = pitchShift.isFinite ? StretchGroup.semitoneRange.clamp(pitchShift) : 0
        return clamped
    }

    /// Throws unless `pitch` is within ``pitchRange``.
    /// - Parameter pitch: A playback speed.
    /// - Throws: ``AudioEngineError/invalidArgument(name:value:expected:)`` naming the value.
    public static func check(pitch: Float) throws(AudioEngineError) {
        try check(pitch, "pitch", in: pitchRange, "a speed, 1 as recorded, 2 an octave up")
    }

    /// Throws unless `pan` is within ``panRange``.
    /// - Parameter pan: -1 left to 1 right.
    /// - Throws: ``AudioEngineError/invalidArgument(name:value:expected:)`` naming the value.
    public static func check(pan: Float) throws(AudioEngineError) {
        try check(pan, "pan", in: panRange, "-1 left, 0 centre, 1 right")
    }

    private static func check(
        _ value: Float, _ name: String, in range: ClosedRange<Float>, _ meaning: String
    ) throws(AudioEngineError) {
        guard range.contains(value) else {
            throw .invalidArgument(
                name: name, value: "\(value)",
                expected: "\(range.lowerBound)...\(range.upperBound) (\(meaning))")
        }
    }
}

extension ClosedRange {
    /// `value`, or the nearer bound when it lies outside.
    func clamp(_ value: Bound) -> Bound { Swift.min(Swift.max(value, lowerBound), upperBound) }
}
