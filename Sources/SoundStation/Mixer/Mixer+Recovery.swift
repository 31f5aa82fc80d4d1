import Glibc

extension Mixer {
    /// Seconds between attempts to reopen a lost device.
    static let reopenInterval: Duration = .seconds(1)

    /// While the device is lost, tries now and then to open it again; when that works, uploads every
    /// live sound to the new device and resumes the looping voices where they were.
    ///
    /// OpenAL Soft 1.19 has no ALC_SOFT_reopen_device, so recovery is a new device and context.
    /// It runs on the device driver's thread, holding the mixer: opening the device and uploading
    /// every sound take as long as they take, while the game's calls go on writing commands.
    /// - Parameter open: Opens the device again (``DeviceDriver``'s own name and latency).
    func reopenIfLost(_ open: () -> OpenALDevice?) {
        let due = update { state -> Bool in
            guard state.deviceLost else { return false }
            let now = ContinuousClock.now
            if let last = state.lastReopenAttempt, now - last < Self.reopenInterval { return false }
            state.lastReopenAttempt = now
            return true
        }
        guard due, let fresh = open(), fresh.isConnected else {
            return
        }
        var uploads: [(SoundBuffer, OpenALBuffer)] = []
        for buffer in engine.buffers.live {
            if let storage = try? buffer.prepare(for: fresh) { uploads.append((buffer, storage)) }
        }
        var events: [SoundEvent] = []
        update { state in
            state.pool.resetSources()
            engine.currentDevice.withLock { $0 = fresh }
            restoreHRTF(on: fresh, in: &state, events: &events)
            for (buffer, storage) in uploads { buffer.install(storage) }
            state.deviceLost = false
            state.lastReopenAttempt = nil
            let now = currentFrame(&state)
            events.append(.deviceRestored(device: fresh.name, time: time(ofFrame: now)))
            for slot in state.pool.busySlots {
                let voice = state.pool.voices[Int(slot)]
                if case .scheduled = voice.phase { continue }
                guard voice.survivesDeviceLoss else {
                    finish(slot, reason: .deviceLost, in: &state, at: now, events: &events)
                    continue
                }
                let wasPaused = voice.phase == .paused
                if let stream = voice.stream {
                    stream.rebind()
                    stream.start(from: voice.lastOffset)
                }
                state.pool.update(slot) {
                    $0.startOffset = voice.lastOffset
                    $0.resuming = true
                }
                begin(slot, in: &state, at: now, events: &events)
                if wasPaused, !state.isPaused {
                    state.pool.voices[Int(slot)].source?.pause()
                    state.pool.update(slot) { $0.phase = .paused }
                }
            }
        }
        // The restarted voices announce themselves again; keep only the restore and the losses.
        hub.send(events.filter { if case .started = $0 { false } else { true } })
    }
}
