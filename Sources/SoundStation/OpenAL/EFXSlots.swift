import COpenAL

/// Owns one device's EFX objects: a filter object used as a template for sources' filters, and per
/// bus an auxiliary effect slot holding a reverb.
///
/// EFX copies a filter's parameters into a source when the filter is attached, so one filter object
/// serves every source. `@unchecked Sendable`: the mixer's state holds it, so only the thread holding
/// the mixer uses it, and its AL calls go through the device's AL lock.
final class EFXSlots: @unchecked Sendable {
    let device: OpenALDevice
    /// Whether the device has ALC_EXT_EFX; when not, every call does nothing.
    let isAvailable: Bool
    /// Whether stereo sources can be placed as a point (AL_SOFT_source_spatialize).
    let canSpatialize: Bool
    private var filter: ALuint = 0
    /// Per bus index: the slot and its reverb effect, made when a bus first gets a reverb.
    private var slots: [UInt8: (slot: ALuint, effect: ALuint)] = [:]

    init(device: OpenALDevice) {
        self.device = device
        isAvailable = device.hasExtension("ALC_EXT_EFX")
        canSpatialize = device.withContext { alIsExtensionPresent("AL_SOFT_source_spatialize") != 0 }
        guard isAvailable else { return }
        var filter: ALuint = 0
        _ = try? withOpenAL(device, "alGenFilters") { alGenFilters(1, &filter) }
        self.filter = filter
    }

    deinit {
        var filter = self.filter
        let slots = self.slots
        device.withContext {
            if filter != 0 { alDeleteFilters(1, &filter) }
            for (_, pair) in slots {
                var (slot, effect) = pair
                alAuxiliaryEffectSloti(slot, AL_EFFECTSLOT_EFFECT, AL_EFFECT_NULL)
                alDeleteAuxiliaryEffectSlots(1, &slot)
                alDeleteEffects(1, &effect)
            }
            _ = alGetError()
        }
    }

    /// Gives `bus` a reverb, or takes it away (`nil`).
    func setReverb(_ reverb: Reverb?, bus: UInt8) throws(AudioEngineError) {
        guard isAvailable else { return }
        guard let reverb else {
            if let (slot, _) = slots[bus] {
                try withOpenAL(device, "alAuxiliaryEffectSloti(AL_EFFECTSLOT_EFFECT, AL_EFFECT_NULL)") {
                    alAuxiliaryEffectSloti(slot, AL_EFFECTSLOT_EFFECT, AL_EFFECT_NULL)
                }
            }
            return
        }
        var pair = slots[bus] ?? (0, 0)
        if pair.slot == 0 {
            try withOpenAL(device, "alGenAuxiliaryEffectSlots, alGenEffects") {
                alGenAuxiliaryEffectSlots(1, &pair.slot)
                alGenEffects(1, &pair.effect)
            }
            slots[bus] = pair
        }
        let (slot, effect) = pair
        try withOpenAL(device, "alEffectf(AL_REVERB_*), alAuxiliaryEffectSloti") {
            alEffecti(effect, AL_EFFECT_TYPE, AL_EFFECT_REVERB)
            alEffectf(effect, AL_REVERB_DENSITY, reverb.density)
            alEffectf(effect, AL_REVERB_DIFFUSION, reverb.diffusion)
            alEffectf(effect, AL_REVERB_GAIN, reverb.gain)
            alEffectf(effect, AL_REVERB_GAINHF, reverb.gainHF)
            alEffectf(effect, AL_REVERB_DECAY_TIME, reverb.decayTime)
            alEffectf(effect, AL_REVERB_DECAY_HFRATIO, reverb.decayHFRatio)
            alEffectf(effect, AL_REVERB_REFLECTIONS_GAIN, reverb.reflectionsGain)
            alEffectf(effect, AL_REVERB_REFLECTIONS_DELAY, reverb.reflectionsDelay)
            alEffectf(effect, AL_REVERB_LATE_REVERB_GAIN, reverb.lateReverbGain)
            alEffectf(effect, AL_REVERB_LATE_REVERB_DELAY, reverb.lateReverbDelay)
            alEffectf(effect, AL_REVERB_AIR_ABSORPTION_GAINHF, reverb.airAbsorptionGainHF)
            alEffectf(effect, AL_REVERB_ROOM_ROLLOFF_FACTOR, reverb.roomRolloffFactor)
            alEffecti(effect, AL_REVERB_DECAY_HFLIMIT, reverb.decayHFLimit ? AL_TRUE : AL_FALSE)
            // The slot copies the effect when it is attached: attach after every change.
            alAuxiliaryEffectSloti(slot, AL_EFFECTSLOT_EFFECT, ALint(bitPattern: effect))
            alAuxiliaryEffectSlotf(slot, AL_EFFECTSLOT_GAIN, reverb.wet)
        }
        device.reverbFadeBegins()
    }

    /// Sets a source's direct filter and its send to `bus`'s reverb at `send` (0: no send).
    func apply(to source: ALuint, filter: SoundFilter?, bus: UInt8, send: Float) {
        guard isAvailable else { return }
        let template = self.filter
        let slot = slots[bus]?.slot ?? 0
        _ = try? withOpenAL(device, "alSourcei(AL_DIRECT_FILTER, AL_AUXILIARY_SEND_FILTER)") {
            if let filter = filter?.shelf {
                Self.configure(template, filter)
                alSourcei(source, AL_DIRECT_FILTER, ALint(bitPattern: template))
            } else {
                alSourcei(source, AL_DIRECT_FILTER, AL_FILTER_NULL)
            }
            if slot != 0, send > 0 {
                Self.configure(template, .lowpass(gain: min(max(send, 0), 1), gainHF: 1))
                alSource3i(
                    source, AL_AUXILIARY_SEND_FILTER, ALint(bitPattern: slot), 0, ALint(bitPattern: template))
            } else {
                alSource3i(source, AL_AUXILIARY_SEND_FILTER, AL_EFFECTSLOT_NULL, 0, AL_FILTER_NULL)
            }
        }
    }

    private static func configure(_ id: ALuint, _ filter: SoundFilter) {
        let (gain, lf, hf) = filter.gains
        switch filter {
        case .lowpass:
            alFilteri(id, AL_FILTER_TYPE, AL_FILTER_LOWPASS)
            alFilterf(id, AL_LOWPASS_GAIN, gain)
            alFilterf(id, AL_LOWPASS_GAINHF, hf)
        case .highpass:
            alFilteri(id, AL_FILTER_TYPE, AL_FILTER_HIGHPASS)
            alFilterf(id, AL_HIGHPASS_GAIN, gain)
            alFilterf(id, AL_HIGHPASS_GAINLF, lf)
        case .bandpass:
            alFilteri(id, AL_FILTER_TYPE, AL_FILTER_BANDPASS)
            alFilterf(id, AL_BANDPASS_GAIN, gain)
            alFilterf(id, AL_BANDPASS_GAINLF, lf)
            alFilterf(id, AL_BANDPASS_GAINHF, hf)
        case .cutoff:
            // The engine runs cutoff filters itself; the source gets no EFX filter for them.
            alFilteri(id, AL_FILTER_TYPE, AL_FILTER_NULL)
        }
    }
}
