import Foundation
import Testing

@testable import SoundStation
@testable import SoundStationPlayer

/// The player's side of a remote test: a ``RemotePlayer`` on an offline engine (48 kHz stereo) with a
/// cache in a temporary folder, fed by hand with what a link would send (the frames through an
/// extractor, as a terminal delivers them).
final class RemoteTestPlayer {
    /// The player's engine: its render is what the player's user would hear.
    let engine: AudioEngine
    let cache: AssetCache
    let player: RemotePlayer
    /// The cache's folder; ``close()`` removes it when this player made it.
    let folder: String
    private let ownsFolder: Bool
    private var finished = false

    /// How many frames the default player moves a command whose message arrived at local frame 0
    /// from its server frame: the 100 ms delay (4800 frames) rounded up to whole mixing quanta.
    static let shift = 4_864

    /// - Parameters:
    ///   - delay: The player's jitter buffer.
    ///   - budget: What a session may make the player hold.
    ///   - folder: A cache folder to use (another player's, which keeps it); a new one when `nil`.
    init(
        delay: Duration = .milliseconds(100), budget: RemoteBudget = RemoteBudget(), folder: String? = nil
    ) throws {
        ownsFolder = folder == nil
        self.folder =
            folder ?? FileManager.default.temporaryDirectory.appendingPathComponent("ss-cache-\(UUID())").path
        engine = try AudioEngine(output: .offline(sampleRate: 48_000, channels: 2))
        cache = try AssetCache(directory: self.folder)
        player = RemotePlayer(engine: engine, cache: cache, delay: delay, budget: budget)
    }

    /// Stops the player's threads (once: later calls do nothing), so its report holds still.
    func finish() {
        guard !finished else { return }
        finished = true
        player.finish()
    }

    /// Stops the player and removes the cache folder it made.
    func close() {
        finish()
        if ownsFolder { try? FileManager.default.removeItem(atPath: folder) }
    }

    /// Starts a session from the server's clock at 0 with `catalogue` and every file it names, and
    /// waits until the player has loaded `loaded` sounds.
    func open(
        _ catalogue: Catalogue, loaded: Int = 1, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        RemoteSessionTests.transport(
            [.hello(sampleRate: 48_000, frame: 0, session: 1)]
                + (try RemoteSessionTests.assetMessages(catalogue)),
            into: player)
        try await RemoteSessionTests.wait({ player.report.loaded == loaded }, sourceLocation: sourceLocation)
    }

    /// Sends `commands` (each with the frame the server carried it out at), after naming `sounds` and
    /// after `messages`, and waits until the player has placed them all.
    func send(
        _ commands: [(EngineCommand, Int64)], naming sounds: [(SoundID, String)] = [],
        after messages: [RemoteMessage] = [], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let placed = player.report.commands + commands.count
        RemoteSessionTests.transport(
            sounds.map { .soundName($0.0, name: $0.1) } + messages
                + commands.map { .command($0.0, frame: $0.1) },
            into: player)
        try await RemoteSessionTests.wait(
            { player.report.commands == placed }, sourceLocation: sourceLocation)
    }
}

extension AudioEngine {
    /// Keeps every command this engine carries out from now on, with its frame, as a remote link
    /// receives them.
    /// - Returns: The commands so far, growing as the engine renders.
    func recordCommands() -> Locked<[(EngineCommand, Int64)]> {
        let sent = Locked<[(EngineCommand, Int64)]>([])
        commandTap.withLock { $0 = { command, frame in sent.withLock { $0.append((command, frame)) } } }
        return sent
    }
}
