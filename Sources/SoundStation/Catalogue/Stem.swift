/// One layer of a layered music track: a file that plays with the track's own, started on the same
/// frame and looping with it, whose gain follows the music's intensity.
public struct Stem: Sendable, Equatable {
    /// The file, relative to the assets root, as the manifest writes it.
    public let path: String
    /// The absolute path of the file.
    public let resolvedPath: String
    /// The intensity at which the stem begins to be heard (key `from`, 0...1).
    public let from: Double
    /// The intensity at which it is at full gain (key `full`, `from`...1; default `from`).
    public let full: Double

    /// Creates a stem.
    /// - Parameters:
    ///   - path: The file as the manifest writes it.
    ///   - resolvedPath: Its absolute path.
    ///   - from: The intensity it joins at.
    ///   - full: The intensity it is at full gain from.
    public init(path: String, resolvedPath: String, from: Double, full: Double? = nil) {
        self.path = path
        self.resolvedPath = resolvedPath
        self.from = from
        self.full = max(full ?? from, from)
    }

    /// The stem's gain at an intensity: 0 below ``from``, 1 from ``full`` on, a straight line between.
    /// - Parameter intensity: 0...1.
    /// - Returns: 0...1.
    public func gain(at intensity: Double) -> Float {
        if intensity >= full { return intensity >= from ? 1 : 0 }
        if intensity <= from { return 0 }
        return Float((intensity - from) / (full - from))
    }
}

extension SoundEntry {
    /// The entry a stem of this layered track streams as: the track's settings (loop, tempo, decoding)
    /// with the stem's file.
    /// - Parameter index: The stem's place in ``stems``.
    /// - Returns: An entry named "NAME stem INDEX" with no stems of its own.
    func stemEntry(_ index: Int) -> SoundEntry {
        let stem = stems[index]
        return SoundEntry(
            name: "\(name) stem \(index)", path: stem.path, resolvedPath: stem.resolvedPath, kind: kind,
            volume: volume, loop: loop, priority: priority, maxInstances: maxInstances, steal: steal,
            stream: true, coalesceMilliseconds: coalesceMilliseconds, loopStart: loopStart, loopEnd: loopEnd,
            channels: channels, strict: strict, tempo: tempo, markers: markers
        )
        .withRepeats(repeats)
    }

    /// This entry with ``repeats`` set.
    func withRepeats(_ repeats: Int) -> SoundEntry {
        var entry = self
        entry.repeats = repeats
        return entry
    }
}
