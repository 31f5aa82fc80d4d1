extension AudioEngine {
    /// Moves a voice to another frame of its sound, keeping it playing or paused as it was; for a
    /// voice player's scrubbing and skipping.
    /// - Parameters:
    ///   - voice: The handle ``play(_:options:at:)`` returned.
    ///   - frame: The frame to play next, clamped to the sound.
    /// - Returns: False for a stale handle or a streamed sound, which cannot jump.
    @discardableResult
    public func seek(_ voice: VoiceHandle, toFrame frame: Int) -> Bool {
        withState { state, _ in
            guard let slot = state.pool.slot(of: voice), state.pool.voices[Int(slot)].stream == nil,
                let buffer = state.pool.voices[Int(slot)].buffer
            else { return false }
            let current = state.pool.voices[Int(slot)]
            let target = min(max(frame, 0), max(buffer.frameCount - 1, 0))
            switch current.phase {
            case .scheduled:
                // Not started yet: begin() applies the offset when the source starts.
                state.pool.update(slot) { $0.startOffset = target }
            case .playing, .paused:
                current.source?.sampleOffset = target
            case .free:
                return false
            }
            return true
        }
    }
}
