import SoundStation

/// Why an autoplay render could not be made.
public enum AutoplayError: Error, CustomStringConvertible, Equatable {
    /// The requested length is not a positive number of seconds within the limit.
    case badDuration(Double)
    /// The game's tick does not fit the render clock: the sample rate must be a whole number of frames
    /// per tick.
    case ticksDoNotDivideRate(sampleRate: Int, ticksPerSecond: Int)
    /// The assets could not be read.
    case catalogue(CatalogueError)
    /// The offline engine could not be opened or could not render.
    case engine(AudioEngineError)
    /// Some sounds did not load.
    case sounds(SoundLoadError)
    /// The task running the render was cancelled.
    case cancelled

    /// The longest render allowed, so a typo cannot fill the disk.
    public static let maximumSeconds = 3_600.0

    /// One line saying what went wrong and what to do.
    public var description: String {
        switch self {
        case .badDuration(let seconds):
            "autoplay needs a length from 0 to \(Int(Self.maximumSeconds)) seconds, not \(seconds): "
                + "pass e.g. --autoplay 35"
        case .ticksDoNotDivideRate(let rate, let ticks):
            "\(rate) Hz is not a whole number of frames per tick at \(ticks) ticks per second: "
                + "choose ticksPerSecond dividing the sample rate"
        case .catalogue(let error): "\(error.description) (autoplay needs the game's assets; see --assets)"
        case .engine(let error): "offline rendering failed: \(error.description)"
        case .sounds(let error): "\(error.description); fix or re-create the assets (make assets)"
        case .cancelled: "autoplay was cancelled before it finished"
        }
    }
}
