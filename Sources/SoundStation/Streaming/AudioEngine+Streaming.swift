extension AudioEngine {
    /// Prepares a file to be played by streaming: reads its headers, decodes nothing.
    /// - Parameters:
    ///   - path: A file in any format ``AudioDecoder`` reads.
    ///   - name: The name events and messages use; the file name when `nil`.
    /// - Returns: A stream any number of voices can play, each from its own decoder.
    /// - Throws: ``AudioDecodingError`` naming the file when it cannot be opened or is not audio.
    public func makeStream(fileAt path: String, name: String? = nil) throws(AudioDecodingError) -> SoundStream
    {
        let info = try AudioDecoder.info(ofFileAt: path)
        let name = name ?? String(path.split(separator: "/").last ?? Substring(path))
        return SoundStream(name: name, path: path, info: info, id: reserveSoundID(name: name), ring: ring)
    }

    /// Plays a stream from its start, now or at a time on the engine clock.
    ///
    /// Like ``play(_:options:at:)-(SoundBuffer,_,_)`` for buffers, the call writes one command into the engine's
    /// lock-free ring and returns; it allocates the stream's small feeder, so it is not for a signal
    /// handler. The file is opened and its first chunks decoded on the streaming worker (offline: by
    /// the render that starts it), never on the caller's thread; a device voice starts once they are
    /// ready, a few milliseconds later. A file that cannot be decoded when it starts is refused with a
    /// ``SoundEvent/refused(_:sound:time:)`` event.
    /// - Parameters:
    ///   - stream: A stream made by this engine (``makeStream(fileAt:name:)``).
    ///   - options: Volume, pitch, pan, looping (the whole file), priority and bus.
    ///   - time: When to start on the engine clock; `nil` or a past time starts at once.
    /// - Returns: The voice's handle, or `nil` when the engine has fallen 4,096 commands behind.
    /// - Throws: ``AudioEngineError/invalidArgument(name:value:expected:)`` for a stream made by
    ///   another engine or a value of `options` out of its range (``PlayOptions/check()``).
    @discardableResult
    public func play(_ stream: SoundStream, options: PlayOptions = PlayOptions(), at time: Duration? = nil)
        throws(AudioEngineError) -> VoiceHandle?
    {
        try checkPlay(of: "stream", named: stream.name, madeOn: stream.ring, options: options)
        let feeder = makeFeeder(stream.entry(loop: options.loop))
        // The command carries the feeder as it carries a buffer; the mixing side tells them apart
        // when it starts the voice.
        return trigger(stream.id, options: options, at: time, carrying: feeder)
    }

    /// A feeder for a track this engine streams: decoded on the streaming worker (offline: on the
    /// rendering thread, as the render reaches it), silence of its length when nobody hears the
    /// engine; it wakes the mixing side when chunks are ready.
    func makeFeeder(_ entry: SoundEntry) -> StreamFeeder {
        StreamFeeder(entry: entry, inline: driver.rendersOnCaller, quiet: !driver.isHeard) { [ring] in
            ring.wake()
        }
    }

    /// Bytes of decoded audio the engine holds for its streamed voices: the OpenAL buffers of their
    /// queues and the chunks decoded ahead of them. Bounded by a few chunks per voice whatever the
    /// files' lengths (about 260 KB for a mono voice, twice that for stereo).
    /// As of the last mixing round.
    public var streamedBytes: Int { published.withLock { $0.streamedBytes } }
}
