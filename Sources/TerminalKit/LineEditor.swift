/// One line of text typed on a full-screen view (a name, a search), edited by the keys a terminal in
/// raw mode delivers: characters insert at the cursor, Backspace erases before it, Left and Right
/// move it, Enter submits and Escape (or Ctrl-C) cancels.
///
/// It holds no terminal: the view feeds it ``Key``s and draws ``text`` with the cursor at
/// ``cursor`` (``beforeCursor``, ``underCursor``, ``afterCursor`` split it for drawing).
///
/// ```swift
/// var editor = LineEditor(text: note.name)
/// switch editor.handle(key) {
/// case .submitted(let name): try library.rename(note.name, to: name)
/// case .cancelled: mode = .browsing
/// case .editing: break
/// }
/// ```
public struct LineEditor: Sendable, Equatable {
    /// What a key did to the line.
    public enum Outcome: Sendable, Equatable {
        /// The line is still being edited.
        case editing
        /// Enter was pressed: the text as it stands.
        case submitted(String)
        /// Escape or Ctrl-C was pressed: the edit is abandoned.
        case cancelled
    }

    /// The line as typed so far.
    public private(set) var text: String
    /// Where the next character goes, in characters from the start (0...text.count).
    public private(set) var cursor: Int
    /// The most characters the line takes; keys beyond it are ignored.
    public let limit: Int

    /// Starts editing `text` with the cursor at its end.
    /// - Parameters:
    ///   - text: The starting text, e.g. the current name.
    ///   - limit: The most characters the line takes.
    public init(text: String = "", limit: Int = 200) {
        self.limit = max(1, limit)
        self.text = String(text.prefix(self.limit))
        cursor = self.text.count
    }

    /// The text before the cursor.
    public var beforeCursor: String { String(text.prefix(cursor)) }
    /// The character under the cursor, or a space at the end of the line (where the cursor is drawn).
    public var underCursor: String { cursor < text.count ? String(text.dropFirst(cursor).prefix(1)) : " " }
    /// The text after the character under the cursor.
    public var afterCursor: String { String(text.dropFirst(cursor + 1)) }

    /// Applies one key.
    /// - Parameter key: A key from ``Key/decode(_:)``.
    /// - Returns: Whether editing goes on, or ended by Enter or Escape.
    public mutating func handle(_ key: Key) -> Outcome {
        switch key {
        case .enter: return .submitted(text)
        case .escape, .interrupt: return .cancelled
        case .character(let character): insert(character)
        case .space: insert(" ")
        case .backspace:
            guard cursor > 0 else { break }
            let index = text.index(text.startIndex, offsetBy: cursor - 1)
            text.remove(at: index)
            cursor -= 1
        case .left: cursor = max(0, cursor - 1)
        case .right: cursor = min(text.count, cursor + 1)
        case .up, .down: break
        }
        return .editing
    }

    private mutating func insert(_ character: Character) {
        guard text.count < limit else { return }
        text.insert(character, at: text.index(text.startIndex, offsetBy: cursor))
        cursor += 1
    }
}
