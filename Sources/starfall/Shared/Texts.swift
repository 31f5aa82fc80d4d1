import StarfallCore

/// The words both front ends show, so the window and the terminal say the same things.
enum Texts {
    static let title = "STARFALL"
    static let tagline = "catch the falling stars"

    static func label(_ item: MenuItem) -> String {
        switch item {
        case .start: "START"
        case .upgrades: "UPGRADES"
        case .voiceNotes: "VOICE NOTES"
        case .quit: "QUIT"
        }
    }

    static func label(_ item: ShopItem, in game: Game) -> String {
        switch item {
        case .back: return "BACK"
        case .upgrade(let upgrade):
            let owned = game.level(of: upgrade)
            let name = upgrade.rawValue.uppercased()
            guard owned < Upgrade.maximumLevel else { return "\(name) \(owned)/\(Upgrade.maximumLevel) MAX" }
            return "\(name) \(owned)/\(Upgrade.maximumLevel) COST \(upgrade.cost(afterLevel: owned))"
        }
    }

    static func lines(of game: Game) -> [String] {
        game.shopIsOpen ? ShopItem.all.map { label($0, in: game) } : game.menuItems.map(label)
    }

    static func cursor(of game: Game) -> Int {
        game.shopIsOpen ? game.shopCursor : game.menuCursor
    }

    static func heading(of game: Game) -> String {
        game.shopIsOpen
            ? "UPGRADES  STARDUST \(game.stardust)" : "STARDUST \(game.stardust)  BEST \(game.bestScore)"
    }

    static func status(of game: Game) -> String {
        "SCORE \(game.score)  LEVEL \(game.level)  LIVES \(game.lives)"
    }

    static func loading(_ completed: Int, of total: Int) -> String {
        "LOADING SOUNDS \(completed)/\(total)"
    }
}
