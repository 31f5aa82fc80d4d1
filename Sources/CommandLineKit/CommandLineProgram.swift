import Glibc

/// A command-line program's name and usage text, and the one way its errors end the process.
///
/// Every failure is one line on stderr, `NAME: message`; a usage error adds `(see NAME --help)` and
/// exits 2, other failures exit 1 (or a ``CLIError``'s own status). `NAME --version` prints
/// `NAME VERSION` and exits 0.
///
/// ```swift
/// let program = CommandLineProgram(name: "mytool", usage: "usage: mytool [--out FILE] WORD...", version: "1.0.0")
/// await program.main { () async throws -> Int32 in
///     var arguments = Arguments(Array(CommandLine.arguments.dropFirst()))
///     if arguments.help() { return program.printUsage() }
///     let out = try arguments.value("out")
///     print(out ?? "-", try arguments.positional())
///     return 0
/// }
/// ```
public struct CommandLineProgram: Sendable {
    /// The name messages start with, e.g. `soundstation`.
    public let name: String
    /// The text `--help` prints.
    public let usage: String
    /// What `--version` prints after the name.
    public let version: String

    /// A program with its name, usage text and version.
    /// - Parameters:
    ///   - name: The name messages start with.
    ///   - usage: The text `--help` prints.
    ///   - version: What `--version` prints after the name.
    public init(name: String, usage: String, version: String) {
        self.name = name
        self.usage = usage
        self.version = version
    }

    /// Runs `body` and exits with the status it returns, or reports the error it throws; a first
    /// argument of `--version` prints ``versionLine`` and exits 0 without running it.
    /// - Parameter body: The program; returns its exit status.
    /// - Returns: Never: the process exits.
    public func main(_ body: () async throws -> Int32) async -> Never {
        if CommandLine.arguments.dropFirst().first == "--version" {
            print(versionLine)
            exit(0)
        }
        let status: Int32
        do {
            status = try await body()
        } catch {
            status = report(error)
        }
        exit(status)
    }

    /// Writes `error` to stderr as one line and gives the exit status it calls for.
    /// - Parameter error: A ``CLIError`` (its status; 2 adds a pointer to `--help`), or any other
    ///   error (status 1, its description as the message).
    /// - Returns: The exit status.
    @discardableResult
    public func report(_ error: any Error) -> Int32 {
        let failure = error as? CLIError ?? CLIError(String(describing: error))
        let hint = failure.isUsage ? " (see \(name) --help)" : ""
        // The message may name a file, a sound or a reason from elsewhere: printable first.
        printError("\(name): \(failure.message.printable)\(hint)")
        return failure.exitCode
    }

    /// `NAME VERSION`, as `--version` prints it.
    public var versionLine: String { "\(name) \(version)" }

    /// Prints the usage text on stdout.
    /// - Returns: 0, the exit status of `--help`.
    @discardableResult
    public func printUsage() -> Int32 {
        print(usage)
        return 0
    }

    /// Writes one line to stderr, unbuffered.
    /// - Parameter line: The text, without its newline.
    public func printError(_ line: String) {
        // One write of the whole line, so it is out before the process exits.
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
