import CSoundStationRT
import Dispatch

/// What the C libraries under the engine (ALSA, OpenAL Soft, libmpg123) and the decoders say, sent to
/// the engines' notice handlers (``AudioEngine/onNotice(_:)``) instead of the terminal.
///
/// A terminal game owns file descriptors 1 and 2, so nothing here writes to them: the libraries' own
/// hooks are set (see `ssquiet.h`) and each line is handed to every open engine. Lines said while an
/// engine is being opened (ALSA's "cannot find card" when there is no sound server) are kept, the
/// newest 64, and given to that engine once it exists.
package enum LibraryNotices {
    private struct Registry {
        /// Lines sent so far; a line's number is its position in this count.
        var sequence = 0
        /// The newest lines with their numbers, for engines being opened while they were said.
        var backlog: [(Int, String)] = []
        /// The notice broadcasts of open engines.
        var listeners: [WeakBroadcast] = []
    }

    private struct WeakBroadcast: @unchecked Sendable {
        weak var broadcast: Broadcast<String>?
    }

    private static let registry = Locked(Registry())
    private static let backlogLimit = 64

    /// The number of the line sent while an outer call (``AudioEngine/openWithFallback(_:environment:notice:)``)
    /// opens engines, so the fallback engine also hears what the failed device said.
    @TaskLocal package static var openingSince: Int?

    /// Sets the libraries' hooks, once per process; called before OpenAL's first call.
    package static func install() { _ = installed }

    private static let installed: Void = {
        ssq_install { source, line in
            guard let line else { return }
            let prefix = source == Int32(SSQ_OPENAL.rawValue) ? "OpenAL Soft: " : ""
            LibraryNotices.post(prefix + String(cString: line))
        }
    }()

    /// The number the next line will get: pass it to ``attach(_:since:)`` to hear what is said from now.
    package static func mark() -> Int {
        openingSince ?? registry.withLock { $0.sequence }
    }

    /// Sends `line` to every open engine's notice handlers (on a dispatch worker, never on the thread
    /// that said it, which may be OpenAL's mixer).
    /// - Parameter line: One line, without a newline.
    package static func post(_ line: String) {
        let listeners = registry.withLock { registry -> [Broadcast<String>] in
            registry.backlog.append((registry.sequence, line))
            registry.sequence += 1
            if registry.backlog.count > backlogLimit { registry.backlog.removeFirst() }
            registry.listeners.removeAll { $0.broadcast == nil }
            return registry.listeners.compactMap(\.broadcast)
        }
        guard !listeners.isEmpty else { return }
        DispatchQueue.global().async {
            for listener in listeners { listener.send(line) }
        }
    }

    /// Starts sending lines to `notices`, beginning with those said since `mark`.
    /// - Parameters:
    ///   - notices: An engine's notice broadcast (held weakly: a closed engine drops out by itself).
    ///   - mark: From ``mark()``, taken before the engine's device was opened.
    package static func attach(_ notices: Broadcast<String>, since mark: Int) {
        let missed = registry.withLock { registry -> [String] in
            registry.listeners.append(WeakBroadcast(broadcast: notices))
            return registry.backlog.filter { $0.0 >= mark }.map(\.1)
        }
        for line in missed { notices.send(line) }
    }
}
