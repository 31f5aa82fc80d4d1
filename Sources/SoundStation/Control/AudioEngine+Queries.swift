import Glibc

/// Queries: each reads what the mixing side published after its last round (``EngineSnapshot``),
/// so it returns at once, takes no lock the mixing side holds while it works and never calls
/// OpenAL. A query right after a command may see the state before it; offline, ``render(frames:)``
/// (even of zero frames) carries every written command out first, and on a device
/// ``waitForMixer(timeout:)`` waits for a round.
extension AudioEngine {
    /// Whether `voice` still holds its sound (playing, paused or waiting to start).
    ///
    /// A handle whose command the mixing side has not taken yet counts as waiting to start.
    /// - Parameter voice: The handle.
    /// - Returns: False once the sound ended, was stopped, lost its voice or was refused.
    public func isActive(_ voice: VoiceHandle) -> Bool {
        published.withLock { $0.slots[voice.ticket] != nil || voice.ticket > $0.lastTicket }
    }

    /// Where `voice` is in its sound, in frames from its start, as of the last mixing round.
    ///
    /// Offline it is read from OpenAL when asked, for this one voice (between renders nothing moves
    /// it): the engine does not ask every voice after every render.
    /// - Parameter voice: The handle.
    /// - Returns: The frame being played, or `nil` for a stale handle or one not started yet.
    public func position(of voice: VoiceHandle) -> Int? {
        if let deferred = deferredVoice(voice, { Mixer.position(of: $0) }) { return deferred }
        return published.withLock { $0.voice(voice.ticket)?.position }
    }

    /// An offline engine's answer about `voice`, read now from the mixer's state (the snapshot leaves
    /// the voices out, ``EngineSnapshot/voicesDeferred``): the state the last render left, after a
    /// render in progress on another thread has ended.
    /// Nil to answer from the snapshot (not offline, or nothing rendered yet); `.some(nil)` for a
    /// voice that is not playing or paused.
    private func deferredVoice<T>(_ voice: VoiceHandle, _ read: (Voice) -> T?) -> T?? {
        guard isOffline, published.withLock({ $0.voicesDeferred }) else { return nil }
        return mixer.run {
            mixer.update { state -> T?? in
                guard let current = state.pool.voice(voice),
                    current.phase == .playing || current.phase == .paused
                else { return .some(nil) }
                return .some(read(current))
            }
        }
    }

    /// How many voices are playing, paused or waiting for their start time.
    public var activeVoiceCount: Int { published.withLock { $0.busyCount } }

    /// How many OpenAL sources the engine has created; never more than ``voiceLimit``.
    public var sourceCount: Int { published.withLock { $0.sourceCount } }

    /// How many times a streamed track's queue ran dry since the engine opened (0 under normal load).
    public var underrunCount: Int { published.withLock { $0.underruns } }

    /// The render-clock frame `voice` began on, or nil while it waits (or for a stale handle).
    ///
    /// On the mixing side (a scheduled call, a station's step) it is read live, so a grid computed
    /// there sees the voice begun in this round; elsewhere it comes from the snapshot.
    func startedFrame(of voice: VoiceHandle) -> Int64? {
        guard onMixingSide else {
            if let deferred = deferredVoice(voice, { $0.startFrame }) { return deferred }
            return published.withLock { $0.voice(voice.ticket)?.startFrame }
        }
        return mixer.update { state in
            guard let current = state.pool.voice(voice), current.phase == .playing || current.phase == .paused
            else { return nil }
            return current.startFrame
        }
    }

    /// Whether the calling thread is the mixing side now.
    var onMixingSide: Bool { mixer.isCurrent }

    /// Waits until the mixing side has carried out every command written before this call and
    /// published what followed: for tests and tools that need a command's effect. Offline it is one
    /// ``render(frames:)`` of zero frames.
    /// - Parameter timeout: The longest wait (a device's driver thread takes well under a millisecond).
    /// - Returns: False when the wait timed out.
    @discardableResult
    public func waitForMixer(timeout: Duration = .seconds(1)) -> Bool {
        if isOffline {
            _ = try? render(frames: 0)
            return true
        }
        let target = ring.nextTicket()
        guard submit(.mark, ticket: target) else { return false }
        // A polling driver would pick the mark up at its next poll, up to a poll interval later.
        ring.kick()
        let deadline = ContinuousClock.now + timeout
        while true {
            let seen = ring.publications
            if published.withLock({ $0.lastTicket >= target }) { return true }
            let now = ContinuousClock.now
            if now >= deadline { return false }
            ring.waitForPublication(after: seen, timeout: deadline - now)
        }
    }
}
