import Glibc

/// Why a terminal could not be switched to raw mode.
public enum TerminalError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The descriptor is not a terminal (a pipe, a file, `/dev/null`).
    case notATerminal(descriptor: Int32)
    /// A termios call failed; `call` names it and `reason` is the system's message.
    case settingsFailed(call: String, reason: String)

    /// A one-line message that says what failed and what to do.
    public var description: String {
        switch self {
        case .notATerminal(let descriptor):
            let name =
                switch descriptor {
                case STDIN_FILENO: "stdin"
                case STDOUT_FILENO: "stdout"
                default: "file descriptor \(descriptor)"
                }
            return "\(name) is not a terminal: run it in a terminal, not through a pipe or a file"
        case .settingsFailed(let call, let reason):
            return "\(call) failed: \(reason)"
        }
    }

    /// The failure of `call`, read from `errno` now.
    static func failed(_ call: String) -> TerminalError {
        .settingsFailed(call: call, reason: String(cString: strerror(errno)))
    }
}
