import StarfallCore

/// The words both front ends show, so the window and the terminal say the same things.
enum Texts {
    /// The game's name, as the title shows it.
    static let title = "STARFALL"
    /// The line under the title.
    static let tagline = "catch the falling stars"

    /// A main-menu line.
    static func label(_ item: MenuItem) -> String {
        switch item {
        case .start: "START"
        case .upgrades: "UPGRADES"
        case .voiceNotes: "VOICE NOTES"
        case .quit: "QUIT"
        }
    }

    /// A shop line: the upgrade, its level and its price.
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

    /// The lines of the menu page showing now.
    static func lines(of game: Game) -> [String] {
        game.shopIsOpen ? ShopItem.all.map { label($0, in: game) } : game.menuItems.map(label)
    }

    /// The highlighted line of the page showing now.
    static func cursor(of game: Game) -> Int {
        game.shopIsOpen ? game.shopCursor : game.menuCursor
    }

    /// Stardust (and, on the main page, the best score).
    static func heading(of game: Game) -> String {
        game.shopIsOpen
            ? "UPGRADES  STARDUST \(game.stardust)" : "STARDUST \(game.stardust)  BEST \(game.bestScore)"
    }

    /// The status line of a game.
    static func status(of game: Game) -> String {
        "SCORE \(game.score)  LEVEL \(game.level)  LIVES \(game.lives)"
    }

    /// The loading screen's count.
    static func loading(_ completed: Int, of total: Int) -> String {
        "LOADING SOUNDS \(completed)/\(total)"
    }
}
