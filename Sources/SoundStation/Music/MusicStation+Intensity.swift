/// Layered tracks: stems that join as the music's intensity rises.
extension MusicStation {
    /// The intensity layered tracks play at, 0...1 (1 until set): each stem's gain follows it along
    /// the stem's `from` and `full` in the catalogue. It is the value last set (a glide towards it
    /// may still be under way).
    public var intensity: Double { state.withLock { $0.intensity } }

    /// Sets the intensity, for the playing track and those played later, at once or along a tween:
    /// each stem of the playing track glides from its gain now to its gain at `intensity` along the
    /// tween's easing (to the sample offline; a linear tween by default when only a length is given),
    /// from its start (now, a time, or a point of the music's grid such as
    /// `.music(.nextBar, of: music)`). OpenAL Soft smooths every step, so a glide makes no click.
    /// - Parameters:
    ///   - intensity: 0...1.
    ///   - tween: Duration, easing and start; at once by default.
    /// - Throws: ``MusicError/invalidIntensity(_:)`` outside 0...1, ``MusicError/invalidGlide(_:)``
    ///   for a negative duration, or the grid's error for a start it cannot name.
    public func setIntensity(_ intensity: Double, tween: Tween = Tween(.zero)) throws(MusicError) {
        guard (0...1).contains(intensity) else { throw .invalidIntensity(intensity) }
        let spec: TweenSpec
        do { spec = try TweenSpec(tween) } catch { throw MusicError(error) }
        submit(.setIntensity(intensity, tween: spec))
    }
}
