/// A screenful of coloured characters, drawn into and then sent as one write of ANSI text.
struct TextCanvas {
    /// Foreground colours by their SGR code.
    enum Color: Int {
        case plain = 39
        case red = 91
        case green = 92
        case yellow = 33
        case gold = 93
        case blue = 94
        case magenta = 95
        case cyan = 96
        case white = 97
        case grey = 90
    }

    private struct Cell: Equatable {
        var character: Character = " "
        var color = Color.plain
        var bold = false
    }

    /// Columns.
    let width: Int
    /// Rows.
    let height: Int
    private var cells: [Cell]

    /// A blank screen of the given size (at least one cell).
    init(width: Int, height: Int) {
        self.width = max(1, width)
        self.height = max(1, height)
        cells = Array(repeating: Cell(), count: self.width * self.height)
    }

    /// Writes `text` from column `x` of row `y`, clipped to the screen.
    mutating func put(_ text: String, x: Int, y: Int, color: Color = .plain, bold: Bool = false) {
        guard y >= 0, y < height else { return }
        for (offset, character) in text.enumerated() {
            let column = x + offset
            guard column >= 0, column < width else { continue }
            cells[y * width + column] = Cell(character: character, color: color, bold: bold)
        }
    }

    /// Writes `text` centred on row `y`.
    mutating func putCentered(_ text: String, y: Int, color: Color = .plain, bold: Bool = false) {
        put(text, x: (width - text.count) / 2, y: y, color: color, bold: bold)
    }

    /// Writes `text` in the block font, five rows high, centred, from row `y`.
    mutating func putBlockText(_ text: String, y: Int, color: Color) {
        let left = (width - BlockFont.width(of: text)) / 2
        // A clear box first, so nothing drawn behind shows between the letters' strokes.
        for row in y - 1...y + BlockFont.height {
            put(String(repeating: " ", count: BlockFont.width(of: text) + 2), x: left - 1, y: row)
        }
        for cell in BlockFont.cells(text) {
            put("\u{2588}", x: left + cell.x, y: y + cell.y, color: color, bold: true)
        }
    }

    /// The whole screen as ANSI text: cursor home, every row, colours switched only where they change.
    var ansi: String {
        var output = "\u{1B}[H"
        var current: Cell?
        for row in 0..<height {
            // Leaving the bottom-right cell alone keeps terminals that scroll on it from scrolling.
            let columns = row == height - 1 ? width - 1 : width
            for column in 0..<columns {
                let cell = cells[row * width + column]
                if current?.color != cell.color || current?.bold != cell.bold {
                    output += "\u{1B}[0;\(cell.bold ? "1;" : "")\(cell.color.rawValue)m"
                    current = cell
                }
                output.append(cell.character)
            }
            if row < height - 1 { output += "\r\n" }
        }
        return output + "\u{1B}[0m"
    }
}
