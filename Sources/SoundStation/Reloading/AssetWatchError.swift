/// Why ``SoundBank/watch(settle:)`` could not start watching the assets folder.
public enum AssetWatchError: Error, CustomStringConvertible, Equatable {
    /// The kernel refused an inotify instance or a watch on `path`; `reason` is its message
    /// (`strerror`) and what to do.
    case unavailable(path: String, reason: String)

    /// One line naming the folder and what to do.
    public var description: String {
        switch self {
        case .unavailable(let path, let reason): "cannot watch '\(path)' for changes: \(reason)"
        }
    }
}
