//! Colours, piece kinds and their letters.
//!
//! Baroque accepts two letter sets that never collide (RULES.md):
//!
//! | piece | chess-style | Baroque-style |
//! |---|---|---|
//! | King | K | K |
//! | Pawn (Pincer) | P | P |
//! | Withdrawer | Q | W |
//! | Long Leaper | N | L |
//! | Coordinator | R | C |
//! | Immobilizer | M | I |
//! | Chameleon | B | X |
//!
//! Rococo has one set: K King, P Cannon Pawn, I Immobilizer, W Withdrawer, A Advancer, L Long Leaper,
//! X Chameleon, S Swapper, U Pushme-Pullyu.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    /// White, written in upper case (index 0).
    White = 0,
    /// Black, written in lower case (index 1).
    Black = 1,
}

impl Color {
    /// The other side.
    #[inline(always)]
    pub fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
    /// 0 for White, 1 for Black: the index into per-colour tables.
    #[inline(always)]
    pub fn index(self) -> usize {
        self as usize
    }
    /// `white` or `black`.
    pub fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A kind of piece, of either game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// Steps to any neighbouring square, capturing by replacement; losing it loses the game.
    King = 0,
    /// The Baroque Pawn, or Pincer: captures by custodian capture.
    Pawn = 1,
    /// Moves like a queen; captures the enemy piece next to it by moving directly away from it.
    Withdrawer = 2,
    /// Moves like a queen; captures by leaping over enemy pieces on its line (in Baroque, how far
    /// is the [`Leaper`](crate::Leaper) option).
    LongLeaper = 3,
    /// Baroque only: moves like a queen; captures the enemy pieces where its rank and file cross
    /// its own King's file and rank.
    Coordinator = 4,
    /// Moves like a queen and captures nothing; freezes the enemy pieces next to it.
    Immobilizer = 5,
    /// Moves like a queen; captures each enemy piece the way that piece captures.
    Chameleon = 6,
    /// Rococo's approach capturer.
    Advancer = 7,
    /// Rococo's Swapper.
    Swapper = 8,
    /// Rococo's Cannon Pawn.
    CannonPawn = 9,
    /// Rococo's optional Pushme-Pullyu.
    PushmePullyu = 10,
}

/// The letter set used to write pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Letters {
    /// K P Q N R M B, as on the vchess page (the default for output).
    #[default]
    Chess,
    /// K P W L C I X, as in the Wikipedia article.
    Baroque,
}

impl Role {
    /// Number of roles (the size of per-role tables).
    pub const COUNT: usize = 11;
    /// The roles of Baroque chess.
    pub const BAROQUE: [Role; 7] = [
        Role::King,
        Role::Pawn,
        Role::Withdrawer,
        Role::LongLeaper,
        Role::Coordinator,
        Role::Immobilizer,
        Role::Chameleon,
    ];
    /// The roles Rococo has and Baroque chess has not.
    const ROCOCO_ONLY: [Role; 4] = [
        Role::Advancer,
        Role::Swapper,
        Role::CannonPawn,
        Role::PushmePullyu,
    ];
    /// Every role: Baroque chess's, then those of Rococo alone.
    pub const ALL: [Role; 11] = {
        let mut all = [Role::King; 11];
        let mut i = 0;
        while i < all.len() {
            all[i] = match i < Role::BAROQUE.len() {
                true => Role::BAROQUE[i],
                false => Role::ROCOCO_ONLY[i - Role::BAROQUE.len()],
            };
            i += 1;
        }
        all
    };

    /// The role's number: the index into per-role tables (below [`Role::COUNT`]).
    #[inline(always)]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The upper-case letter of a Baroque piece in the given set; Rococo pieces use their own letter.
    pub fn letter(self, letters: Letters) -> char {
        match (self, letters) {
            (Role::King, _) => 'K',
            (Role::Pawn, _) => 'P',
            (Role::Withdrawer, Letters::Chess) => 'Q',
            (Role::LongLeaper, Letters::Chess) => 'N',
            (Role::Coordinator, Letters::Chess) => 'R',
            (Role::Immobilizer, Letters::Chess) => 'M',
            (Role::Chameleon, Letters::Chess) => 'B',
            (r, _) => r.rococo_letter(),
        }
    }

    /// The figurine problem magazines print for the piece, where Unicode has one: the White
    /// chess piece whose letter the chess-style set gives it (King, Pawn and Cannon Pawn `♔` `♙`,
    /// Withdrawer `♕`, Long Leaper `♘`, Coordinator `♖`, Chameleon `♗`). The Immobilizer,
    /// Advancer, Swapper and Pushme-Pullyu have none.
    pub fn figurine(self) -> Option<char> {
        match self {
            Role::King => Some('\u{2654}'),
            Role::Withdrawer => Some('\u{2655}'),
            Role::Coordinator => Some('\u{2656}'),
            Role::Chameleon => Some('\u{2657}'),
            Role::LongLeaper => Some('\u{2658}'),
            Role::Pawn | Role::CannonPawn => Some('\u{2659}'),
            Role::Immobilizer | Role::Advancer | Role::Swapper | Role::PushmePullyu => None,
        }
    }

