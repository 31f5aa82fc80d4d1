import Foundation

/// Messages for the person running `starfall`, always on stderr so stdout stays clean for the
/// autoplay summary.
enum Console {
    /// Prints `message` prefixed with the program's name.
    static func report(_ message: String) {
        FileHandle.standardError.write(Data("starfall: \(message)\n".utf8))
    }
}
