import Dispatch
import Glibc
import Synchronization

/// A running watch of a bank's assets folder (``SoundBank/watch(settle:)``): edited sound files and
/// `catalogue.json` are loaded again while the game runs. Keep it for as long as reloads are wanted;
/// ``cancel()`` it, or let go of it, to stop.
///
/// It runs one thread of its own ("SoundStation asset watch"), which waits for the kernel's change
/// notices, lets each file settle, then decodes and uploads the new version and swaps it in. Nothing
/// of that runs on the game's threads or under a lock they take: the bank's lock is held only to
/// swap the entry, as when a sound is loaded. The reports (``SoundEvent/reloaded(sound:file:warnings:)``,
/// ``SoundEvent/reloadFailed(file:error:)``, ``SoundEvent/catalogueReloaded(added:removed:)``) are
/// sent from that thread, through ``AudioEngine/events()`` and ``AudioEngine/onEvent(_:)``.
public final class AssetWatch: Sendable {
    /// What the watch thread and ``cancel()`` share.
    private final class Shared: Sendable {
        let inotify: Inotify
        let running = Atomic<Bool>(true)
        /// Signalled when the thread has left its loop and touches the bank no more.
        let exited = DispatchSemaphore(value: 0)
        /// The thread's `pthread_t`, so a cancel from the thread itself (an event handler) does not
        /// wait for itself.
        let thread = Atomic<UInt>(0)

        init(inotify: Inotify) { self.inotify = inotify }
    }

    private let shared: Shared

    /// The folders being watched when the watch started: the assets root and every folder a
    /// catalogue entry's file is in.
    public let folders: [String]

    init(bank: SoundBank, settle: Duration) throws(AssetWatchError) {
        let inotify = try Inotify(root: bank.catalogue.root)
        for folder in bank.watchedFolders().sorted() { try inotify.watch(folder) }
        folders = inotify.watched.sorted()
        let shared = Shared(inotify: inotify)
        self.shared = shared
        // The thread holds the bank weakly: a bank (and its engine) freed by the game ends the watch.
        let thread = PosixThread { [weak bank] in
            defer { shared.exited.signal() }
            shared.thread.store(UInt(pthread_self()), ordering: .releasing)
            var settling = Settling()
            while shared.running.load(ordering: .acquiring) {
                let batch = inotify.wait(settling.timeout(settle: settle, now: .now))
                settling.note(batch, now: .now)
                let due = settling.takeDue(settle: settle, now: .now)
                guard let bank, shared.running.load(ordering: .acquiring) else { return }
                guard let due else { continue }
                let events = bank.reloadChanged(due.paths, everything: due.everything)
                bank.engine.hub.send(events)
                // A catalogue that now names files in new folders: watch those too.
                for folder in bank.watchedFolders() { try? inotify.watch(folder) }
            }
        }
        thread.name = "SoundStation asset watch"
        thread.start()
    }

    deinit { cancel() }

    /// Stops watching. Once it returns no reload starts and no report is sent (called from a report's
    /// handler, on the watch's own thread, the reload in progress finishes first). Later calls do
    /// nothing.
    public func cancel() {
        guard shared.running.exchange(false, ordering: .acquiringAndReleasing) else { return }
        shared.inotify.wake()
        if shared.thread.load(ordering: .acquiring) != UInt(pthread_self()) { shared.exited.wait() }
    }
}

/// The changed paths waiting to settle: an editor's save is a burst (create, write, rename), and a
/// copy writes for a while, so a path is acted on once nothing has touched it for `settle`.
struct Settling {
    private var pending: [String: ContinuousClock.Instant] = [:]
    /// When the kernel lost changes: everything is looked at again once it settles.
    private var overflow: ContinuousClock.Instant?

    /// How long the next wait may be: until the earliest pending path settles, else a quarter second
    /// (so a freed bank is noticed).
    func timeout(settle: Duration, now: ContinuousClock.Instant) -> Duration {
        let earliest = ([overflow].compactMap { $0 } + pending.values).min()
        guard let earliest else { return .milliseconds(250) }
        return max(.zero, earliest + settle - now)
    }

    /// Records what a wait saw.
    mutating func note(_ batch: Inotify.Batch, now: ContinuousClock.Instant) {
        for change in batch.changes { pending[change.path] = now }
        if batch.overflowed { overflow = now }
    }

    /// The paths that have settled (removed from the pending ones), or `nil` when none has.
    mutating func takeDue(settle: Duration, now: ContinuousClock.Instant) -> (
        paths: Set<String>, everything: Bool
    )? {
        let paths = Set(pending.filter { now - $0.value >= settle }.keys)
        let everything = overflow.map { now - $0 >= settle } ?? false
        guard !paths.isEmpty || everything else { return nil }
        for path in paths { pending[path] = nil }
        if everything { overflow = nil }
        return (paths, everything)
    }
}
