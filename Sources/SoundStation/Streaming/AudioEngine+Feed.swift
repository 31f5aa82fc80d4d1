extension AudioEngine {
    /// The most frames a feed's queue may hold: 10 seconds at 48 kHz.
    public static let maximumFeedFrames = 480_000

    /// Opens a stream the game feeds with PCM as it makes it, playing at once as a voice.
    ///
    /// The voice begins when the first frames are written (offline: at the first render after
    /// them) and plays until ``PCMFeed/close()``; in between, a queue that runs dry is heard as
    /// silence and counted (``PCMFeed/underruns``). Like any voice it can be stopped, paused, and
    /// given a volume or pan through ``PCMFeed/voice``.
    /// - Parameters:
    ///   - channels: 1 or 2 samples per frame.
    ///   - sampleRate: Frames per second of what is written, 8000...192000 (resampled to the engine's).
    ///   - options: Volume, pan, bus and priority (looping, pitch and position do not apply: the pitch
    ///     stays 1).
    ///   - queueFrames: The most frames the queue holds; `nil` for half a second.
    ///   - name: The name the voice's events carry.
    /// - Returns: The feed.
    /// - Throws: ``AudioEngineError/invalidArgument(name:value:expected:)`` naming a channel count,
    ///   rate, queue size or option out of range.
    public func openFeed(
        channels: Int, sampleRate: Int, options: PlayOptions = PlayOptions(), queueFrames: Int? = nil,
        name: String = "stream"
    ) throws(AudioEngineError) -> PCMFeed {
        try openFeed(
            channels: channels, sampleRate: sampleRate, options: options, queueFrames: queueFrames,
            name: name,
            at: nil)
    }

    /// ``openFeed(channels:sampleRate:options:queueFrames:name:)`` whose voice begins no sooner than
    /// `time` (a player's copy of a game's stream starts at the time the game's did).
    package func openFeed(
        channels: Int, sampleRate: Int, options: PlayOptions, queueFrames: Int?, name: String,
        at time: Duration?
    ) throws(AudioEngineError) -> PCMFeed {
        guard channels == 1 || channels == 2 else {
            throw .invalidArgument(name: "channels", value: "\(channels)", expected: "1 or 2")
        }
        guard (8000...192_000).contains(sampleRate) else {
            throw .invalidArgument(name: "rate", value: "\(sampleRate)", expected: "8000...192000 Hz")
        }
        let capacity = queueFrames ?? sampleRate / 2
        guard (1...Self.maximumFeedFrames).contains(capacity) else {
            throw .invalidArgument(
                name: "queue frames", value: "\(capacity)", expected: "1...\(Self.maximumFeedFrames)")
        }
        var options = options
        options.loop = false
        options.repeats = 0
        options.pitch = 1
        try options.check()
        // Offline, the render that follows a write takes the frames: no thread needs waking.
        let commands: CommandRing? = driver.rendersOnCaller ? nil : ring
        let wake: @Sendable () -> Void = { commands?.wake() }
        let id = reserveSoundID(name: name)
        // Over SSH what is written is also sent to the player, as Opus (Remote/RemoteStreamSender).
        let remote = try remoteLink.withLock { $0 }.map { link throws(AudioEngineError) in
            try RemoteStreamSender(
                link: link, id: id, channels: channels, sampleRate: sampleRate, serverRate: self.sampleRate)
        }
        let ring = FeedRing(
            channels: channels, sampleRate: sampleRate, capacityFrames: capacity, remote: remote, wake: wake)
        let voice = trigger(id, options: options, at: time, carrying: ring)
        return PCMFeed(
            name: name, channels: channels, sampleRate: sampleRate, capacity: capacity, ring: ring,
            voice: voice,
            engine: self)
    }
}
