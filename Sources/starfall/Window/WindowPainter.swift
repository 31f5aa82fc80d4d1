import SoundStation
import StarfallCore

/// Draws the game with filled rectangles: a status bar on top, the playfield below at two pixels per
/// field unit, and text in the block font.
struct WindowPainter {
    /// Logical window size: the 320 by 240 field doubled, plus the status bar.
    static let width: Int32 = 640
    static let height: Int32 = 520
    private static let barHeight = 40
    private static let scale = 2.0

    private static let night = SDLCanvas.Color(red: 8, green: 10, blue: 28)
    private static let field = SDLCanvas.Color(red: 14, green: 18, blue: 46)
    private static let bar = SDLCanvas.Color(red: 24, green: 28, blue: 64)
    private static let starColor = SDLCanvas.Color(red: 255, green: 222, blue: 70)
    private static let goldColor = SDLCanvas.Color(red: 255, green: 160, blue: 30)
    private static let bombColor = SDLCanvas.Color(red: 210, green: 40, blue: 50)
    private static let paddleColor = SDLCanvas.Color(red: 60, green: 210, blue: 235)
    private static let white = SDLCanvas.Color(red: 240, green: 240, blue: 250)
    private static let grey = SDLCanvas.Color(red: 120, green: 125, blue: 160)
    private static let shade = SDLCanvas.Color(red: 0, green: 0, blue: 0, alpha: 150)

    /// Where it draws.
    let canvas: SDLCanvas

    /// The loading screen: title, count, bar and the sound just loaded.
    func drawLoading(_ progress: LoadingState) {
        canvas.clear(Self.night)
        text(Texts.title, centredAt: 150, scale: 10, Self.starColor)
        text(Texts.loading(progress.completed, of: progress.total), centredAt: 280, scale: 3, Self.white)
        let barWidth = 400
        let left = (Int(Self.width) - barWidth) / 2
        canvas.fill(x: left, y: 320, width: barWidth, height: 20, Self.bar)
        canvas.fill(
            x: left, y: 320, width: Int(progress.fraction * Double(barWidth)), height: 20, Self.paddleColor)
        text(progress.latest ?? "", centredAt: 360, scale: 2, Self.grey)
    }

    /// The menu, the game or game over, whichever is showing, with the music's beat flashed on it.
    func draw(_ game: Game, pulse: BeatPulse, notice: String?) {
        canvas.clear(Self.night)
        drawSky(game.tick)
        switch game.scene {
        case .menu:
            drawMenu(game, notice: notice)
            beatStrip(y: 108, pulse: pulse)
        case .game, .gameOver:
            drawPlay(game)
            beatStrip(y: Self.barHeight - 4, pulse: pulse)
        }
    }

    /// A strip across the window that lights up on each beat and fades: the paddle's colour, white on
    /// a bar's first beat.
    private func beatStrip(y: Int, pulse: BeatPulse) {
        guard pulse.level > 0 else { return }
        let color = pulse.isDownbeat ? Self.white : Self.paddleColor
        canvas.fill(
            x: 0, y: y, width: Int(Self.width), height: 4, color.withAlpha(UInt8(pulse.level * 255)))
    }

    private func drawSky(_ tick: Int) {
        for point in Sky.points(count: 110, width: Int(Self.width), height: Int(Self.height), tick: tick) {
            let level: UInt8 = point.bright ? 210 : 80
            let size = point.bright ? 2 : 1
            canvas.fill(
                x: point.x, y: point.y, width: size, height: size,
                .init(red: level, green: level, blue: level))
        }
    }

    private func drawMenu(_ game: Game, notice: String?) {
        text(Texts.title, centredAt: 50, scale: 10, Self.starColor)
        text(Texts.tagline, centredAt: 120, scale: 3, Self.grey)
        text(Texts.heading(of: game), centredAt: 160, scale: 3, Self.paddleColor)
        let lines = Texts.lines(of: game)
        let cursor = Texts.cursor(of: game)
        let lineScale = game.shopIsOpen ? 3 : 5
        for (index, line) in lines.enumerated() {
            let y = 210 + index * (lineScale * 5 + 16)
            let chosen = index == cursor
            let left = (Int(Self.width) - BlockFont.width(of: line) * lineScale) / 2
            if chosen { text(">", x: left - 6 * lineScale, y: y, scale: lineScale, Self.starColor) }
            text(line, x: left, y: y, scale: lineScale, chosen ? Self.white : Self.grey)
        }
        if let notice { text(notice, centredAt: 470, scale: 2, Self.goldColor) }
        let hints =
            game.shopIsOpen ? "ARROWS CHOOSE  ENTER BUY  ESC BACK" : "ARROWS CHOOSE  ENTER SELECT  ESC QUIT"
        text(hints, centredAt: 495, scale: 2, Self.grey)
    }

