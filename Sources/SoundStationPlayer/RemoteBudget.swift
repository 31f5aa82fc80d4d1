import SoundStation

/// What a server may make the player's side hold in one session: every resource a server's messages
/// can grow is counted against its limit here, and beyond it the player refuses (the sound is not
/// loaded, the name not kept, the command or message dropped), counts what it refused in
/// ``RemotePlayer/Report/overBudget``, and goes on playing what it has.
///
/// Files are counted by ``AssetCache``: one file at most `maxFileBytes` (64 MiB), files arriving at
/// once at most twice that, the whole folder (the decoded-sound cache in it included) within its cap.
public struct RemoteBudget: Sendable, Equatable {
    /// A resource the budget counts.
    public enum Resource: String, Sendable, CaseIterable, Comparable {
        /// Decoded samples held in memory (the samples and the device's copy).
        case decoded = "decoded sound"
        /// Catalogue entries loaded or loading.
        case entries = "catalogue entries"
        /// Sound names the server gave its ids.
        case names = "sound names"
        /// Commands waiting for a sound still loading, or held by the engine or the music station until
        /// their time.
        case pending = "pending commands"
        /// Messages received and not yet handled.
        case queued = "queued messages"
        /// Fed streams open at once.
        case streams = "streams"

        /// In declaration order.
        public static func < (a: Resource, b: Resource) -> Bool {
            allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
        }
    }

    /// Bytes of decoded sound held: 4 bytes a sample for the samples kept beside the device's copy,
    /// and up to 4 for that copy, counted once for sounds that share a file (256 MiB: about 11
    /// minutes of 48 kHz stereo).
    public var decodedBytes = 256 << 20
    /// Catalogue entries loaded or loading at once.
    public var entries = 4096
    /// Sound names kept (one per server sound id).
    public var names = 4096
    /// Bytes of those names together.
    public var nameBytes = 1 << 20
    /// Commands waiting for their sound to load or held by the engine until their time (a server may
    /// name a frame far ahead).
    public var pendingCommands = 4096
    /// Bytes of messages received and not yet handled.
    public var queuedBytes = 16 << 20
    /// Fed streams open at once (each holds an Opus decoder and its buffer).
    public var streams = 16
    /// Frames (at 48 kHz) a stream's buffer holds: 2 seconds, far beyond the delay it needs; what
    /// comes beyond it is dropped and counted (``RemoteStreamCounts/overflowFrames``).
    public var streamFrames = 96_000

    /// The default limits.
    public init() {}

    /// What a session holds now, by the same measures.
    public struct Usage: Sendable, Equatable {
        /// Bytes of decoded sound held (see ``RemoteBudget/decodedBytes``).
        public var decodedBytes = 0
        /// Entries loaded or loading.
        public var entries = 0
        /// Names kept.
        public var names = 0
        /// Bytes of the names kept.
        public var nameBytes = 0
        /// Commands waiting for a sound to load.
        public var pendingCommands = 0
        /// Commands the engine or the music station holds until their time.
        public var scheduledCommands = 0
        /// Bytes of messages waiting to be handled.
        public var queuedBytes = 0
        /// The largest each has been.
        public var peakDecodedBytes = 0
    }

    /// The limit of `resource`, as one line says it.
    /// - Parameter resource: A resource.
    /// - Returns: E.g. "256 MiB" or "4096".
    public func limit(of resource: Resource) -> String {
        switch resource {
        case .decoded: "\(decodedBytes >> 20) MiB"
        case .entries: "\(entries)"
        case .names: "\(names) names, \(nameBytes >> 10) KiB"
        case .pending: "\(pendingCommands)"
        case .queued: "\(queuedBytes >> 20) MiB"
        case .streams: "\(streams), \(streamFrames) frames each"
        }
    }
}
