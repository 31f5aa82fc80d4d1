/// A failure a command-line program reports on one line before it exits non-zero.
///
/// Usage errors (a mistake in how the program was called) exit 2 and point at `--help`; other
/// failures exit 1 unless told otherwise.
public struct CLIError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The message, one line, naming the argument, file or value at fault.
    public let message: String
    /// The process exit status: 2 for usage errors, 1 for other failures.
    public let exitCode: Int32

    /// A failure with its message and exit status.
    /// - Parameters:
    ///   - message: One line naming what is at fault and, where it helps, what to do.
    ///   - exitCode: The exit status; 1 by default.
    public init(_ message: String, exitCode: Int32 = 1) {
        self.message = message
        self.exitCode = exitCode
    }

    /// A mistake in how the program was called: exit status 2.
    /// - Parameter message: One line naming the bad argument, e.g. `unknown option "--dance"`.
    /// - Returns: The usage error.
    public static func usage(_ message: String) -> CLIError {
        CLIError(message, exitCode: 2)
    }

    /// Whether this is a usage error (exit status 2).
    public var isUsage: Bool { exitCode == 2 }

    /// The message.
    public var description: String { message }
}
