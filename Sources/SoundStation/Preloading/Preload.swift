import Glibc
import Synchronization

/// How far a preload has got.
public struct PreloadProgress: Sendable, Equatable {
    /// Sounds finished (loaded or failed).
    public var completed: Int
    /// Sounds in the preload.
    public var total: Int
    /// The sound that just finished.
    public var latest: String?

    /// `completed / total`, 1 for an empty preload.
    public var fraction: Double { total > 0 ? Double(completed) / Double(total) : 1 }
}

/// The sounds one preload holds, so a scene can let go of exactly what it loaded.
public final class PreloadedSounds: Sendable {
    /// The names held, in the order they finished loading.
    public let names: [String]
    /// The sounds that could not be loaded, each naming its file and what is wrong.
    public let failures: [SoundLoadError]
    /// The sounds that loaded although something is wrong with their files (e.g. one cut short plays
    /// the part that is there), each naming the sound and the file, in the order they finished.
    public let warnings: [SoundLoadWarning]
    private let bank: SoundBank
    private let released = Atomic<Bool>(false)

    init(names: [String], failures: [SoundLoadError], warnings: [SoundLoadWarning], bank: SoundBank) {
        self.names = names
        self.failures = failures
        self.warnings = warnings
        self.bank = bank
    }

    /// Throws when any sound failed, for callers that treat a bad asset as fatal.
    /// - Throws: ``SoundLoadError/someFailed(failures:)`` listing them; the good sounds stay held.
    public func throwIfFailed() throws(SoundLoadError) {
        if !failures.isEmpty { throw .someFailed(failures: failures) }
    }

    /// Gives the sounds back to the bank (once; later calls do nothing).
    public func unload() {
        guard !released.exchange(true, ordering: .acquiringAndReleasing) else { return }
        for name in names { bank.unload(name) }
    }
}

extension SoundBank {
    /// Decodes and uploads sounds in parallel on all cores before a scene needs them.
    ///
    /// Every sound that can be loaded is loaded even when others fail: a bad asset costs its own sound,
    /// never the scene; ``PreloadedSounds/failures`` lists them, and ``PreloadedSounds/warnings`` the
    /// sounds that loaded from files with something wrong (nothing is printed). Cancelling the calling task stops the
    /// preload and releases what it had loaded.
    /// - Parameters:
    ///   - names: Catalogue names; `nil` loads the whole catalogue.
    ///   - progress: Called after each sound, from the loading tasks.
    /// - Returns: The loaded sounds, to ``PreloadedSounds/unload()`` when the scene ends.
    /// - Throws: `CancellationError` when cancelled.
    public func preload(
        _ names: [String]? = nil, progress: (@Sendable (PreloadProgress) -> Void)? = nil
    ) async throws(CancellationError) -> PreloadedSounds {
        let wanted = Self.largestFirst(names ?? catalogue.entries.map(\.name), in: catalogue)
        let total = wanted.count
        let width = max(1, ProcessEnvironment.processorCount)
        var loadedNames: [String] = []
        var failures: [SoundLoadError] = []
        var warnings: [SoundLoadWarning] = []
        typealias Outcome = (name: String, loaded: [SoundLoadWarning]?, failure: SoundLoadError?)
        await withTaskGroup(of: Outcome.self) { group in
            var next = 0
            func enqueue() {
                guard next < wanted.count else { return }
                let name = wanted[next]
                next += 1
                group.addTask {
                    if Task.isCancelled { return (name, nil, nil) }
                    do throws(SoundLoadError) {
                        // Every core is loading: a long file may split its decode so it does not
                        // keep one core busy after the others are done.
                        return (name, try self.load(name, splittingLongDecodes: true), nil)
                    } catch {
                        return (name, nil, error)
                    }
                }
            }
            for _ in 0..<width { enqueue() }
            var completed = 0
            for await (name, loaded, failure) in group {
                guard loaded != nil || failure != nil else { continue }
                completed += 1
                if let loaded {
                    loadedNames.append(name)
                    warnings += loaded
                }
                if let failure { failures.append(failure) }
                progress?(PreloadProgress(completed: completed, total: total, latest: name))
                enqueue()
            }
        }
        let held = PreloadedSounds(
            names: loadedNames, failures: failures, warnings: warnings, bank: self)
        if Task.isCancelled {
            held.unload()
            throw CancellationError()
        }
        return held
    }

    /// The names in the order to start loading them: biggest file first, so a long track does not
    /// start last and keep one core busy while the others wait (the catalogue order breaks ties).
    /// Unknown names keep their place at the end, where their loads fail with a catalogue error.
    static func largestFirst(_ names: [String], in catalogue: Catalogue) -> [String] {
        let sizes = names.map { name -> Int in
            guard let path = catalogue[name]?.resolvedPath,
                let size = ProcessEnvironment.fileSize(atPath: path)
            else { return -1 }
            return size
        }
        return names.indices.sorted { a, b in
            sizes[a] != sizes[b] ? sizes[a] > sizes[b] : a < b
        }.map { names[$0] }
    }

    /// Starts a preload and returns a stream of its progress alongside the task that finishes it.
    /// - Parameter names: Catalogue names; `nil` for all.
    /// - Returns: The progress stream (finishes with the preload) and the task (cancel it to stop).
    public func preloadWithProgress(_ names: [String]? = nil) -> (
        progress: AsyncStream<PreloadProgress>, task: Task<PreloadedSounds, any Error>
    ) {
        let (stream, continuation) = AsyncStream.makeStream(of: PreloadProgress.self)
        let task = Task {
            defer { continuation.finish() }
            return try await self.preload(names) { continuation.yield($0) }
        }
        return (stream, task)
    }
}
