import Dispatch
import Glibc

extension AudioEngine {
    /// How long position changes glide by default, so a moving sound never clicks.
    public static let positionGlide: Duration = .milliseconds(50)
}

extension Mixer {
    /// Carries out ``EngineCommand/setSpatialLayout(_:)``.
    func applyLayout(_ layout: SpatialLayout, in state: inout EngineState) {
        state.space.layout = layout
        // A listener at rest "moves" in place for one step, so every positioned voice is placed
        // again (a gliding one makes that happen already).
        let now = currentFrame(&state)
        let listener = state.space.listener
        if listener.isDone(at: now) {
            state.space.listener = PositionRamp(
                from: listener.to, to: listener.to, start: now, end: now + AudioEngine.quantum)
        }
        wakeSoon(&state)
    }

    /// Carries out ``EngineCommand/setListener(_:glide:)``.
    func applyListener(_ position: SoundPosition, glide: Duration, in state: inout EngineState) {
        let now = currentFrame(&state)
        state.space.listener = state.space.listener.retargeted(to: position, at: now, over: frame(for: glide))
        wakeSoon(&state)
    }

    /// Carries out ``EngineCommand/setPosition(_:_:glide:)``.
    func applyPosition(
        _ position: SoundPosition, to voice: VoiceHandle, glide: Duration, in state: inout EngineState
    ) {
        guard let slot = state.pool.slot(of: voice) else { return }
        let now = currentFrame(&state)
        let frames = frame(for: glide)
        state.pool.update(slot) { voice in
            voice.options.position = position
            // A voice placed for the first time is placed at the next housekeeping (a ramp that
            // ended at frame 0 would count as long settled).
            voice.positionRamp =
                voice.positionRamp?.retargeted(to: position, at: now, over: frames)
                ?? PositionRamp(from: position, to: position, start: now, end: now)
        }
        wakeSoon(&state)
    }

    /// Sets a voice's pan now, leaving its position (a tween moves it through here).
    func applyPan(_ pan: Float, to slot: Int32, in state: inout EngineState, at now: Int64) {
        state.pool.update(slot) { voice in
            voice.positionRamp = nil
            voice.options.position = nil
            voice.options.distanceGain = 1
            voice.options.pan = pan
        }
        let voice = state.pool.voices[Int(slot)]
        voice.source?.setPan(pan, channels: channels(of: voice), spatialize: voice.options.spatialize)
        applyGain(slot, in: &state, at: now)
    }

    // MARK: The mixing side

    /// Works out a positioned voice's pan and distance gain at `frame` into its options (no AL call).
    func placeVoice(_ slot: Int32, in state: inout EngineState, at frame: Int64) {
        guard let ramp = state.pool.voices[Int(slot)].positionRamp else { return }
        let (pan, gain) = state.space.layout.placement(
            of: ramp.value(at: frame), listener: state.space.listener.value(at: frame))
        state.pool.update(slot) { voice in
            voice.options.pan = pan
            voice.options.distanceGain = gain
        }
    }

    /// Places a positioned voice again when it, the listener or the layout moved, and sends its pan
    /// to OpenAL (its gain follows in ``applyGain(_:in:at:levels:)``).
    /// - Returns: Whether it is still gliding, so housekeeping keeps to the fine grid.
    func moveVoice(_ slot: Int32, in state: inout EngineState, at frame: Int64) -> Bool {
        let index = Int(slot)
        guard let ramp = state.pool.voices[index].positionRamp else { return false }
        let listenerMoving = !state.space.listener.isDone(at: frame)
        // One more placement after a glide ends lands it exactly on its target.
        let recent = frame - AudioEngine.quantum < max(ramp.end, state.space.listener.end)
        guard recent || listenerMoving else { return false }
        let oldPan = state.pool.voices[index].options.pan
        placeVoice(slot, in: &state, at: frame)
        let voice = state.pool.voices[index]
        if voice.options.pan != oldPan {
            voice.source?.setPan(
                voice.options.pan, channels: channels(of: voice), spatialize: voice.options.spatialize)
        }
        return !ramp.isDone(at: frame) || listenerMoving
    }

    func channels(of voice: Voice) -> Int {
        voice.content?.channels ?? 1
    }
}
