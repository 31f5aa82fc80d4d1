extension AudioEngine {
    /// Moves a voice to another frame of its sound, keeping it playing or paused as it was; for a
    /// voice player's scrubbing and skipping.
    ///
    /// A streamed voice (``play(_:options:at:)-(SoundStream,_,_)``, streamed music) empties its queue
    /// and decodes from the new frame; it is silent until the first chunk there is ready (offline: not
    /// at all, the next render begins exactly at the frame), and ``position(of:)`` reports the new
    /// frame once the mixing side has carried the seek out. A stale handle does nothing.
    /// - Parameters:
    ///   - voice: The handle ``play(_:options:at:)-(SoundBuffer,_,_)`` returned.
    ///   - frame: The frame to play next, 0 or more (past the sound's end: its last frame).
    /// - Throws: ``AudioEngineError/invalidArgument(name:value:expected:)`` for a negative frame.
    public func seek(_ voice: VoiceHandle, toFrame frame: Int) throws(AudioEngineError) {
        guard frame >= 0 else {
            throw .invalidArgument(
                name: "seek frame", value: "\(frame)", expected: "a frame of the sound, 0 or more")
        }
        submit(.seek(voice, frame: frame))
    }
}

extension Mixer {
    /// Carries out ``EngineCommand/seek(_:frame:)``.
    /// - Returns: False for a stale handle or a voice that could not be moved.
    @discardableResult
    func applySeek(_ voice: VoiceHandle, toFrame frame: Int, in state: inout EngineState) -> Bool {
        do {
            guard let slot = state.pool.slot(of: voice) else { return false }
            let current = state.pool.voices[Int(slot)]
            let frameCount = current.content?.frameCount ?? .max
            let target = min(max(frame, 0), max(frameCount - 1, 0))
            switch current.phase {
            case .scheduled:
                // Not started yet: begin() applies the offset when the source starts (a stream
                // decodes from there).
                state.pool.update(slot) { $0.startOffset = target }
                current.stream?.start(from: target)
            case .playing, .paused:
                guard let source = current.source else { return false }
                if current.filtered != nil {
                    // A filtered voice: a new feeder from the frame (a stream decodes from there
                    // first; its blocks are queued as they come).
                    source.clearForQueue()
                    current.stream?.start(from: target)
                    let now = currentFrame(&state)
                    guard (try? startFiltered(slot, source: source, from: target, in: &state, at: now)) != nil
                    else { return false }
                    if current.phase == .playing { try? source.play() }
                } else if let stream = current.stream {
                    stream.restart(from: target, source: source)
                } else {
                    source.sampleOffset = target
                }
            case .free:
                return false
            }
            return true
        }
    }
}
