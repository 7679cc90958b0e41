//! Analysing a position: every legal move with what it captures and whether it gives check or
//! mates, the status, the frozen pieces ([`Analysis`]). The texts are [`ShortText`]s, kept inline:
//! an analysis writes three per legal move, and the HTTP answer writes them without an escape.

use crate::position::CheckedPosition;
use crate::rules::{
    Color, GameKind, GamePosition, Letters, Naming, Piece, Rules, SquarePiece, Status, Variant,
    Visit,
};
use crate::solver::Cancel;
use serde::Serialize;

/// A short text kept inline (a move's notation or `uci`, a piece letter): serialized as a JSON
/// string without an allocation of its own, since `/v1/analyze` writes three per legal move. It
/// holds only printable ASCII other than `"` and `\\`, so it never needs a JSON escape.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct ShortText {
    bytes: [u8; 15],
    len: u8,
}

impl ShortText {
    /// Appends a character; one that is not printable ASCII, a `"` or `\\`, or a 16th character,
    /// is dropped (the texts written here are at most 7 letters and digits).
    pub fn push(&mut self, c: char) {
        let len = usize::from(self.len);
        if c.is_ascii_graphic() && c != '"' && c != '\\' && len < self.bytes.len() {
            self.bytes[len] = c as u8;
            self.len += 1;
        }
    }

    pub fn push_str(&mut self, s: &str) {
        s.chars().for_each(|c| self.push(c));
    }

    /// The text's bytes: printable ASCII, none needing a JSON escape.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }

    pub fn as_str(&self) -> &str {
        std::str::from_utf8(self.as_bytes()).unwrap_or_default()
    }
}

impl std::fmt::Write for ShortText {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.push_str(s);
        Ok(())
    }
    fn write_char(&mut self, c: char) -> std::fmt::Result {
        self.push(c);
        Ok(())
    }
}

impl From<&str> for ShortText {
    fn from(s: &str) -> ShortText {
        let mut t = ShortText::default();
        t.push_str(s);
        t
    }
}

impl std::fmt::Debug for ShortText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.as_str(), f)
    }
}

impl std::fmt::Display for ShortText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for ShortText {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// A legal move with what it does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalyzedMove {
    /// Canonical notation.
    pub notation: ShortText,
    /// The machine form, unique among the position's moves.
    pub uci: ShortText,
    /// The moving piece's letter, in the naming's letter set.
    pub piece: ShortText,
    /// Every piece the move captures, lowest square first.
    pub captures: Vec<SquarePiece>,
    pub gives_check: bool,
    pub checkmate: bool,
    /// Rococo's kind of move (`swap`, `mutual_destruction`, ...).
    pub kind: Option<&'static str>,
    /// A promotion's new piece.
    pub promotion: Option<ShortText>,
}

/// The analysis of a position, in the naming it was read in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    pub game: GameKind,
    pub fen: String,
    /// For a game with two letter sets: the FEN in Baroque's letters.
    pub fen_baroque: Option<String>,
    pub side_to_move: Color,
    pub status: Status,
    pub in_check: bool,
    /// For a game won by taking the King: whether the side to move can keep it.
    pub can_keep_king: Option<bool>,
    pub rules: Option<Rules>,
    pub frozen: Vec<SquarePiece>,
    pub moves: Vec<AnalyzedMove>,
}

/// The analysis of a position read from a request; stopped early (with the moves so far) once
/// `cancel` is raised.
pub fn analyze(checked: &CheckedPosition, cancel: &Cancel) -> Analysis {
    struct Run<'a> {
        naming: Naming,
        cancel: &'a Cancel,
    }
    impl Visit for Run<'_> {
        type Output = Analysis;
        fn visit<P: GamePosition>(self, pos: &P) -> Analysis {
            analysis(pos, self.naming, self.cancel)
        }
    }
    checked.position.visit(Run {
        naming: checked.naming,
        cancel,
    })
}

/// The analysis of a position: every legal move with what it captures and whether it gives check
/// or mates, the status, the frozen pieces. Stopped early (with the moves so far) once `cancel`
/// is raised: the client has gone and will not read the answer.
pub fn analysis<P: GamePosition>(pos: &P, naming: Naming, cancel: &Cancel) -> Analysis {
    let mut legal = Vec::new();
    pos.legal_moves_into(&mut legal);
    let turn = pos.turn();
    let letter = |role| {
        let mut t = ShortText::default();
        t.push(pos.piece_letter(Piece::new(turn, role), naming));
        t
    };
    let moves: Vec<AnalyzedMove> = legal
        .iter()
        .take_while(|_| !cancel.is_cancelled())
        .map(|mv| {
            let after = pos.play(mv);
            let gives_check = after.in_check();
            let (mut notation, mut uci) = (ShortText::default(), ShortText::default());
            pos.write_names(mv, naming, &mut notation, &mut uci);
            AnalyzedMove {
                notation,
                uci,
                piece: letter(P::role(mv)),
                captures: pos.square_pieces(P::captures(mv), naming),
                gives_check,
                checkmate: pos.mates(mv, &after),
                kind: P::kind_name(mv),
                promotion: P::promotion(mv).map(letter),
            }
        })
        .collect();
    let status = pos.status_with(&legal);
    let kind = pos.variant().kind();
    Analysis {
        game: kind,
        fen: pos.fen(naming),
        fen_baroque: Variant::has_letter_sets(kind).then(|| {
            pos.fen(Naming {
                letters: Letters::Baroque,
                ..naming
            })
        }),
        side_to_move: turn,
        status,
        in_check: pos.in_check(),
        can_keep_king: Variant::wins_by_king_capture(kind)
            .then_some(!matches!(status, Status::Checkmate | Status::Stalemate)),
        rules: pos.variant().rules(),
        frozen: pos.square_pieces(pos.frozen(), naming),
        moves,
    }
}

#[cfg(test)]
mod tests {
    use super::ShortText;

    #[test]
    fn short_text_keeps_only_what_needs_no_json_escape() {
        let t = ShortText::from("Pc2xc4 \"\\\né0123456789abcdef");
        assert_eq!(t.as_str(), "Pc2xc4012345678"); // 15 characters at most
        assert_eq!(serde_json::to_string(&t).unwrap(), "\"Pc2xc4012345678\"");
    }
}
