/// JSON string literals for the package's JSON writers (the catalogue sent to a remote player, the
/// asset tool's manifest, the CLIs' `--json` output), so all escape the same way.
package enum JSONString {
    /// `text` as a JSON string literal: quotes, backslashes and control characters escaped, C0, DEL
    /// and C1 (U+0080...U+009F) alike, so a name holding one reaches no terminal the text is printed on.
    /// - Parameter text: Any string.
    /// - Returns: The literal, with its quotes.
    package static func literal(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