    private func drawPlay(_ game: Game) {
        let top = Self.barHeight
        canvas.fill(
            x: 0, y: top, width: Int(Self.width), height: Int(Self.height) - top, Self.field.withAlpha(200))
        canvas.fill(x: 0, y: 0, width: Int(Self.width), height: top, Self.bar)
        text("SCORE \(game.score)", x: 12, y: 10, scale: 4, Self.white)
        text("LEVEL \(game.level)", x: 260, y: 10, scale: 4, Self.starColor)
        for life in 0..<game.lives {
            heart(x: Int(Self.width) - 36 - life * 30, y: 10)
        }
        for thing in game.things {
            let x = Int(thing.x * Self.scale)
            let y = top + Int(thing.y * Self.scale)
            switch thing.kind {
            case .star: sparkle(x: x, y: y, core: 5, ray: 10, Self.starColor)
            case .goldenStar:
                sparkle(x: x, y: y, core: 7, ray: 14, Self.goldColor)
                sparkle(x: x, y: y, core: 2, ray: 4, Self.white)
            case .bomb: bomb(x: x, y: y, tick: game.tick)
            }
        }
        let paddle = game.paddle
        let paddleY = top + Int(game.rules.paddleY * Self.scale)
        let left = Int(paddle.left * Self.scale)
        let width = Int(paddle.width * Self.scale)
        canvas.fill(x: left, y: paddleY, width: width, height: 10, Self.paddleColor)
        canvas.fill(x: left + 2, y: paddleY + 2, width: width - 4, height: 2, Self.white)
        if game.scene == .gameOver {
            overlay("GAME OVER", "SCORE \(game.score)")
        } else if game.isPaused {
            overlay("PAUSED", "P RESUME  ESC MENU")
        }
    }

    private func overlay(_ title: String, _ detail: String) {
        canvas.fill(x: 0, y: 0, width: Int(Self.width), height: Int(Self.height), Self.shade)
        text(title, centredAt: 200, scale: 8, Self.white)
        text(detail, centredAt: 270, scale: 3, Self.starColor)
    }

    /// A star: a filled diamond with thin rays out to `ray` pixels.
    private func sparkle(x: Int, y: Int, core: Int, ray: Int, _ color: SDLCanvas.Color) {
        for dy in -core...core {
            let half = core - abs(dy)
            canvas.fill(x: x - half, y: y + dy, width: half * 2 + 1, height: 1, color)
        }
        canvas.fill(x: x - ray, y: y, width: ray * 2 + 1, height: 1, color)
        canvas.fill(x: x, y: y - ray, width: 1, height: ray * 2 + 1, color)
    }

    private func bomb(x: Int, y: Int, tick: Int) {
        canvas.fill(x: x - 9, y: y - 9, width: 19, height: 19, Self.bombColor)
        canvas.fill(x: x - 6, y: y - 6, width: 5, height: 5, Self.white.withAlpha(120))
        canvas.fill(x: x - 1, y: y - 14, width: 3, height: 5, Self.grey)
        // The fuse's spark flickers.
        if tick / 6 % 2 == 0 { canvas.fill(x: x - 2, y: y - 18, width: 5, height: 5, Self.starColor) }
    }

    private func heart(x: Int, y: Int) {
        canvas.fill(x: x, y: y + 3, width: 22, height: 8, Self.bombColor)
        canvas.fill(x: x + 3, y: y, width: 6, height: 4, Self.bombColor)
        canvas.fill(x: x + 13, y: y, width: 6, height: 4, Self.bombColor)
        canvas.fill(x: x + 3, y: y + 11, width: 16, height: 4, Self.bombColor)
        canvas.fill(x: x + 7, y: y + 15, width: 8, height: 4, Self.bombColor)
    }

    private func text(_ string: String, centredAt y: Int, scale: Int, _ color: SDLCanvas.Color) {
        let x = (Int(Self.width) - BlockFont.width(of: string) * scale) / 2
        text(string, x: x, y: y, scale: scale, color)
    }

    private func text(_ string: String, x: Int, y: Int, scale: Int, _ color: SDLCanvas.Color) {
        for cell in BlockFont.cells(string) {
            canvas.fill(x: x + cell.x * scale, y: y + cell.y * scale, width: scale, height: scale, color)
        }
    }
}

extension SDLCanvas.Color {
    fileprivate func withAlpha(_ alpha: UInt8) -> SDLCanvas.Color {
        SDLCanvas.Color(red: red, green: green, blue: blue, alpha: alpha)
    }
}
