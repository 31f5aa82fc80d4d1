/// How a stretch of screen text looks, as ANSI SGR attributes.
struct TextStyle: Equatable {
    var bold = false
    var dim = false
    var reverse = false
    /// 30...37 foreground colour code.
    var foreground: Int?
    /// 40...47 background colour code.
    var background: Int?

    static let plain = TextStyle()
    static let red = 31
    static let green = 32
    static let yellow = 33
    static let blue = 34
    static let cyan = 36
    static let white = 37

    /// The escape sequence that switches to this style from plain.
    var sequence: String {
        var codes: [String] = []
        if bold { codes.append("1") }
        if dim { codes.append("2") }
        if reverse { codes.append("7") }
        if let foreground { codes.append(String(foreground)) }
        if let background { codes.append(String(background + 10)) }
        return codes.isEmpty ? "" : "\u{1B}[" + codes.joined(separator: ";") + "m"
    }
}

/// One screen row: styled stretches of text, cut to the terminal's width before drawing.
struct ScreenLine: Equatable {
    var segments: [(text: String, style: TextStyle)] = []

    init() {}

    init(_ text: String, _ style: TextStyle = .plain) {
        segments = [(text, style)]
    }

    static func == (a: ScreenLine, b: ScreenLine) -> Bool {
        a.segments.map(\.text) == b.segments.map(\.text) && a.segments.map(\.style) == b.segments.map(\.style)
    }

    mutating func append(_ text: String, _ style: TextStyle = .plain) {
        segments.append((text, style))
    }

    /// The text without styles, as `tmux capture-pane` shows it.
    var plainText: String { segments.map(\.text).joined() }

    /// The row with escape sequences, at most `width` characters wide, each style reset after use
    /// so nothing bleeds into the next row.
    func rendered(width: Int) -> String {
        var remaining = max(0, width)
        var output = ""
        for (text, style) in segments where remaining > 0 {
            let cut = String(text.prefix(remaining))
            remaining -= cut.count
            let sequence = style.sequence
            output += sequence.isEmpty ? cut : sequence + cut + "\u{1B}[0m"
        }
        return output
    }
}