    /// The upper-case letter in Rococo's set (Baroque-only pieces get their Baroque-style letter).
    pub fn rococo_letter(self) -> char {
        match self {
            Role::King => 'K',
            Role::Pawn | Role::CannonPawn => 'P',
            Role::Withdrawer => 'W',
            Role::LongLeaper => 'L',
            Role::Coordinator => 'C',
            Role::Immobilizer => 'I',
            Role::Chameleon => 'X',
            Role::Advancer => 'A',
            Role::Swapper => 'S',
            Role::PushmePullyu => 'U',
        }
    }

    /// Reads a Baroque piece letter of either set (case-insensitive).
    pub fn from_baroque_letter(c: char) -> Option<Role> {
        Some(match c.to_ascii_uppercase() {
            'K' => Role::King,
            'P' => Role::Pawn,
            'Q' | 'W' => Role::Withdrawer,
            'N' | 'L' => Role::LongLeaper,
            'R' | 'C' => Role::Coordinator,
            'M' | 'I' => Role::Immobilizer,
            'B' | 'X' => Role::Chameleon,
            _ => return None,
        })
    }

    /// Reads a Rococo piece letter (case-insensitive).
    pub fn from_rococo_letter(c: char) -> Option<Role> {
        Some(match c.to_ascii_uppercase() {
            'K' => Role::King,
            'P' => Role::CannonPawn,
            'I' => Role::Immobilizer,
            'W' => Role::Withdrawer,
            'A' => Role::Advancer,
            'L' => Role::LongLeaper,
            'X' => Role::Chameleon,
            'S' => Role::Swapper,
            'U' => Role::PushmePullyu,
            _ => return None,
        })
    }

    /// The English name.
    pub fn name(self) -> &'static str {
        match self {
            Role::King => "King",
            Role::Pawn => "Pawn",
            Role::Withdrawer => "Withdrawer",
            Role::LongLeaper => "Long Leaper",
            Role::Coordinator => "Coordinator",
            Role::Immobilizer => "Immobilizer",
            Role::Chameleon => "Chameleon",
            Role::Advancer => "Advancer",
            Role::Swapper => "Swapper",
            Role::CannonPawn => "Cannon Pawn",
            Role::PushmePullyu => "Pushme-Pullyu",
        }
    }

    /// How many of this kind one side has in the Baroque start position.
    pub fn baroque_start_count(self) -> u32 {
        match self {
            Role::King | Role::Withdrawer | Role::Coordinator | Role::Immobilizer => 1,
            Role::LongLeaper | Role::Chameleon => 2,
            Role::Pawn => 8,
            _ => 0,
        }
    }
}

/// A piece: a role of a colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// The side the piece belongs to.
    pub color: Color,
    /// What kind of piece it is.
    pub role: Role,
}

impl Piece {
    /// The piece of `role` belonging to `color`.
    pub fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// The letter in the given set, upper case for White.
    pub fn letter(self, letters: Letters) -> char {
        let c = self.role.letter(letters);
        match self.color {
            Color::White => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// The Rococo letter, upper case for White.
    pub fn rococo_letter(self) -> char {
        let c = self.role.rococo_letter();
        match self.color {
            Color::White => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// Reads a Baroque piece letter of either set; upper case is White.
    pub fn from_baroque_letter(c: char) -> Option<Piece> {
        let role = Role::from_baroque_letter(c)?;
        Some(Piece::new(color_of_letter(c), role))
    }

    /// Reads a Rococo piece letter; upper case is White.
    pub fn from_rococo_letter(c: char) -> Option<Piece> {
        let role = Role::from_rococo_letter(c)?;
        Some(Piece::new(color_of_letter(c), role))
    }

    /// "white Withdrawer".
    pub fn describe(self) -> String {
        format!("{} {}", self.color, self.role.name())
    }
}

fn color_of_letter(c: char) -> Color {
    if c.is_ascii_uppercase() {
        Color::White
    } else {
        Color::Black
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letter_sets_round_trip_and_never_collide() {
        for role in Role::BAROQUE {
            for set in [Letters::Chess, Letters::Baroque] {
                let c = role.letter(set);
                assert_eq!(Role::from_baroque_letter(c), Some(role));
            }
        }
        let chess: Vec<char> = Role::BAROQUE
            .iter()
            .map(|r| r.letter(Letters::Chess))
            .collect();
        for r in [
            Role::Withdrawer,
            Role::LongLeaper,
            Role::Coordinator,
            Role::Immobilizer,
            Role::Chameleon,
        ] {
            assert!(!chess.contains(&r.letter(Letters::Baroque)));
        }
        assert_eq!(
            Piece::from_baroque_letter('q'),
            Some(Piece::new(Color::Black, Role::Withdrawer))
        );
        assert_eq!(Piece::from_baroque_letter('z'), None);
    }
}
