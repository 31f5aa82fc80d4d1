/// One value for each bus, kept in a field per bus: housekeeping reads every bus's level every
/// round, and a `Dictionary` lookup hashes its key each time (which was a quarter of a quiet
/// round's cost).
struct PerBus<Value> {
    private var master: Value
    private var music: Value
    private var effects: Value
    private var voice: Value

    /// Every bus holding `value`.
    init(_ value: Value) {
        (master, music, effects, voice) = (value, value, value, value)
    }

    /// The value of `bus`.
    subscript(bus: Bus) -> Value {
        get {
            switch bus {
            case .master: master
            case .music: music
            case .effects: effects
            case .voice: voice
            }
        }
        set {
            switch bus {
            case .master: master = newValue
            case .music: music = newValue
            case .effects: effects = newValue
            case .voice: voice = newValue
            }
        }
    }

    /// Every bus's value through `transform`.
    func map<T>(_ transform: (Value) -> T) -> PerBus<T> {
        var result = PerBus<T>(transform(master))
        result[.music] = transform(music)
        result[.effects] = transform(effects)
        result[.voice] = transform(voice)
        return result
    }
}

extension PerBus: Equatable where Value: Equatable {}

extension PerBus: Sendable where Value: Sendable {}
