/// A line of the shop page.
public enum ShopItem: Sendable, Equatable {
    /// An upgrade for sale.
    case upgrade(Upgrade)
    /// Back to the main menu.
    case back

    /// Every line, in order.
    public static let all: [ShopItem] = Upgrade.allCases.map(ShopItem.upgrade) + [.back]
}

/// An entry of the main menu.
public enum MenuItem: String, Sendable, Equatable, CaseIterable {
    /// A new game.
    case start
    /// The upgrades shop.
    case upgrades
    /// The voice-notes screen (offered only when a front end provides one).
    case voiceNotes = "voice notes"
    /// Leave the program.
    case quit
}

extension Game {
    /// The menu scene: the main page or the shop.
    mutating func stepMenu(_ input: Input, events: inout [GameEvent]) {
        if shopIsOpen {
            stepShop(input, events: &events)
            return
        }
        if let moved = moveCursor(menuCursor, count: menuItems.count, input) {
            menuCursor = moved
            events.append(.cursorMoved(index: moved))
        }
        if input.back {
            events.append(.quitRequested)
        } else if input.select {
            switch menuItems[menuCursor] {
            case .start: startGame(events: &events)
            case .upgrades:
                shopIsOpen = true
                shopCursor = 0
                events.append(.shopOpened)
            case .voiceNotes: events.append(.voiceNotesRequested)
            case .quit: events.append(.quitRequested)
            }
        }
    }

    /// Back on the main menu with the cursor on "start", whatever happened before.
    mutating func enterMenu(events: inout [GameEvent]) {
        shopIsOpen = false
        menuCursor = 0
        things = []
        enter(.menu, events: &events)
    }

    private mutating func stepShop(_ input: Input, events: inout [GameEvent]) {
        if let moved = moveCursor(shopCursor, count: ShopItem.all.count, input) {
            shopCursor = moved
            events.append(.cursorMoved(index: moved))
        }
        if input.back {
            closeShop(events: &events)
            return
        }
        guard input.select else { return }
        switch ShopItem.all[shopCursor] {
        case .back: closeShop(events: &events)
        case .upgrade(let upgrade): buy(upgrade, events: &events)
        }
    }

    private mutating func closeShop(events: inout [GameEvent]) {
        shopIsOpen = false
        events.append(.shopClosed)
    }

    private mutating func buy(_ upgrade: Upgrade, events: inout [GameEvent]) {
        let owned = level(of: upgrade)
        let cost = upgrade.cost(afterLevel: owned)
        guard owned < Upgrade.maximumLevel, stardust >= cost else {
            events.append(.upgradeRefused(upgrade))
            return
        }
        stardust -= cost
        upgradeLevels[upgrade] = owned + 1
        events.append(.upgradeBought(upgrade, level: owned + 1))
    }

    /// The cursor after an up or down press, wrapping around; nil when it did not move.
    private func moveCursor(_ cursor: Int, count: Int, _ input: Input) -> Int? {
        let delta = (input.down ? 1 : 0) - (input.up ? 1 : 0)
        guard delta != 0, count > 1 else { return nil }
        return (cursor + delta + count) % count
    }
}
