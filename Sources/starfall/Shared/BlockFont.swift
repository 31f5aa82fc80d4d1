/// A 3 by 5 pixel font drawn in code, so both front ends can write big letters and digits without
/// font files: the window draws each lit cell as a filled square, the terminal as a block character.
enum BlockFont {
    /// Cells per glyph across.
    static let width = 3
    /// Cells per glyph down.
    static let height = 5
    /// Cells from one glyph to the next (one blank column between).
    static let advance = 4

    /// Each glyph as five rows of three cells, `#` lit.
    private static let table: [Character: String] = [
        "A": ".#./#.#/###/#.#/#.#", "B": "##./#.#/##./#.#/##.", "C": ".##/#../#../#../.##",
        "D": "##./#.#/#.#/#.#/##.", "E": "###/#../##./#../###", "F": "###/#../##./#../#..",
        "G": ".##/#../#.#/#.#/.##", "H": "#.#/#.#/###/#.#/#.#", "I": "###/.#./.#./.#./###",
        "J": "..#/..#/..#/#.#/.#.", "K": "#.#/#.#/##./#.#/#.#", "L": "#../#../#../#../###",
        "M": "#.#/###/###/#.#/#.#", "N": "##./#.#/#.#/#.#/#.#", "O": ".#./#.#/#.#/#.#/.#.",
        "P": "##./#.#/##./#../#..", "Q": ".#./#.#/#.#/##./.##", "R": "##./#.#/##./#.#/#.#",
        "S": ".##/#../.#./..#/##.", "T": "###/.#./.#./.#./.#.", "U": "#.#/#.#/#.#/#.#/###",
        "V": "#.#/#.#/#.#/#.#/.#.", "W": "#.#/#.#/###/###/#.#", "X": "#.#/#.#/.#./#.#/#.#",
        "Y": "#.#/#.#/.#./.#./.#.", "Z": "###/..#/.#./#../###",
        "0": "###/#.#/#.#/#.#/###", "1": ".#./##./.#./.#./###", "2": "##./..#/.#./#../###",
        "3": "##./..#/.#./..#/##.", "4": "#.#/#.#/###/..#/..#", "5": "###/#../##./..#/##.",
        "6": ".##/#../###/#.#/###", "7": "###/..#/.#./.#./.#.", "8": "###/#.#/###/#.#/###",
        "9": "###/#.#/###/..#/##.", " ": ".../.../.../.../...", "-": ".../.../###/.../...",
        ":": ".../.#./.../.#./...", "!": ".#./.#./.#./.../.#.", ".": ".../.../.../.../.#.",
        ">": "#../.#./..#/.#./#..", "<": "..#/.#./#../.#./..#", "/": "..#/..#/.#./#../#..",
        "+": ".../.#./###/.#./...", "?": "##./..#/.#./.../.#.", "'": ".#./.#./.../.../...",
        "(": ".#./#../#../#../.#.", ")": ".#./..#/..#/..#/.#.", "%": "#.#/..#/.#./#../#.#",
    ]

    /// Lit cells of each glyph, parsed once.
    private static let glyphs: [Character: [(Int, Int)]] = table.mapValues { pattern in
        var cells: [(Int, Int)] = []
        for (row, line) in pattern.split(separator: "/").enumerated() {
            for (column, mark) in line.enumerated() where mark == "#" { cells.append((column, row)) }
        }
        return cells
    }

    /// The lit cells of `text` laid out on one line from (0, 0); lower case is drawn as upper case
    /// and characters the font lacks as `?`.
    /// - Parameter text: What to write.
    /// - Returns: Cell coordinates, x to the right and y down.
    static func cells(_ text: String) -> [(x: Int, y: Int)] {
        var result: [(x: Int, y: Int)] = []
        for (index, character) in text.uppercased().enumerated() {
            let glyph = glyphs[character] ?? glyphs["?"] ?? []
            result += glyph.map { (x: index * advance + $0.0, y: $0.1) }
        }
        return result
    }

    /// Cells across that `text` occupies.
    /// - Parameter text: What to write.
    /// - Returns: The width in cells.
    static func width(of text: String) -> Int {
        text.isEmpty ? 0 : text.count * advance - 1
    }
}
