extension AudioEngine {
    /// The render-clock frame `voice` began playing on, or `nil` while it waits to start (a stream
    /// still decoding its first chunks on a device) or once it is gone. The music station ties a
    /// track's grid to it.
    func startedFrame(of voice: VoiceHandle) -> Int64? {
        withState { state, _ in
            guard let current = state.pool.voice(voice), current.phase == .playing || current.phase == .paused
            else { return nil }
            return current.startFrame
        }
    }
}
