/// A failure of the command line itself, reported on one line before exiting non-zero.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    let exitCode: Int32

    init(_ description: String, exitCode: Int32 = 1) {
        self.description = description
        self.exitCode = exitCode
    }

    /// A mistake in how the command was called: exit code 2 and the usage text.
    static func usage(_ message: String) -> CLIError {
        CLIError("\(message)\n\(Command.usage)", exitCode: 2)
    }
}
