import Glibc

extension String {
    /// Formats `arguments` as C's `printf` does (`%.2f`, `%d`, `%02d`, `%04x`, `%6.1f`): what the
    /// package's CLIs and VoiceNotes used Foundation's `String(format:)` for.
    ///
    /// Why not Foundation's: the package and its CLIs import no Foundation (see ``ProcessEnvironment``).
    /// Numbers are written with a point, whatever the locale: no part of the package calls
    /// `setlocale`, so C's numeric locale stays "C". Strings cannot be arguments (a Swift `String` is
    /// not a C value): interpolate them instead.
    package init(cFormat format: String, _ arguments: any CVarArg...) {
        self = withVaList(arguments) { list in
            var buffer = [CChar](repeating: 0, count: 128)
            let needed = Int(vsnprintf(&buffer, buffer.count, format, list))
            guard needed >= buffer.count else {
                return String(
                    decoding: buffer.prefix(while: { $0 != 0 }).map(UInt8.init(bitPattern:)), as: UTF8.self)
            }
            return withVaList(arguments) { again in
                var larger = [CChar](repeating: 0, count: needed + 1)
                _ = vsnprintf(&larger, larger.count, format, again)
                return String(
                    decoding: larger.prefix(while: { $0 != 0 }).map(UInt8.init(bitPattern:)), as: UTF8.self)
            }
        }
    }

    /// The string cut or padded with `pad` on the right to `length` characters, as Foundation's
    /// `padding(toLength:withPad:startingAt: 0)` does for a one-character pad.
    package func padded(toLength length: Int, with pad: Character = " ") -> String {
        count >= length ? String(prefix(length)) : self + String(repeating: pad, count: length - count)
    }

    /// The string without spaces and tabs at either end (Foundation's
    /// `trimmingCharacters(in: .whitespaces)`).
    package var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(self[first...last])
    }
}

/// Path text as Foundation's `NSString` path methods treat it, for the CLIs and VoiceNotes (which
/// import no Foundation; see ``ProcessEnvironment``).
package enum PathText {
    /// The last component (`NSString.lastPathComponent`): "c.ogg" for "/a/b/c.ogg", "b" for "/a/b/",
    /// "/" for "/".
    package static func lastComponent(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        if trimmed == "/" { return "/" }
        return trimmed.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? ""
    }

    /// The path without its last component (`NSString.deletingLastPathComponent`): "/a/b" for
    /// "/a/b/c.ogg", "/" for "/a", "" for "c.ogg", "/" for "/".
    package static func deletingLastComponent(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        if slash == trimmed.startIndex { return "/" }
        var parent = trimmed[..<slash]
        while parent.count > 1, parent.hasSuffix("/") { parent = parent.dropLast() }
        return String(parent)
    }

    /// The path with "~" expanded, "." and ".." components and repeated slashes removed
    /// (`NSString.standardizingPath` without its symlink step; ".." above the root stays at the root).
    package static func standardized(_ path: String) -> String {
        var text = path
        if text == "~" || text.hasPrefix("~/"), let home = getenv("HOME") {
            text = String(cString: home) + text.dropFirst()
        }
        let absolute = text.hasPrefix("/")
        var parts: [Substring] = []
        for part in text.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
                continue
            }
            if part == "..", absolute { continue }
            parts.append(part)
        }
        let joined = parts.joined(separator: "/")
        return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }
}

/// Local wall-clock time as text, through C's `localtime_r` and `strftime`: what VoiceNotes and the
/// voicenote CLI used Foundation's `DateFormatter` and `Calendar` for (see ``PathText`` for why).
package enum LocalTime {
    /// `secondsSince1970` in the local time zone (`TZ`, else /etc/localtime) formatted with
    /// `strftime`'s `format`, such as "%Y-%m-%d %H:%M:%S".
    package static func text(secondsSince1970: Double, format: String) -> String {
        var seconds = time_t(secondsSince1970.rounded(.down))
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return "" }
        var buffer = [CChar](repeating: 0, count: 128)
        let length = strftime(&buffer, buffer.count, format, &parts)
        return String(decoding: buffer.prefix(length).map(UInt8.init(bitPattern:)), as: UTF8.self)
    }
}
