extension EffectStation {
    /// Fires an effect on the music's grid: at the next beat, bar, multiple of bars or marker of the
    /// station's ``timeline``, through the same `at:` path as a time on the engine clock (offline,
    /// exactly on the grid's frame). With no music playing it fires at once.
    /// - Parameters:
    ///   - name: A loaded catalogue entry.
    ///   - volume: Multiplies the catalogue's volume.
    ///   - pitch: 1 as recorded.
    ///   - pan: -1 left, 0 centre, 1 right.
    ///   - point: The grid point.
    /// - Returns: As ``play(_:volume:pitch:pan:at:)-(String,_,_,_,Duration?)``.
    /// - Throws: ``MusicError/noTimeline`` for a station that follows no music, ``MusicError/load(_:)``
    ///   for an effect that is unknown or not loaded, or the timeline's errors (no tempo, no marker).
    @discardableResult
    public func play(
        _ name: String, volume: Float = 1, pitch: Float = 1, pan: Float = 0, at point: MusicQuantize
    ) throws(MusicError) -> VoiceHandle? {
        try playNow(name, volume: volume, pitch: pitch, pan: pan, at: try gridTime(of: point))
    }

    /// Fires an effect named by a typed resource on the music's grid.
    /// - Parameters:
    ///   - effect: A ``SoundResource`` naming a loaded effect.
    ///   - volume: Multiplies the catalogue's volume.
    ///   - pitch: 1 as recorded.
    ///   - pan: -1 left, 0 centre, 1 right.
    ///   - point: The grid point.
    /// - Returns: The voice, or `nil` when refused.
    /// - Throws: As ``play(_:volume:pitch:pan:at:)-(String,_,_,_,MusicQuantize)``.
    @discardableResult
    public func play(
        _ effect: some SoundResource, volume: Float = 1, pitch: Float = 1, pan: Float = 0,
        at point: MusicQuantize
    ) throws(MusicError) -> VoiceHandle? {
        try play(effect.catalogueName as String, volume: volume, pitch: pitch, pan: pan, at: point)
    }

    /// The engine time of a point on the station's ``timeline``.
    /// - Parameter point: The grid point.
    /// - Returns: The time on the engine clock; `nil` for at once.
    /// - Throws: ``MusicError/noTimeline`` for a station that follows no music, or the timeline's
    ///   errors.
    public func gridTime(of point: MusicQuantize) throws(MusicError) -> Duration? {
        guard point != .now else { return nil }
        guard let timeline else { throw .noTimeline }
        return try timeline.time(of: point)
    }

    private func playNow(
        _ name: String, volume: Float, pitch: Float, pan: Float, at time: Duration?
    ) throws(MusicError) -> VoiceHandle? {
        do { return try play(name, volume: volume, pitch: pitch, pan: pan, at: time) } catch {
            throw .load(error)
        }
    }
}
