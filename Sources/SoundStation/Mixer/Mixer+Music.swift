extension Mixer {
    /// Claims and starts (or schedules) a voice for `request` (music: a track or a stem).
    /// - Returns: Its handle, or `nil` when the sound was refused (a `refused` event says so).
    func start(_ request: VoiceRequest, in state: inout EngineState, events: inout [SoundEvent])
        -> VoiceHandle?
    {
        var request = request
        request.options = request.options.clamped()
        let ticket = ring.nextTicket()
        let started = startVoice(request, ticket: ticket, atFrame: nil, in: &state, events: &events)
        return started ? VoiceHandle(ticket: ticket) : nil
    }
}
