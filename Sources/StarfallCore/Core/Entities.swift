/// Something falling down the playfield.
public struct FallingThing: Sendable, Equatable, Identifiable {
    /// What it is, and so what catching it does.
    public enum Kind: Sendable, Equatable {
        /// Worth ``Rules/starPoints``.
        case star
        /// Rarer and worth ``Rules/goldenStarPoints``.
        case goldenStar
        /// Costs a life when caught.
        case bomb
    }

    /// Unique within one game, in spawn order.
    public let id: Int
    /// Star, golden star or bomb.
    public let kind: Kind
    /// Horizontal centre in field units (0 at the left edge).
    public var x: Double
    /// Vertical centre in field units (0 at the top, growing downwards).
    public var y: Double
    /// Field units per tick, fixed when it spawns so a level-up does not jerk things already falling.
    public let speed: Double

    /// Creates a falling thing.
    /// - Parameters:
    ///   - id: Its number in the game.
    ///   - kind: What it is.
    ///   - x: Horizontal centre.
    ///   - y: Vertical centre.
    ///   - speed: Field units per tick.
    public init(id: Int, kind: Kind, x: Double, y: Double, speed: Double) {
        self.id = id
        self.kind = kind
        self.x = x
        self.y = y
        self.speed = speed
    }

    /// True for both kinds of star.
    public var isStar: Bool { kind != .bomb }
}

/// The player's paddle, which slides along the bottom of the field.
public struct Paddle: Sendable, Equatable {
    /// Horizontal centre in field units.
    public var x: Double
    /// Width in field units (wider with the shop's upgrade).
    public var width: Double
    /// Field units per tick at full tilt.
    public var speed: Double

    /// Creates a paddle.
    /// - Parameters:
    ///   - x: Horizontal centre.
    ///   - width: Width in field units.
    ///   - speed: Field units per tick.
    public init(x: Double, width: Double, speed: Double) {
        self.x = x
        self.width = width
        self.speed = speed
    }

    /// The left edge.
    public var left: Double { x - width / 2 }
    /// The right edge.
    public var right: Double { x + width / 2 }
}
