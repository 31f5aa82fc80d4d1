import SoundStation
import StarfallCore

/// Draws the game in a terminal: a status line, the playfield in between, hints at the bottom.
enum TerminalPainter {
    /// The loading screen: title, count, bar and the sound just loaded.
    static func drawLoading(_ progress: LoadingState, into canvas: inout TextCanvas) {
        let middle = canvas.height / 2
        canvas.putCentered(Texts.title, y: middle - 3, color: .gold, bold: true)
        canvas.putCentered(Texts.loading(progress.completed, of: progress.total), y: middle - 1)
        let width = min(40, canvas.width - 4)
        let filled = Int(progress.fraction * Double(width))
        let bar =
            "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "]"
        canvas.putCentered(bar, y: middle, color: .cyan)
        canvas.putCentered(progress.latest ?? "", y: middle + 1, color: .grey)
    }

    /// The menu, the game or game over, whichever is showing, with the music's beat flashed on it.
    static func draw(_ game: Game, pulse: BeatPulse, notice: String?, into canvas: inout TextCanvas) {
        drawSky(game.tick, into: &canvas)
        switch game.scene {
        case .menu: drawMenu(game, pulse: pulse, notice: notice, into: &canvas)
        case .game, .gameOver: drawPlay(game, pulse: pulse, into: &canvas)
        }
    }

    /// The colour of something that flashes on the beat: white on a bar's first beat, cyan on the
    /// others, `rest` between.
    private static func beatColor(_ pulse: BeatPulse, rest: TextCanvas.Color) -> (TextCanvas.Color, Bool) {
        guard pulse.level > 0.4 else { return (rest, false) }
        return (pulse.isDownbeat ? .white : .cyan, true)
    }

    /// Faint stars that twinkle slowly behind everything.
    private static func drawSky(_ tick: Int, into canvas: inout TextCanvas) {
        let rows = max(1, canvas.height - 2)
        for point in Sky.points(
            count: canvas.width * rows / 30, width: canvas.width, height: rows, tick: tick)
        {
            canvas.put(point.bright ? "+" : ".", x: point.x, y: point.y + 1, color: .grey)
        }
    }

    private static func drawMenu(
        _ game: Game, pulse: BeatPulse, notice: String?, into canvas: inout TextCanvas
    ) {
        canvas.put(" \(Texts.title) ", x: 1, y: 0, color: .gold, bold: true)
        let heading = Texts.heading(of: game)
        canvas.put(heading, x: canvas.width - heading.count - 1, y: 0, color: .cyan)
        var row = 2
        if canvas.height >= 22 {
            canvas.putBlockText(Texts.title, y: row, color: .gold)
            row += 6
        }
        canvas.putCentered(Texts.tagline, y: row, color: .yellow)
        row += 2
        let lines = Texts.lines(of: game)
        let cursor = Texts.cursor(of: game)
        let widest = lines.map(\.count).max() ?? 0
        let left = (canvas.width - widest) / 2
        for (index, line) in lines.enumerated() {
            let chosen = index == cursor
            let (color, _) = beatColor(pulse, rest: .gold)
            canvas.put(chosen ? "> " : "  ", x: left - 2, y: row + index, color: color, bold: true)
            canvas.put(line, x: left, y: row + index, color: chosen ? .white : .grey, bold: chosen)
        }
        if let notice { canvas.put(notice, x: 1, y: canvas.height - 2, color: .yellow) }
        let hints =
            game.shopIsOpen ? "up/down choose  enter buy  q back" : "up/down choose  enter select  q quit"
        canvas.put(hints, x: 1, y: canvas.height - 1, color: .grey)
    }

    private static func drawPlay(_ game: Game, pulse: BeatPulse, into canvas: inout TextCanvas) {
        let rules = game.rules
        canvas.put(Texts.status(of: game), x: 1, y: 0, color: .white, bold: true)
        let keys = "p pause  q menu"
        canvas.put(keys, x: canvas.width - keys.count - 1, y: 0, color: .grey)
        let rows = max(1, canvas.height - 2)
        let columns = max(1, canvas.width - 2)
        func column(_ x: Double) -> Int {
            1 + min(columns - 1, max(0, Int(x / rules.fieldWidth * Double(columns))))
        }
        func row(_ y: Double) -> Int { 1 + min(rows - 1, max(0, Int(y / rules.fieldHeight * Double(rows)))) }
        // The side walls flash on the music's beats.
        let (wall, bright) = beatColor(pulse, rest: .blue)
        for y in 1...rows {
            canvas.put("|", x: 0, y: y, color: wall, bold: bright)
            canvas.put("|", x: canvas.width - 1, y: y, color: wall, bold: bright)
        }
        for thing in game.things {
            switch thing.kind {
            case .star: canvas.put("*", x: column(thing.x), y: row(thing.y), color: .yellow, bold: true)
            case .goldenStar: canvas.put("@", x: column(thing.x), y: row(thing.y), color: .gold, bold: true)
            case .bomb: canvas.put("O", x: column(thing.x), y: row(thing.y), color: .red, bold: true)
            }
        }
        let paddle = game.paddle
        let from = column(paddle.left)
        let to = max(from, column(paddle.right))
        canvas.put(
            String(repeating: "=", count: to - from + 1), x: from, y: row(rules.paddleY), color: .cyan,
            bold: true)
        canvas.put(String(repeating: "-", count: canvas.width - 1), x: 0, y: canvas.height - 1, color: .blue)
        let middle = canvas.height / 2
        if game.scene == .gameOver {
            canvas.putCentered("  GAME OVER  ", y: middle - 1, color: .red, bold: true)
            canvas.putCentered("  score \(game.score)  ", y: middle + 1, color: .white)
        } else if game.isPaused {
            canvas.putCentered("  PAUSED  ", y: middle - 1, color: .white, bold: true)
            canvas.putCentered("  p resume  q menu  ", y: middle + 1, color: .grey)
        }
    }
}
