extension Mixer {
    /// Carries out a music station's change (a switch, a crossfade with its stems, a stop, a pause, a
    /// resume, an intensity or a speed): in one pass over the state, beside ``perform(_:in:events:)``
    /// for every other command. A change that waits for its frame (a switch on the music's grid, a
    /// later stop) comes here from the scheduled calls when the clock reaches it.
    /// - Returns: What follows once the change's events are sent (the station's next beat), if anything.
    func performMusic(
        _ change: MusicTask.Change, of station: MusicStation, in state: inout EngineState,
        events: inout [SoundEvent]
    ) -> (@Sendable () -> Void)? {
        station.carryOut(change, on: self, in: &state, events: &events)
    }

    /// Claims and starts (or schedules) a voice for `request` (music: a track or a stem).
    /// - Returns: Its handle, or `nil` when the sound was refused (a `refused` event says so).
    func start(_ request: VoiceRequest, in state: inout EngineState, events: inout [SoundEvent])
        -> VoiceHandle?
    {
        var request = request
        request.options = AudioEngine.clamp(request.options)
        let ticket = ring.nextTicket()
        let started = startVoice(request, ticket: ticket, atFrame: nil, in: &state, events: &events)
        return started ? VoiceHandle(ticket: ticket) : nil
    }
}
