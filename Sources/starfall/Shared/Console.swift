import CommandLineKit
import Glibc

/// Messages for the person running `starfall`, always on stderr so stdout stays clean for the
/// autoplay summary.
enum Console {
    /// Prints `message` prefixed with the program's name.
    static func report(_ message: String) {
        StandardStream.error.write("starfall: \(message.printable)\n")
    }
}
