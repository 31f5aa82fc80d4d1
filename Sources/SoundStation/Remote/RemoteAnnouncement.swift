/// How the player's `soundstation ssh` tells the game on the server that it is there and what its
/// cache holds: the variable `LC_SOUNDSTATION`, which OpenSSH sends and accepts by default (Debian's
/// and most distributions' `ssh_config` say `SendEnv LANG LC_*`, `sshd_config` says `AcceptEnv LANG
/// LC_*`; `soundstation ssh` also passes `-o SendEnv=LC_SOUNDSTATION`). No C library reads it as a
/// locale category, so it changes nothing else.
///
/// Its value: `ss1` then, space-separated, `have=` and the first 16 hex digits of the hash of every
/// file in the player's cache (comma-separated), so the game sends only the files that are missing,
/// and `part=` with `HASH:BYTES` for files that arrived in part, so their transfer resumes.
public struct RemoteAnnouncement: Sendable, Equatable {
    /// The variable's name.
    public static let variable = "LC_SOUNDSTATION"
    /// The protocol tag the value begins with.
    public static let tag = "ss1"
    /// The most cached files one announcement lists (about 4 KB of text).
    public static let maxListed = 240

    /// Short hashes (16 hex digits) of the files the player's cache holds.
    public var cached: Set<String>
    /// Short hashes of files that arrived in part, with the bytes the player has: their transfer
    /// resumes there.
    public var partial: [String: Int]

    /// An announcement.
    /// - Parameters:
    ///   - cached: Short hashes of the files the player holds.
    ///   - partial: Short hashes of files the player holds in part, with their length.
    public init(cached: Set<String> = [], partial: [String: Int] = [:]) {
        self.cached = cached
        self.partial = partial
    }

    /// Reads the announcement of the session a program runs in, if any.
    ///
    /// Inside `tmux` or `screen` (`TMUX` or `STY` set) there is none: the multiplexer keeps the
    /// variable of the session that started it, whoever is attached now, and it swallows APC
    /// strings rather than passing them to the player's terminal.
    /// - Parameter environment: The program's variables.
    /// - Returns: The announcement, or `nil` when there is none or it is not one this version reads.
    public static func from(environment: [String: String]) -> RemoteAnnouncement? {
        if environment["TMUX"] != nil || environment["STY"] != nil { return nil }
        guard let value = environment[variable] else { return nil }
        return RemoteAnnouncement(parsing: value)
    }

    /// Where a game in this environment sends its sound, if anywhere: the session's terminal when the
    /// player announced itself in `LC_SOUNDSTATION` (outside a multiplexer), else a socket the player
    /// forwarded (``RemoteSocket/find(environment:)``; inside `tmux` or `screen` too).
    /// - Parameter environment: The program's variables.
    /// - Returns: The route, or `nil` when no player is there.
    public static func route(environment: [String: String]) -> RemoteRoute? {
        if let announcement = from(environment: environment) { return .terminal(announcement) }
        if let path = RemoteSocket.find(environment: environment) { return .socket(path) }
        return nil
    }

    /// Parses a value of the variable.
    /// - Parameter value: The text after `LC_SOUNDSTATION=`.
    public init?(parsing value: String) {
        let words = value.split(separator: " ")
        guard words.first == Substring(Self.tag) else { return nil }
        var cached: Set<String> = []
        var partial: [String: Int] = [:]
        for word in words.dropFirst() where word.hasPrefix("have=") {
            for item in word.dropFirst(5).split(separator: ",").prefix(Self.maxListed)
            where Self.isShortHash(item) {
                cached.insert(String(item))
            }
        }
        for word in words.dropFirst() where word.hasPrefix("part=") {
            for item in word.dropFirst(5).split(separator: ",").prefix(16) {
                let parts = item.split(separator: ":")
                guard parts.count == 2, Self.isShortHash(parts[0]), let bytes = Int(parts[1]), bytes > 0
                else { continue }
                partial[String(parts[0])] = bytes
            }
        }
        self.cached = cached
        self.partial = partial
    }

    private static func isShortHash(_ text: Substring) -> Bool {
        text.count == 16 && text.allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }

    /// The variable's value.
    public var value: String {
        var value = Self.tag
        let listed = cached.sorted().prefix(Self.maxListed)
        if !listed.isEmpty { value += " have=" + listed.joined(separator: ",") }
        let parts = partial.sorted { $0.key < $1.key }.prefix(16).map { "\($0.key):\($0.value)" }
        if !parts.isEmpty { value += " part=" + parts.joined(separator: ",") }
        return value
    }
}

/// How a remote engine reaches the player.
public enum RemoteRoute: Sendable, Equatable {
    /// In-band frames on the session's terminal, the player's cache as the announcement says.
    case terminal(RemoteAnnouncement)
    /// A forwarded Unix socket (``RemoteSocket``), whose player announces its cache on the socket.
    case socket(String)
}
