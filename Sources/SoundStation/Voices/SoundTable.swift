#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the mixing side knows of each sound id: the buffer to play and the settings a trigger by id
/// takes from it. An array indexed by ``SoundID``, so a command finds its sound without hashing.
struct SoundTable {
    /// One sound's entry.
    struct Slot {
        var name: String
        /// Held weakly: the bank or the game owns the buffer; a sound that was freed is refused.
        weak var buffer: SoundBuffer?
        var defaults = SoundDefaults()
        /// Triggers by id so far, for a synthesised sound's per-trigger variation.
        var triggers: UInt64 = 0
    }

    private(set) var slots: [Slot] = []

    /// Adds a sound with no buffer yet and returns its id.
    mutating func reserve(name: String) -> SoundID {
        slots.append(Slot(name: name))
        return SoundID(rawValue: Int32(slots.count - 1))
    }

    /// Points `id` at a buffer (or at none, for a streamed track) with the settings triggers use.
    mutating func install(_ id: SoundID, buffer: SoundBuffer?, defaults: SoundDefaults) {
        guard let index = index(id) else { return }
        slots[index].buffer = buffer
        slots[index].defaults = defaults
    }

    /// The slot of `id`, or `nil` for an id this engine never gave out.
    func index(_ id: SoundID) -> Int? {
        let index = Int(id.rawValue)
        return slots.indices.contains(index) ? index : nil
    }

    /// The pitch factor the next trigger by id of the sound in slot `index` takes: 1 for a sound with
    /// no variation, else 2 to the power of ±variation/12 from a ``SplitMix64`` keyed by the sound and
    /// its trigger count. The count lives here, on the mixing side, so the sequence follows the order
    /// the mixer starts voices in (the same in every offline render) and the trigger calls stay
    /// allocation- and lock-free.
    mutating func nextPitch(_ index: Int) -> Float {
        let variation = slots[index].defaults.variation
        guard variation > 0 else { return 1 }
        slots[index].triggers &+= 1
        var random = SplitMix64(seed: UInt64(index) << 32 ^ slots[index].triggers)
        return Float(exp2(Double(variation) * random.bipolar() / 12))
    }

    func name(of id: SoundID) -> String {
        index(id).map { slots[$0].name } ?? "\(id)"
    }
}

/// The settings a trigger by id takes from its sound: a catalogue entry's volume, priority, bus and
/// instance limit.
struct SoundDefaults {
    var volume: Float = 1
    var priority = 128
    var bus = Bus.effects
    var limit: InstanceLimit?
    /// The catalogue's `duckMusic`, in decibels (0 for none).
    var duckMusic: Float = 0
    /// A synthesised sound's `variation`: semitones each trigger's pitch may stray (0 for none).
    var variation: Float = 0
}
