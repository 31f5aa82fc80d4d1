/// What the mixing side knows of each sound id: the buffer to play and the settings a trigger by id
/// takes from it. An array indexed by ``SoundID``, so a command finds its sound without hashing.
struct SoundTable {
    /// One sound's entry.
    struct Slot {
        var name: String
        /// Held weakly: the bank or the game owns the buffer; a sound that was freed is refused.
        weak var buffer: SoundBuffer?
        var defaults = SoundDefaults()
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
}
