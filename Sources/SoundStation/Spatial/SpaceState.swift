/// The engine's space and colour, part of the mixer's state: the listener, how positions map to pan
/// and gain, bus filters and reverbs, the device's EFX objects and its HRTF.
struct SpaceState {
    var layout = SpatialLayout()
    var listener = PositionRamp.constant(SoundPosition(x: 0, y: 0))
    var busFilters: [Bus: SoundFilter] = [:]
    /// Each bus's cutoff filter, gliding (Colour/); a bus never given one has none.
    var busCutoffs: [Bus: CutoffRamp] = [:]
    var busReverbs: [Bus: Reverb] = [:]
    /// Buses whose reverb is set but detached from its slot while nothing sends to it
    /// (``AudioEngine/restReverbs(_:at:)``).
    var restingReverbs: Set<Bus> = []
    /// Since when nothing has sent to each bus's attached reverb.
    var reverbQuietSince: [Bus: Int64] = [:]
    /// The EFX objects of the current device, made when first needed (and again on a new device).
    var efx: EFXSlots?
    /// Whether the "no EFX" notice was given.
    var saidNoColour = false
    /// Whether HRTF was asked for (applied again to a reopened device).
    var hrtf = false
    /// What the device reports of HRTF, published for ``AudioEngine/hrtfStatus``.
    var hrtfStatus = HRTFStatus.unavailable
}
