/// Why audio could not be encoded or written to disk.
public enum AudioEncodingError: Error, CustomStringConvertible, Equatable {
    /// The output file cannot be created (missing directory, permissions, read-only disk).
    case cannotCreate(path: String, reason: String)
    /// Writing or syncing the output failed part-way; the reason is the system's, e.g. a full disk.
    case writeFailed(path: String, reason: String)
    /// The requested sample rate, channel count, quality or sample count cannot be encoded.
    case invalidSettings(reason: String)

    /// One line: the file, what is wrong, and what to do about it.
    public var description: String {
        switch self {
        case .cannotCreate(let path, let reason):
            return "Cannot create audio file '\(path)': \(reason). Check the directory exists and is writable."
        case .writeFailed(let path, let reason):
            return "Writing audio file '\(path)' failed: \(reason). Free disk space or pick another "
                + "location; the file is incomplete."
        case .invalidSettings(let reason):
            return "Invalid audio encoder settings: \(reason)."
        }
    }
}
