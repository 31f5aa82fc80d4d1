/// A failure the CLI reports on one line before exiting non-zero.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    let exitCode: Int32

    init(_ description: String, exitCode: Int32 = 1) {
        self.description = description
        self.exitCode = exitCode
    }

    static func usage(_ message: String) -> CLIError {
        CLIError("\(message)\n\(Command.usage)", exitCode: 2)
    }
}
