import SoundStation

/// The game's music: each case names its catalogue entry, and through it its file, so scene
/// code names a sound by a case and a typo does not compile.
public enum Music: String, SoundResource, CaseIterable {
    /// The menu's track.
    case main
    /// The game's track: an intro, then a looping body.
    case game
}

/// The game's effects, by catalogue name.
public enum Effect: String, SoundResource, CaseIterable {
    /// A star caught.
    case reward
    /// An upgrade bought in the shop.
    case upgrade
    /// A bomb dodged.
    case jump
    /// A golden star caught (on top of ``reward``).
    case coin
    /// The paddle struck by a bomb, or the shop refusing a purchase.
    case hit
    /// A bomb going off.
    case explosion
    /// The menu cursor.
    case click
    /// The level rising.
    case levelUp = "level-up"
    /// A star falling past the paddle.
    case miss
    /// A bomb appearing.
    case bombTick = "bomb-tick"
}
