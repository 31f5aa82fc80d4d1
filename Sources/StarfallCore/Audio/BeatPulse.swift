import SoundStation

/// A flash that follows the music's beats for a front end to draw: full on the tick a beat is heard,
/// fading out over ``fadeTicks`` ticks, brighter on the first beat of a bar.
///
/// ```swift
/// pulse.tick(heard: audio.heardBeats)  // once per game tick
/// let brightness = pulse.level          // 0...1
/// ```
public struct BeatPulse: Sendable, Equatable {
    /// Ticks a flash takes to fade (at 60 ticks per second, 0.13 s: shorter than a beat at 150 bpm).
    public static let fadeTicks = 8
    /// How bright the flash is now, 0...1.
    public private(set) var level = 0.0
    /// Whether the last beat was the first of its bar.
    public private(set) var isDownbeat = false
    private var seen = 0

    /// A pulse that has seen no beat.
    public init() {}

    /// Moves the pulse on one game tick.
    /// - Parameter heard: ``GameAudio/heardBeats``: the beats heard so far and the last one.
    public mutating func tick(heard: (count: Int, last: MusicBeat?)) {
        if heard.count != seen {
            seen = heard.count
            level = 1
            isDownbeat = heard.last?.beat == 1
        } else {
            level = max(0, level - 1 / Double(Self.fadeTicks))
        }
    }
}
