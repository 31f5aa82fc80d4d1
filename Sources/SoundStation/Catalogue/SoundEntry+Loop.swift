extension SoundEntry {
    /// The loop points in frames for a sound of the given rate and length, or `nil` when the whole
    /// sound loops (or it does not loop).
    /// - Parameters:
    ///   - sampleRate: The decoded sound's rate, to turn seconds into frames.
    ///   - frameCount: Its length, which the points are clamped to.
    /// - Returns: `loopStart..<loopEnd` in frames.
    public func loopRange(sampleRate: Int, frameCount: Int) -> Range<Int>? {
        guard loop, loopStart != nil || loopEnd != nil, frameCount > 1 else { return nil }
        let end = min(max(loopEnd?.frame(atSampleRate: sampleRate) ?? frameCount, 1), frameCount)
        let start = min(max(loopStart?.frame(atSampleRate: sampleRate) ?? 0, 0), end - 1)
        return start..<end
    }
}
