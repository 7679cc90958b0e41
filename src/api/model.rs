//! Request and response bodies, and the parsing that turns requests into domain values.
//!
//! Requests refuse unknown fields. A rule set is a preset name or an object of options; a FEN is read
//! and validated by [`CheckedPosition::parse`], so handlers only ever see positions that can arise.
//! Examples come from the seed diagrams (fixtures/diagrams/).

use super::problem::ApiError;
use crate::rules::rococo::Coords;
use crate::rules::{
    Color, GameKind, GamePosition, Leaper, MoveErrorKind, Naming, Preset, Rules, SquareSet,
    Stalemate, Status, Variant, VariantMove, VariantPosition,
};
use serde::de::{Error as _, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};
use std::marker::PhantomData;
use utoipa::ToSchema;

/// The largest ply count a request's FEN may carry, so that playing moves can never overflow it.
pub const MAX_PLIES: u32 = 1_000_000_000;

/// A request body that must be a JSON object: serde alone would also read a struct from an array
/// (`["7k/8/8/8/8/8/8/K7 w 0"]`). Duplicate keys, unknown fields and error positions are reported
/// as for the struct itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Object<T>(pub T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Object<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct ObjectVisitor<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for ObjectVisitor<T> {
            type Value = T;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
                T::deserialize(serde::de::value::MapAccessDeserializer::new(map))
            }
        }
        d.deserialize_map(ObjectVisitor(PhantomData)).map(Object)
    }
}

/// A rule preset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(example = "vchess")]
pub enum PresetName {
    /// Abbott's rules as in the Wikipedia article (the default).
    Abbott,
    /// The Cambridge variant.
    Cambridge,
    /// The rules of the vchess page.
    Vchess,
}

impl From<PresetName> for Preset {
    fn from(p: PresetName) -> Preset {
        match p {
            PresetName::Abbott => Preset::Abbott,
            PresetName::Cambridge => Preset::Cambridge,
            PresetName::Vchess => Preset::Vchess,
        }
    }
}

impl From<Preset> for PresetName {
    fn from(p: Preset) -> PresetName {
        match p {
            Preset::Abbott => PresetName::Abbott,
            Preset::Cambridge => PresetName::Cambridge,
            Preset::Vchess => PresetName::Vchess,
        }
    }
}

/// How far a Long Leaper (and a Chameleon imitating one) leaps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(example = "single")]
pub enum LeaperOption {
    /// Several captures in one line (the default).
    Long,
    /// Only the first enemy piece, landing right behind it.
    Single,
}

/// Whether a frozen piece may remove itself from the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(example = "on")]
pub enum SuicideOption {
    On,
    /// The default.
    Off,
}

/// What a side with no legal move gets when it is not in check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(example = "draw")]
pub enum StalemateOption {
    /// The default.
    Draw,
    /// The side that cannot move loses.
    Loss,
}

/// A preset with options; an absent member keeps its default (preset `abbott`, leaper `long`,
/// suicide `off`, stalemate `draw`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(examples(json!({"preset": "abbott", "suicide": "on"}), json!({"preset": "abbott", "leaper": "single"})))]
pub struct RuleOptions {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<PresetName>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leaper: Option<LeaperOption>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suicide: Option<SuicideOption>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stalemate: Option<StalemateOption>,
}

/// A rule set: a preset name (`abbott`, `cambridge`, `vchess`), or a preset with options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(untagged)]
#[schema(examples(json!("vchess"), json!({"preset": "abbott", "suicide": "on"})))]
pub enum RulesInput {
    Preset(PresetName),
    Options(RuleOptions),
}

impl<'de> Deserialize<'de> for RulesInput {
    /// A string must be a preset name and an object a [`RuleOptions`]; the error says which.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = serde_json::Value::deserialize(d)?;
        match v {
            serde_json::Value::String(s) => s
                .parse::<Preset>()
                .map(|p| RulesInput::Preset(p.into()))
                .map_err(D::Error::custom),
            serde_json::Value::Object(_) => serde_json::from_value(v)
                .map(RulesInput::Options)
                .map_err(|e| D::Error::custom(format!("in `rules`: {e}"))),
            _ => Err(D::Error::custom(
                "`rules` must be a preset name (abbott, cambridge, vchess) or an object with \
                 `preset`, `leaper`, `suicide` and `stalemate`",
            )),
        }
    }
}

impl From<RulesInput> for Rules {
    fn from(r: RulesInput) -> Rules {
        match r {
            RulesInput::Preset(p) => Rules::preset(p.into()),
            RulesInput::Options(o) => {
                let mut rules = Rules::preset(o.preset.unwrap_or(PresetName::Abbott).into());
                if let Some(l) = o.leaper {
                    rules.leaper = match l {
                        LeaperOption::Long => Leaper::Long,
                        LeaperOption::Single => Leaper::Single,
                    };
                }
                if let Some(s) = o.suicide {
                    rules.suicide = s == SuicideOption::On;
                }
                if let Some(s) = o.stalemate {
                    rules.stalemate = match s {
                        StalemateOption::Draw => Stalemate::Draw,
                        StalemateOption::Loss => Stalemate::Loss,
                    };
                }
                rules
            }
        }
    }
}

/// The rule set a response was computed under, every option spelled out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(json!({"preset": "vchess", "leaper": "long", "suicide": "off", "stalemate": "draw"})))]
pub struct ResolvedRules {
    pub preset: PresetName,
    pub leaper: LeaperOption,
    pub suicide: SuicideOption,
    pub stalemate: StalemateOption,
}

impl From<&Rules> for ResolvedRules {
    fn from(r: &Rules) -> ResolvedRules {
        ResolvedRules {
            preset: r.preset.into(),
            leaper: match r.leaper {
                Leaper::Long => LeaperOption::Long,
                Leaper::Single => LeaperOption::Single,
            },
            suicide: if r.suicide {
                SuicideOption::On
            } else {
                SuicideOption::Off
            },
            stalemate: match r.stalemate {
                Stalemate::Draw => StalemateOption::Draw,
                Stalemate::Loss => StalemateOption::Loss,
            },
        }
    }
}

/// The side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(example = "white")]
pub enum Side {
    White,
    Black,
}

impl From<Color> for Side {
    fn from(c: Color) -> Side {
        match c {
            Color::White => Side::White,
            Color::Black => Side::Black,
        }
    }
}

/// The state of the side to move.
///
/// Baroque: `ongoing` (not in check, with a legal move), `check` (in check, with a legal move),
/// `checkmate` (in check, with no legal move), `stalemate` (not in check, with no legal move: a
/// draw, or a loss under `stalemate: loss`).
///
/// Rococo, where the game is won by capturing the King and a move may leave one's own King
/// capturable: `ongoing` (its King cannot be captured now, and some move keeps it), `check` (its
/// King could be captured now, and some move saves it), `checkmate` (no move keeps its King: every
/// move leaves it capturable and none takes the enemy King; also after a move that took its King,
/// when the game is over), `stalemate` (no move at all: a draw).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(example = "checkmate")]
pub enum GameStatus {
    /// Baroque: not in check, with a legal move. Rococo: the King is not attacked and can be kept.
    Ongoing,
    /// Baroque: in check, with a legal move. Rococo: the King is attacked and some move saves it.
    Check,
    /// Baroque: in check, with no legal move. Rococo: the side to move cannot keep its King (or has
    /// just lost it).
    Checkmate,
    /// No legal move and not in check (Baroque: a draw, or a loss under `stalemate: loss`); Rococo:
    /// no move at all, a draw.
    Stalemate,
}

impl From<Status> for GameStatus {
    fn from(s: Status) -> GameStatus {
        match s {
            Status::Ongoing => GameStatus::Ongoing,
            Status::Check => GameStatus::Check,
            Status::Checkmate => GameStatus::Checkmate,
            Status::Stalemate => GameStatus::Stalemate,
        }
    }
}

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

/// A piece on a square, upper case for White. Baroque: one chess-style letter, K King,
/// P Pawn (Pincer), Q Withdrawer, N Long Leaper, R Coordinator, M Immobilizer, B Chameleon
/// (`"q"` is a black Withdrawer), squares a-h, 1-8. Rococo: K King, P Cannon Pawn, I Immobilizer,
/// W Withdrawer, A Advancer, L Long Leaper, X Chameleon, S Swapper, U Pushme-Pullyu, squares a-j,
/// 1-10 (or, with `coords: page`, the page's files x, a-h, y and ranks 0, 1-8, 00).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
#[schema(examples(json!({"square": "c5", "piece": "n"}), json!({"square": "b4", "piece": "L"})))]
pub struct SquarePiece {
    #[schema(example = "c5", pattern = "^[a-jxy](10|00|[0-9])$")]
    pub square: String,
    #[schema(example = "n", pattern = "^[KPQNRMBIWALXSUkpqnrmbiwalxsu]$")]
    pub piece: String,
}

impl From<crate::cases::SquarePiece> for SquarePiece {
    fn from(p: crate::cases::SquarePiece) -> SquarePiece {
        SquarePiece {
            square: p.square,
            piece: p.piece,
        }
    }
}

/// The pieces on a set of squares of a position, lowest square first, in `naming`.
pub fn square_pieces<P: GamePosition>(pos: &P, set: SquareSet, naming: Naming) -> Vec<SquarePiece> {
    pos.square_pieces(set, naming)
        .into_iter()
        .map(SquarePiece::from)
        .collect()
}

/// A remark on a position that does not stop it being analysed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(super::openapi::examples::warning))]
pub struct Warning {
    /// `no_king` or `too_many_pieces`.
    #[schema(example = "no_king")]
    pub code: String,
    pub message: String,
}

/// A position read from a request: its FEN was readable and the position can arise. The naming
/// of its squares is the request's, used for the answer too.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckedPosition {
    pub position: VariantPosition,
    /// How the request names squares and pieces.
    pub naming: Naming,
    pub warnings: Vec<Warning>,
}

impl CheckedPosition {
    /// Reads and validates a Baroque FEN under a rule set (see [`CheckedPosition::read`]).
    ///
    /// # Errors
    /// [`ApiError::InvalidFen`] with the field and position of a syntax error (or of a ply count
    /// above [`MAX_PLIES`]);
    /// [`ApiError::ImpossiblePosition`] listing every problem of a position that cannot arise.
    ///
    /// ```
    /// use baroque::api::model::CheckedPosition;
    /// use baroque::rules::Rules;
    ///
    /// // The vchess Pawn diagram.
    /// let ok = CheckedPosition::parse("7k/5ppp/2N5/2n5/3rB3/8/PPP5/K7 w 0", Rules::default());
    /// assert!(ok.unwrap().warnings.is_empty());
    ///
    /// let bad = CheckedPosition::parse("7k/5ppp/2N5/2n5/3rB3/8/PPP5/K8 w 0", Rules::default());
    /// let problem = bad.unwrap_err().problem();
    /// assert_eq!((problem.status, problem.field.as_deref(), problem.position), (422, Some("board"), Some(30)));
    ///
    /// let two_kings = CheckedPosition::parse("7k/5ppp/2N5/2n5/3rB3/8/PPP5/K6K w 0", Rules::default());
    /// let problem = two_kings.unwrap_err().problem();
    /// assert_eq!(problem.problem_type, "/problems/impossible-position");
    /// assert_eq!(problem.problems.unwrap()[0].code, "two_kings");
    /// ```
    pub fn parse(fen: &str, rules: Rules) -> Result<CheckedPosition, ApiError> {
        CheckedPosition::of(Variant::Baroque(rules), fen, Naming::default())
    }

    /// Reads and validates a FEN of `variant`, squares in `naming`.
    ///
    /// # Errors
    /// As [`CheckedPosition::parse`].
    ///
    /// ```
    /// use baroque::api::model::CheckedPosition;
    /// use baroque::rules::{Naming, Variant};
    ///
    /// let start = "10/1iwlkxlas1/1pppppppp1/10/10/10/10/1PPPPPPPP1/1IWLKXLAS1/10 w 0";
    /// assert!(CheckedPosition::of(Variant::Rococo, start, Naming::default()).unwrap().warnings.is_empty());
    ///
    /// let bad = CheckedPosition::of(Variant::Rococo, "10/1iwlkxlas1/1pppppppp1/10/10/10/10/1PPPPPPPP1/1IWLKXLAS1/11 w 0", Naming::default());
    /// let problem = bad.unwrap_err().problem();
    /// assert_eq!((problem.status, problem.field.as_deref(), problem.position), (422, Some("board"), Some(60)));
    /// ```
    pub fn of(variant: Variant, fen: &str, naming: Naming) -> Result<CheckedPosition, ApiError> {
        let position = variant.read_fen(fen, naming)?;
        check_plies(fen, position.plies())?;
        let warnings = warnings_of(position.validate())?;
        Ok(CheckedPosition {
            position,
            naming,
            warnings,
        })
    }

    /// Reads the position of a request from its `fen`, `game`, `coords` and `rules`.
    ///
    /// # Errors
    /// [`ApiError::NotApplicable`] for `coords: page` with a game without page names or `rules`
    /// with a game without rule sets, and the errors of [`CheckedPosition::parse`].
    pub fn read(
        fen: &str,
        game: Option<GameName>,
        coords: Option<CoordsName>,
        rules: Option<RulesInput>,
    ) -> Result<CheckedPosition, ApiError> {
        let kind = GameKind::from(game.unwrap_or_default());
        if coords == Some(CoordsName::Page) && !Variant::has_page_coords(kind) {
            return Err(ApiError::NotApplicable {
                field: "coords",
                detail: "`coords: page` names the squares of the Rococo page; it applies \
                         only with `game: rococo` (Baroque squares are a-h, 1-8)"
                    .into(),
            });
        }
        if rules.is_some() && !Variant::has_rule_sets(kind) {
            return Err(ApiError::NotApplicable {
                field: "rules",
                detail: "Rococo has one rule set: the Baroque presets and options of \
                         `rules` do not apply to it; leave `rules` out"
                    .into(),
            });
        }
        let variant = Variant::of(kind, rules.map(Rules::from)).map_err(|detail| {
            ApiError::NotApplicable {
                field: "rules",
                detail,
            }
        })?;
        let naming = Naming::coords(coords.unwrap_or_default().into());
        CheckedPosition::of(variant, fen, naming)
    }

    /// The game.
    pub fn game(&self) -> GameName {
        self.position.kind().into()
    }

    /// The rule set, for a game that has rule sets.
    pub fn rules(&self) -> Option<ResolvedRules> {
        self.position
            .variant()
            .rules()
            .map(|r| ResolvedRules::from(&r))
    }
}

/// Refuses a ply count above [`MAX_PLIES`] as a FEN error at the ply field.
fn check_plies(fen: &str, plies: u32) -> Result<(), ApiError> {
    if plies <= MAX_PLIES {
        return Ok(());
    }
    let at = crate::rules::fen::split_fields(fen)
        .get(2)
        .map_or(1, |&(offset, _)| offset + 1);
    Err(ApiError::InvalidFen(crate::rules::ParseFenError::new(
        crate::rules::FenField::Plies,
        at,
        format!("the ply count must be at most {MAX_PLIES}"),
    )))
}

/// The warnings among a position's problems, or every problem when one is an error.
fn warnings_of(problems: Vec<crate::rules::Problem>) -> Result<Vec<Warning>, ApiError> {
    if problems.iter().any(|p| p.error) {
        return Err(crate::rules::PositionError { problems }.into());
    }
    Ok(problems
        .into_iter()
        .map(|p| Warning {
            code: p.code.to_string(),
            message: p.message,
        })
        .collect())
}

/// How a request names Rococo's squares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(example = "page")]
pub enum CoordsName {
    /// Files a-j, ranks 1-10, the edge included (the default).
    #[default]
    Standard,
    /// The names of the chessvariants.com Rococo page: files x, a-h, y and ranks 0, 1-8, 00 (its
    /// a1 is our b2, its x00 our a10). Rococo only. They collide with the standard names on the
    /// inner board, so they are used only when asked for, in input and output alike.
    Page,
}

impl From<CoordsName> for Coords {
    fn from(c: CoordsName) -> Coords {
        match c {
            CoordsName::Standard => Coords::Standard,
            CoordsName::Page => Coords::Page,
        }
    }
}

impl From<GameName> for GameKind {
    fn from(g: GameName) -> GameKind {
        match g {
            GameName::Baroque => GameKind::Baroque,
            GameName::Rococo => GameKind::Rococo,
        }
    }
}

impl From<GameKind> for GameName {
    fn from(g: GameKind) -> GameName {
        match g {
            GameKind::Baroque => GameName::Baroque,
            GameKind::Rococo => GameName::Rococo,
        }
    }
}

/// What kind of Rococo move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(example = "swap")]
pub enum MoveKindName {
    /// A move to an empty square, or a King's or Cannon Pawn's capture by replacement.
    Normal,
    /// A Swapper (or a Chameleon imitating one) trades places with the piece on the to-square
    /// (notation `Sb2<>e5`).
    Swap,
    /// A Swapper (or a Chameleon next to an enemy Swapper) removes the adjacent enemy piece and
    /// itself (notation `Se5*f6`).
    MutualDestruction,
    /// A frozen piece removes itself (from-square = to-square).
    Suicide,
}

impl MoveKindName {
    /// The kind a game reports for a move (see `GamePosition::kind_name`).
    pub fn from_name(name: &str) -> Option<MoveKindName> {
        match name {
            "normal" => Some(MoveKindName::Normal),
            "swap" => Some(MoveKindName::Swap),
            "mutual_destruction" => Some(MoveKindName::MutualDestruction),
            "suicide" => Some(MoveKindName::Suicide),
            _ => None,
        }
    }
}

/// `POST /v1/analyze`: a position to analyse.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(examples(
    json!({"fen": "7k/5ppp/2N5/2n5/3rB3/8/PPP5/K7 w 0", "rules": "vchess"}),
    json!({"fen": "10/1iwlkxlas1/1pppppppp1/10/10/10/10/1PPPPPPPP1/1IWLKXLAS1/10 w 0", "game": "rococo"}),
    json!({"fen": "10/10/10/10/1A8/10/1L8/1x8/1W8/10 b 0", "game": "rococo", "coords": "page"})
))]
pub struct AnalyzeRequest {
    /// The position. Baroque: `<board> <w|b> [<plies>]`, pieces in either letter set. Rococo:
    /// `<ranks 10 down to 1> <w|b> [<plies> [<last swap, such as e5g7, or ->]]`.
    #[schema(example = "7k/5ppp/2N5/2n5/3rB3/8/PPP5/K7 w 0")]
    pub fen: String,
    /// The Baroque rule set (default `abbott`). Rococo has no presets or options: `rules` with
    /// `game: rococo` is refused (422 `not-applicable`).
    #[serde(default)]
    pub rules: Option<RulesInput>,
    /// The game: `baroque` (the default) or `rococo` (10x10; see `GameName`).
    #[serde(default)]
    pub game: Option<GameName>,
    /// How Rococo squares are named, in input and output: `standard` (a-j, 1-10; the default) or
    /// `page` (the Rococo page's x, a-h, y and 0, 1-8, 00). `page` with Baroque is refused (422
    /// `not-applicable`).
    #[serde(default)]
    pub coords: Option<CoordsName>,
}

/// An analyze request parsed: a position that can arise.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalyzeQuery {
    pub position: CheckedPosition,
}

impl TryFrom<AnalyzeRequest> for AnalyzeQuery {
    type Error = ApiError;
    fn try_from(r: AnalyzeRequest) -> Result<AnalyzeQuery, ApiError> {
        Ok(AnalyzeQuery {
            position: CheckedPosition::read(&r.fen, r.game, r.coords, r.rules)?,
        })
    }
}

/// A legal move with what it does.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(
    super::openapi::examples::legal_move,
    super::openapi::examples::legal_move_rococo
))]
pub struct LegalMove {
    /// Canonical notation: piece letter, from-square, `-` or `x` (when it captures), to-square.
    #[schema(value_type = String, example = "Pc2xc4")]
    pub notation: ShortText,
    /// The from and to squares (`d2d8`; a suicide is `c5c5`).
    #[schema(value_type = String, example = "c2c4")]
    pub uci: ShortText,
    /// The moving piece: one chess-style letter, upper case for White.
    #[schema(value_type = String, example = "P")]
    pub piece: ShortText,
    /// Every piece the move captures, lowest square first.
    pub captures: Vec<SquarePiece>,
    /// Whether the opponent is in check after the move (Rococo: its King could be captured next).
    pub gives_check: bool,
    /// Whether the opponent is checkmated after the move (Rococo: the move takes its King, or
    /// leaves it no move that keeps its King).
    pub checkmate: bool,
    /// Rococo only: what kind of move (`normal`, `swap`, `mutual_destruction`, `suicide`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<MoveKindName>,
    /// Rococo only, for a Cannon Pawn's promotion: the piece it becomes (upper case for White).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>, example = "L")]
    pub promotion: Option<ShortText>,
}

/// `POST /v1/analyze`: the position's state and every legal move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(
    super::openapi::examples::analyze_response,
    super::openapi::examples::analyze_response_rococo
))]
pub struct AnalyzeResponse {
    pub game: GameName,
    /// The canonical FEN: Baroque in chess-style letters (K P Q N R M B); Rococo in its letters,
    /// with the ply count and the last-swap field (squares in the request's `coords`).
    pub fen: String,
    /// Baroque only: the same FEN in Baroque-style letters (K P W L C I X).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fen_baroque: Option<String>,
    pub side_to_move: Side,
    /// See `GameStatus` for its meaning in each game.
    pub status: GameStatus,
    /// Rococo only: whether the side to move has a move that keeps its King (or takes the enemy
    /// King); false exactly when `status` is `checkmate`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub can_keep_king: Option<bool>,
    /// The rule set (null for Rococo, which has one).
    pub rules: Option<ResolvedRules>,
    /// The frozen (immobilized) pieces of both sides.
    pub frozen: Vec<SquarePiece>,
    /// Remarks that do not stop the analysis (`no_king`, `too_many_pieces`).
    pub warnings: Vec<Warning>,
    /// Every legal move of the side to move (Rococo: every move, including those that leave the
    /// King capturable, which lose).
    pub moves: Vec<LegalMove>,
}

/// `POST /v1/verify`: moves to play from a position.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(examples(
    json!({"fen": "7k/5ppp/2N5/2n5/3rB3/8/PPP5/K7 w 0", "moves": ["Pc2c4"], "rules": "vchess"}),
    json!({"fen": "10/10/10/10/1A8/10/1L8/1x8/1W8/10 b 0", "moves": ["Xb3-b5"], "game": "rococo"}),
    json!({"fen": "10/10/10/10/1A8/10/1L8/1x8/1W8/10 b 0", "moves": ["Xa2-a4"], "game": "rococo", "coords": "page"})
))]
pub struct VerifyRequest {
    /// The position, as for `/v1/analyze`.
    #[schema(example = "7k/5ppp/2N5/2n5/3rB3/8/PPP5/K7 w 0")]
    pub fen: String,
    /// The moves in order, in any accepted form. Baroque: `Pc2c4`, `Kc4-d5`, `Ld2-d4-d6-d8`,
    /// `g4d4`, `Rc5`, `Nxd8`, `c5c5` (suicide); both letter sets. Rococo: `Xb3-b5`, `Xb3xb5`,
    /// `b3b5`, `Sb2<>e5` (swap), `Se5*f6` (mutual destruction), `Pe8-e9=L` (promotion), `Le5-e5`
    /// (suicide), `Le9`; squares in `coords`. Move numbers and `+ # ! ?` ignored.
    #[schema(example = json!(["Pc2c4"]))]
    pub moves: Vec<String>,
    /// The Baroque rule set (default `abbott`). Rococo has no presets or options: `rules` with
    /// `game: rococo` is refused (422 `not-applicable`).
    #[serde(default)]
    pub rules: Option<RulesInput>,
    /// The game: `baroque` (the default) or `rococo` (10x10; see `GameName`).
    #[serde(default)]
    pub game: Option<GameName>,
    /// How Rococo squares are named, in input and output: `standard` (a-j, 1-10; the default) or
    /// `page` (the Rococo page's x, a-h, y and 0, 1-8, 00). `page` with Baroque is refused (422
    /// `not-applicable`).
    #[serde(default)]
    pub coords: Option<CoordsName>,
}

/// A verify request parsed: a position that can arise and the move texts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyQuery {
    pub position: CheckedPosition,
    pub moves: Vec<String>,
}

impl TryFrom<VerifyRequest> for VerifyQuery {
    type Error = ApiError;
    fn try_from(r: VerifyRequest) -> Result<VerifyQuery, ApiError> {
        Ok(VerifyQuery {
            position: CheckedPosition::read(&r.fen, r.game, r.coords, r.rules)?,
            moves: r.moves,
        })
    }
}

/// Why a move was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(example = "self_check")]
pub enum MoveReason {
    /// The text is not a move in any accepted form.
    Unparsable,
    /// No piece of the side to move (of the named kind) on the from-square.
    NoPiece,
    /// The piece cannot make that move.
    NotAMove,
    /// The piece is frozen (immobilized).
    Frozen,
    /// The move would leave the mover's own King capturable (Baroque only: in Rococo such a move
    /// is legal, and loses).
    SelfCheck,
    /// A short form that fits several legal moves.
    Ambiguous,
}

impl From<MoveErrorKind> for MoveReason {
    fn from(k: MoveErrorKind) -> MoveReason {
        match k {
            MoveErrorKind::Unparsable => MoveReason::Unparsable,
            MoveErrorKind::NoPiece => MoveReason::NoPiece,
            MoveErrorKind::NotAMove => MoveReason::NotAMove,
            MoveErrorKind::Frozen => MoveReason::Frozen,
            MoveErrorKind::SelfCheck => MoveReason::SelfCheck,
            MoveErrorKind::Ambiguous => MoveReason::Ambiguous,
        }
    }
}

/// One move of a verify request, as the engine read it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(
    super::openapi::examples::verified_move,
    super::openapi::examples::verified_move_rococo
))]
pub struct VerifiedMove {
    /// The move as sent.
    #[schema(example = "Pc2c4")]
    pub input: String,
    pub legal: bool,
    /// Canonical notation (null when illegal).
    #[schema(example = "Pc2xc4")]
    pub notation: Option<String>,
    /// From and to squares (null when illegal).
    #[schema(example = "c2c4")]
    pub uci: Option<String>,
    /// Every piece the move captures (empty when illegal).
    pub captures: Vec<SquarePiece>,
    /// The frozen pieces of both sides after the move (empty when illegal).
    pub frozen_after: Vec<SquarePiece>,
    /// The FEN after the move (null when illegal).
    #[schema(example = "7k/5ppp/2N5/8/2P1B3/8/PP6/K7 b 1")]
    pub fen_after: Option<String>,
    /// The status of the side to move after the move (null when illegal).
    pub status_after: Option<GameStatus>,
    /// Rococo only (null when illegal): what kind of move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<MoveKindName>,
    /// Rococo only, for a Cannon Pawn's promotion: the piece it becomes.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = "L")]
    pub promotion: Option<String>,
}

/// The first illegal move of a verify request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(super::openapi::examples::illegal_move))]
pub struct IllegalMove {
    /// 0-based index of the move in the request's `moves`.
    pub index: usize,
    /// The move as sent.
    #[schema(example = "Ke5")]
    pub input: String,
    pub reason: MoveReason,
    /// Why, in words.
    pub message: String,
    /// For `ambiguous`: the canonical names of the moves the text fits.
    pub candidates: Vec<String>,
}

/// `POST /v1/verify`: the moves played in order, up to and including the first illegal one (the
/// moves after it are not examined).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(
    super::openapi::examples::verify_response,
    super::openapi::examples::verify_response_rococo
))]
pub struct VerifyResponse {
    pub game: GameName,
    /// The rule set (null for Rococo, which has one).
    pub rules: Option<ResolvedRules>,
    /// One entry per move examined, in order; the last is the first illegal move, if any.
    pub moves: Vec<VerifiedMove>,
    /// Null when every move is legal.
    pub first_illegal: Option<IllegalMove>,
    /// The FEN after the last legal move (the request's position when none is).
    pub final_fen: String,
    /// The status of the side to move in `final_fen` (Rococo: `checkmate` once its King was
    /// captured; moves after that are refused as `not_a_move`).
    pub final_status: GameStatus,
    /// Remarks on the starting position (`no_king`, `too_many_pieces`).
    pub warnings: Vec<Warning>,
}

/// A rule preset and what it means.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(super::openapi::examples::preset_info))]
pub struct PresetInfo {
    pub name: PresetName,
    /// Whether requests without `rules` use it.
    pub default: bool,
    pub description: String,
}

/// A rule option, its values and its default.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(super::openapi::examples::option_info))]
pub struct OptionInfo {
    #[schema(example = "suicide")]
    pub name: String,
    pub values: Vec<String>,
    pub default: String,
    pub description: String,
}

/// `GET /v1/rules`: the presets and options a request's `rules` may name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(super::openapi::examples::rules_catalog))]
pub struct RulesCatalog {
    pub presets: Vec<PresetInfo>,
    pub options: Vec<OptionInfo>,
}

/// `GET /health`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(super::openapi::examples::health))]
pub struct Health {
    /// Always `ok` when the service answers.
    #[schema(example = "ok")]
    pub status: String,
    /// The service's version.
    pub version: String,
}

/// `POST /v1/solve`: a position and the stipulation "mate in N" for the side to move.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(examples(json!({
    "fen": "2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0",
    "mate_in": 2,
    "rules": "abbott",
    "limits": {"nodes": 1_000_000, "millis": 2000},
    "key": "Xg6-e6-c6"
}), json!({
    "fen": "10/10/4k5/10/10/10/4L5/10/1K8/10 w 0",
    "mate_in": 1,
    "game": "rococo",
    "coords": "page",
    "key": "Ld3xd8"
})))]
pub struct SolveRequest {
    /// The position, as for `/v1/analyze`.
    #[schema(example = "2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0")]
    pub fen: String,
    /// N: the side to move must force checkmate with its Nth move at the latest (Rococo: force the
    /// capture of the enemy King: after its Nth move at the latest the defender has lost its King
    /// or has no move that keeps it). From 1 to the server's maximum (`--solve-max-mate-in`,
    /// default 8; 422 above).
    #[schema(example = 2, minimum = 1, maximum = 12)]
    #[serde(deserialize_with = "crate::api::whole::number")]
    pub mate_in: u32,
    /// The Baroque rule set (default `abbott`). Rococo has no presets or options: `rules` with
    /// `game: rococo` is refused (422 `not-applicable`).
    #[serde(default)]
    pub rules: Option<RulesInput>,
    /// The game: `baroque` (the default) or `rococo` (both Kings must be on the board).
    #[serde(default)]
    pub game: Option<GameName>,
    /// How Rococo squares are named, in input (`fen`, `key`) and output: `standard` (the default)
    /// or `page`.
    #[serde(default)]
    pub coords: Option<CoordsName>,
    /// The search budget; an absent member takes the server's maximum, a larger one is clamped to it.
    #[serde(default)]
    pub limits: Option<SearchLimits>,
    /// The intended key, in any notation `/v1/verify` reads (`Xg6-e6-c6`, `Bg6xc6`, `g6c6`): the
    /// cooks are then the other first moves that mate in N. It must be a legal move (422 otherwise).
    #[serde(default)]
    #[schema(example = "Xg6-e6-c6")]
    pub key: Option<String>,
    /// Most moves in the solution tree (default and ceiling: the server's `--solve-max-tree-nodes`;
    /// a larger value is clamped to it).
    #[serde(default, deserialize_with = "crate::api::whole::option")]
    #[schema(example = 500, minimum = 1, maximum = 9_223_372_036_854_775_807_u64)]
    pub max_tree_nodes: Option<u64>,
}

/// A search budget: positions visited and wall-clock time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(examples(json!({"nodes": 1_000_000, "millis": 2000})))]
pub struct SearchLimits {
    /// Positions visited, all threads together (at least 1; above the server's
    /// `--solve-max-nodes` it is clamped to it).
    #[serde(default, deserialize_with = "crate::api::whole::option")]
    #[schema(
        example = 1_000_000,
        minimum = 1,
        maximum = 9_223_372_036_854_775_807_u64
    )]
    pub nodes: Option<u64>,
    /// Wall-clock milliseconds (at least 1; above the server's `--solve-max-millis` it is clamped
    /// to it). The answer comes within this time plus 200 ms or 10 %, whichever is more.
    #[serde(default, deserialize_with = "crate::api::whole::option")]
    #[schema(example = 2000, minimum = 1, maximum = 9_223_372_036_854_775_807_u64)]
    pub millis: Option<u64>,
}

/// A limit of a search budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(example = "time")]
pub enum BudgetLimit {
    /// The node limit (`limits.nodes`).
    Nodes,
    /// The time limit (`limits.millis`).
    Time,
    /// The search was stopped from outside (the client went away, the server is stopping).
    Cancelled,
}

impl From<crate::solver::Exhausted> for BudgetLimit {
    fn from(e: crate::solver::Exhausted) -> BudgetLimit {
        match e {
            crate::solver::Exhausted::Nodes => BudgetLimit::Nodes,
            crate::solver::Exhausted::Time => BudgetLimit::Time,
            crate::solver::Exhausted::Cancelled => BudgetLimit::Cancelled,
        }
    }
}

/// The budget a solve ran under, after clamping to the server's maxima.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(json!({"nodes": 1_000_000, "millis": 2000, "max_tree_nodes": 2000})))]
pub struct AppliedLimits {
    pub nodes: u64,
    pub millis: u64,
    pub max_tree_nodes: u64,
}

/// A solve request parsed: a position that can arise, the solver's options and what was clamped.
#[derive(Clone, Debug)]
pub struct SolveQuery {
    pub position: CheckedPosition,
    /// The solver's settings, the intended key among them.
    pub options: crate::solver::SolveOptions,
    pub limits: AppliedLimits,
    /// The request members lowered to the server's maxima (`limits.nodes`, `limits.millis`,
    /// `max_tree_nodes`).
    pub clamped: Vec<String>,
}

impl SolveQuery {
    /// Reads a solve request under the server's maxima.
    ///
    /// # Errors
    /// [`ApiError::InvalidMateIn`] for N = 0 or above the maximum, [`ApiError::InvalidLimits`] for a
    /// zero budget or tree size, the errors of [`CheckedPosition::parse`], and
    /// [`ApiError::InvalidKey`] for an intended key that is not a legal move.
    pub fn parse(
        r: SolveRequest,
        max: &super::configuration::SolveLimits,
    ) -> Result<SolveQuery, ApiError> {
        if r.mate_in == 0 || r.mate_in > max.max_mate_in {
            return Err(ApiError::InvalidMateIn {
                mate_in: r.mate_in,
                max: max.max_mate_in,
            });
        }
        let asked = r.limits.unwrap_or_default();
        let mut clamped = Vec::new();
        let mut bound = |name: &str, asked: Option<u64>, ceiling: u64| match asked {
            Some(0) => Err(ApiError::InvalidLimits(format!(
                "`{name}` is 0; it must be at least 1"
            ))),
            Some(n) if n > ceiling => {
                clamped.push(name.to_string());
                Ok(ceiling)
            }
            Some(n) => Ok(n),
            None => Ok(ceiling),
        };
        let nodes = bound("limits.nodes", asked.nodes, max.max_nodes)?;
        let millis = bound("limits.millis", asked.millis, max.max_millis)?;
        let tree = bound(
            "max_tree_nodes",
            r.max_tree_nodes,
            max.max_tree_nodes as u64,
        )?;
        let position = CheckedPosition::read(&r.fen, r.game, r.coords, r.rules)?;
        if Variant::mate_needs_both_kings(position.position.kind())
            && !position.position.has_both_kings()
        {
            return Err(ApiError::NotApplicable {
                field: "fen",
                detail: "a Rococo mate search needs both Kings on the board: mate means \
                         forcing the capture of the enemy King"
                    .into(),
            });
        }
        let key = match &r.key {
            None => None,
            Some(text) => Some(
                position
                    .position
                    .parse_move(text, position.naming)
                    .map_err(|e| ApiError::InvalidKey {
                        key: text.clone(),
                        reason: e.to_string(),
                    })?,
            ),
        };
        let options = crate::solver::SolveOptions {
            stipulation: crate::solver::Stipulation::Mate(r.mate_in),
            limits: crate::solver::Limits {
                nodes,
                time: std::time::Duration::from_millis(millis),
            },
            table_mib: max.table_mib,
            threads: max.threads,
            max_tree_nodes: usize::try_from(tree).unwrap_or(usize::MAX),
            intended_key: key,
            cancel: crate::solver::Cancel::new(),
        };
        Ok(SolveQuery {
            position,
            options,
            limits: AppliedLimits {
                nodes,
                millis,
                max_tree_nodes: tree,
            },
            clamped,
        })
    }
}

/// The overall answer of a solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(example = "mate")]
pub enum SolveResult {
    /// Some first move forces mate within N (proven).
    Mate,
    /// No first move forces mate within N (proven).
    NoMate,
    /// The budget ran out before either was proven.
    Unknown,
}

impl From<crate::solver::Outcome> for SolveResult {
    fn from(o: crate::solver::Outcome) -> SolveResult {
        match o {
            crate::solver::Outcome::Mate => SolveResult::Mate,
            crate::solver::Outcome::NoMate => SolveResult::NoMate,
            crate::solver::Outcome::Unknown => SolveResult::Unknown,
        }
    }
}

/// A move of a solution: canonical notation, from and to squares, captures.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(json!({"notation": "Kc4-d5", "uci": "c4d5", "captures": []})))]
pub struct SolutionMove {
    #[schema(example = "Kc4-d5")]
    pub notation: String,
    #[schema(example = "c4d5")]
    pub uci: String,
    /// Every piece the move captures, lowest square first.
    pub captures: Vec<SquarePiece>,
}

impl From<&crate::rules::MoveInfo> for SolutionMove {
    fn from(m: &crate::rules::MoveInfo) -> SolutionMove {
        SolutionMove {
            notation: m.notation.clone(),
            uci: m.uci.clone(),
            captures: m.captures.iter().cloned().map(SquarePiece::from).collect(),
        }
    }
}

/// A first move that forces mate, with the length of its forced mate.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(super::openapi::examples::key_move))]
pub struct KeyMove {
    /// Canonical notation (the Chameleon's `Xg6-e6-c6` is `Bg6xc6`).
    #[schema(example = "Bg6xc6")]
    pub notation: String,
    #[schema(example = "g6c6")]
    pub uci: String,
    /// Attacker moves of the forced mate, this one included.
    #[schema(example = 2)]
    pub mate_in: u32,
    /// Every piece the move captures, lowest square first.
    pub captures: Vec<SquarePiece>,
}

impl From<&crate::solver::NamedKey> for KeyMove {
    fn from(k: &crate::solver::NamedKey) -> KeyMove {
        let m = SolutionMove::from(&k.info);
        KeyMove {
            notation: m.notation,
            uci: m.uci,
            mate_in: k.mate_in,
            captures: m.captures,
        }
    }
}

/// An attacker move of the solution tree.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(super::openapi::examples::attack_node))]
pub struct AttackNode {
    #[schema(example = "Bg6xc6")]
    pub notation: String,
    #[schema(example = "g6c6")]
    pub uci: String,
    pub captures: Vec<SquarePiece>,
    /// The forced mate's length from here, this move included.
    pub mate_in: u32,
    /// Whether this move mates (checkmate, or a stalemate the rules count as a loss).
    pub mates: bool,
    /// The threat: attacker moves that would mate in time were the defender allowed to pass;
    /// absent when the defender is in check (passing is not legal then) or at the mating move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threat: Option<Vec<SolutionMove>>,
    /// Every defence, with the attacker moves that still mate in time.
    pub defences: Vec<DefenceNode>,
}

/// A defender move of the solution tree.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(super::openapi::examples::defence_node))]
pub struct DefenceNode {
    #[schema(example = "Kb7xc8")]
    pub notation: String,
    #[schema(example = "b7c8")]
    pub uci: String,
    pub captures: Vec<SquarePiece>,
    /// More than one attacker move mates in time after this defence.
    pub dual: bool,
    /// The attacker moves that mate in time, each with its subtree.
    #[schema(no_recursion)]
    pub replies: Vec<AttackNode>,
}

impl From<&crate::solver::tree::NamedAttack> for AttackNode {
    fn from(n: &crate::solver::tree::NamedAttack) -> AttackNode {
        let m = SolutionMove::from(&n.info);
        AttackNode {
            notation: m.notation,
            uci: m.uci,
            captures: m.captures,
            mate_in: n.mate_in,
            mates: n.mates,
            threat: n
                .threat
                .as_ref()
                .map(|t| t.iter().map(SolutionMove::from).collect()),
            defences: n
                .defences
                .iter()
                .map(|d| {
                    let m = SolutionMove::from(&d.info);
                    DefenceNode {
                        notation: m.notation,
                        uci: m.uci,
                        captures: m.captures,
                        dual: d.dual,
                        replies: d.replies.iter().map(AttackNode::from).collect(),
                    }
                })
                .collect(),
        }
    }
}

/// The intended key of a request, as the engine read it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(json!({"notation": "Bg6xc6", "uci": "g6c6", "mate_in": 2})))]
pub struct IntendedKey {
    #[schema(example = "Bg6xc6")]
    pub notation: String,
    #[schema(example = "g6c6")]
    pub uci: String,
    /// The length of its forced mate when it is one of the `keys`; null when it is not (proven
    /// when `result` is not `unknown`).
    pub mate_in: Option<u32>,
}

/// `POST /v1/solve`: what is proven of "mate in N".
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(
    super::openapi::examples::solve_response,
    super::openapi::examples::solve_response_rococo
))]
pub struct SolveResponse {
    pub game: GameName,
    /// `mate`, `no_mate` (both proven) or `unknown` (the budget ran out first).
    pub result: SolveResult,
    /// The shortest forced mate found (null unless `result` is `mate`).
    #[schema(example = 2)]
    pub mate_in: Option<u32>,
    /// Exactly one first move forces mate within N, and it needs all N moves; null when the budget
    /// ran out before that was settled.
    pub sound: Option<bool>,
    /// Every first move proven to force mate within N, shortest first.
    pub keys: Vec<KeyMove>,
    /// First moves other than the intended key (or the first key) that also mate in exactly N.
    pub cooks: Vec<KeyMove>,
    /// First moves that mate in fewer than N.
    pub short_solutions: Vec<KeyMove>,
    /// The solution tree of each key.
    pub tree: Vec<AttackNode>,
    /// Whether the tree was cut at `max_tree_nodes` or by the budget. A cut tree may lack defences,
    /// replies and threats, and a `dual` of it may count only the replies found.
    pub tree_truncated: bool,
    /// Positions visited.
    pub nodes: u64,
    /// Milliseconds the search took.
    pub millis: u64,
    /// Whether the node or time budget ran out.
    pub budget_exhausted: bool,
    /// Which limit ran out first: `nodes` or `time` (null when none did; `cancelled` never reaches a
    /// client, whose search is stopped only once it has gone).
    pub budget_exhausted_by: Option<BudgetLimit>,
    /// Every first move is proven not to mate within this many moves unless it is a key (the
    /// proven part of an `unknown` result).
    pub proven_no_mate_within: u32,
    /// The request's `key`, as the engine read it (null when none was sent).
    pub intended_key: Option<IntendedKey>,
    /// The budget the search ran under.
    pub limits: AppliedLimits,
    /// The request members lowered to the server's maxima: `limits.nodes`, `limits.millis`,
    /// `max_tree_nodes`.
    pub clamped: Vec<String>,
    /// The rule set (null for Rococo, which has one).
    pub rules: Option<ResolvedRules>,
    /// Remarks on the position (`no_king`, `too_many_pieces`).
    pub warnings: Vec<Warning>,
}

impl SolveResponse {
    /// The response for a query and its solution.
    pub fn new(q: &SolveQuery, s: &crate::solver::Solution<VariantMove>) -> SolveResponse {
        let pos = &q.position.position;
        let naming = q.position.naming;
        let named = s.named(pos, naming);
        let intended_key = q.options.intended_key.map(|mv| {
            let info = pos.move_info(&mv, naming);
            IntendedKey {
                notation: info.notation,
                uci: info.uci,
                mate_in: s.keys.iter().find(|k| k.mv == mv).map(|k| k.mate_in),
            }
        });
        let keys = |v: &[crate::solver::NamedKey]| v.iter().map(KeyMove::from).collect();
        SolveResponse {
            game: q.position.game(),
            result: named.result.into(),
            mate_in: named.mate_in,
            sound: named.sound,
            keys: keys(&named.keys),
            cooks: keys(&named.cooks),
            short_solutions: keys(&named.short_solutions),
            tree: named.tree.iter().map(AttackNode::from).collect(),
            tree_truncated: named.tree_truncated,
            nodes: named.nodes,
            millis: named.millis,
            budget_exhausted: named.budget_exhausted,
            budget_exhausted_by: named.exhausted_by.map(BudgetLimit::from),
            proven_no_mate_within: named.proven_no_mate_within,
            intended_key,
            limits: q.limits,
            clamped: q.clamped.clone(),
            rules: q.position.rules(),
            warnings: q.position.warnings.clone(),
        }
    }
}

/// What a puzzle is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(example = "diagram")]
pub enum PuzzleKind {
    /// A position, a move (after the moves leading to it) and its expected outcome.
    Diagram,
    /// A position and N: the side to move mates in N.
    Mate,
}

impl From<PuzzleKind> for crate::store::Kind {
    fn from(k: PuzzleKind) -> crate::store::Kind {
        match k {
            PuzzleKind::Diagram => crate::store::Kind::Diagram,
            PuzzleKind::Mate => crate::store::Kind::Mate,
        }
    }
}

impl From<crate::store::Kind> for PuzzleKind {
    fn from(k: crate::store::Kind) -> PuzzleKind {
        match k {
            crate::store::Kind::Diagram => PuzzleKind::Diagram,
            crate::store::Kind::Mate => PuzzleKind::Mate,
        }
    }
}

/// The game of a request or a puzzle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(example = "rococo")]
pub enum GameName {
    /// Baroque chess (Ultima), 8x8, the default.
    #[default]
    Baroque,
    /// Rococo (the chessvariants.com page), 10x10 with edge squares: won by capturing the King.
    /// Letters K King, P Cannon Pawn, I Immobilizer, W Withdrawer, A Advancer, L Long Leaper,
    /// X Chameleon, S Swapper, U Pushme-Pullyu; no rule presets.
    Rococo,
}

/// `POST /v1/puzzles`: a puzzle to verify and store.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(examples(json!({
    "kind": "diagram",
    "fen": "7k/5ppp/2N5/2n5/3rB3/8/PPP5/K7 w 0",
    "rules": "vchess",
    "game": "baroque",
    "title": "Pawn: a double capture",
    "source": "vchess.club rules page",
    "tags": ["pawn"],
    "moves": ["Pc2c4"],
    "captures": [{"square": "c5", "piece": "n"}, {"square": "d4", "piece": "r"}],
    "status": "ongoing"
}), json!({
    "kind": "mate",
    "fen": "2R5/1kp5/Pp1n1nBq/2p5/2N5/8/8/K1r5 w 0",
    "title": "Chameleon: seven captures",
    "tags": ["chameleon"],
    "mate_in": 2
})))]
pub struct PuzzleRequest {
    pub kind: PuzzleKind,
    /// The position, either letter set; stored canonical.
    #[schema(example = "7k/5ppp/2N5/2n5/3rB3/8/PPP5/K7 w 0")]
    pub fen: String,
    /// The Baroque rule set (default `abbott`); refused with `game: rococo` (422 `not-applicable`).
    #[serde(default)]
    pub rules: Option<RulesInput>,
    /// Default `baroque`. For `rococo` the FEN is 10x10, and a mate means forcing the capture of
    /// the enemy King.
    #[serde(default)]
    pub game: Option<GameName>,
    /// Rococo only: how the request names squares (FEN's last-swap field, `moves`, `captures`,
    /// `keys`): `standard` (the default) or `page`. The puzzle is stored, and answered, in standard
    /// coordinates.
    #[serde(default)]
    pub coords: Option<CoordsName>,
    #[serde(default)]
    pub title: Option<String>,
    /// The document the puzzle comes from.
    #[serde(default)]
    pub source: Option<String>,
    /// What the document says about it.
    #[serde(default)]
    pub caption: Option<String>,
    #[serde(default)]
    pub tags: Vec<String>,
    /// Diagram: the moves as the document writes them; the last is the one the claim is about.
    #[serde(default)]
    pub moves: Option<Vec<String>>,
    /// Diagram: exactly the pieces the last move captures (`[]` for none); needed when it is legal.
    #[serde(default)]
    pub captures: Option<Vec<SquarePiece>>,
    /// Diagram: the status after the last move (`ongoing`, `check`, `checkmate`, `stalemate`).
    #[serde(default)]
    #[schema(example = "ongoing")]
    pub status: Option<String>,
    /// Diagram: whether the last move is legal (default true).
    #[serde(default)]
    pub legal: Option<bool>,
    /// Diagram: for an illegal last move, the expected reason (`self_check`, `frozen`, ...).
    #[serde(default)]
    pub reason: Option<String>,
    /// Mate: N.
    #[serde(default, deserialize_with = "crate::api::whole::option")]
    #[schema(minimum = 1, maximum = 12)]
    pub mate_in: Option<u32>,
    /// Mate: every first move that forces mate within N (any notation), when the puzzle states them.
    #[serde(default)]
    pub keys: Option<Vec<String>>,
    /// Mate: whether the puzzle is sound, when it states it.
    #[serde(default)]
    pub sound: Option<bool>,
}

impl PuzzleRequest {
    /// The puzzle to verify; the FEN is read here so that its errors are the usual problems.
    ///
    /// # Errors
    /// The errors of [`CheckedPosition::parse`].
    pub fn into_new_puzzle(self) -> Result<crate::puzzle::NewPuzzle, ApiError> {
        // The FEN is read here, so its errors are the usual problems; page coordinates become
        // standard ones.
        let checked = CheckedPosition::read(&self.fen, self.game, self.coords, self.rules)?;
        let fen = checked.position.fen(Naming::default());
        let rules = checked.position.variant().rules().unwrap_or_default();
        let coords = checked.naming.coords;
        let standard = |text: String| Coords::Standard.restate(&text, coords);
        Ok(crate::puzzle::NewPuzzle {
            kind: self.kind.into(),
            game: self.game.unwrap_or_default().into(),
            fen,
            rules,
            title: self.title,
            source: self.source,
            caption: self.caption,
            tags: self.tags,
            moves: self
                .moves
                .unwrap_or_default()
                .into_iter()
                .map(standard)
                .collect(),
            legal: self.legal.unwrap_or(true),
            reason: self.reason,
            captures: self.captures.map(|v| {
                v.into_iter()
                    .map(|p| crate::cases::SquarePiece {
                        square: standard(p.square),
                        piece: p.piece,
                    })
                    .collect()
            }),
            status: self.status,
            frozen: None,
            destinations: None,
            mate_in: self.mate_in,
            keys: self
                .keys
                .map(|keys| keys.into_iter().map(standard).collect()),
            short_solutions: None,
            sound: self.sound,
            fixture: None,
        })
    }
}

/// A stored puzzle.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[schema(examples(
    super::openapi::examples::puzzle,
    super::openapi::examples::puzzle_rococo
))]
pub struct Puzzle {
    #[schema(example = 1)]
    pub id: i64,
    pub kind: PuzzleKind,
    pub game: GameName,
    /// The canonical FEN (Baroque: chess-style letters; Rococo: standard coordinates).
    pub fen: String,
    /// The rule set (null for Rococo, which has one).
    pub rules: Option<ResolvedRules>,
    pub source: Option<String>,
    pub title: Option<String>,
    pub caption: Option<String>,
    pub tags: Vec<String>,
    /// Diagram: the moves as submitted (empty for a mate).
    pub moves: Vec<String>,
    /// Diagram: the captures of the last move as the engine found them (empty for a mate).
    pub captures: Vec<SquarePiece>,
    /// Mate: N.
    pub mate_in: Option<u32>,
    /// The id of the fixture it was seeded from (null when posted).
    pub fixture: Option<String>,
    /// When it was stored (RFC 3339, UTC).
    pub created_at: String,
    /// SHA-256 of the content (kind, game, canonical FEN, rules, canonical moves, N): the same
    /// puzzle is stored once.
    pub content_hash: String,
    /// The verified outcome (in single-puzzle answers, not in listings): for a diagram `legal`,
    /// `notation`, `uci`, `captures`, `status`, `frozen`, `fen_after` (or `reason`); for a mate
    /// `result`, `mate_in`, `sound`, `keys`, `cooks`, `short_solutions`, `tree`, `tree_truncated`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub outcome: Option<serde_json::Value>,
}

impl Puzzle {
    /// The API form of a stored puzzle; `full` keeps the outcome.
    pub fn from_stored(p: crate::store::StoredPuzzle, full: bool) -> Puzzle {
        let rules = match p.game {
            crate::cases::Game::Baroque => Some(ResolvedRules::from(
                &p.rules.parse::<Rules>().unwrap_or_default(),
            )),
            crate::cases::Game::Rococo => None,
        };
        Puzzle {
            id: p.id,
            kind: p.kind.into(),
            game: p.game.into(),
            fen: p.fen,
            rules,
            source: p.source,
            title: p.title,
            caption: p.caption,
            tags: p.tags,
            moves: p.moves,
            captures: p.captures.into_iter().map(SquarePiece::from).collect(),
            mate_in: p.mate_in,
            fixture: p.fixture,
            created_at: p.created_at,
            content_hash: p.content_hash,
            outcome: full.then_some(p.outcome),
        }
    }
}

/// `GET /v1/puzzles`: one page.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[schema(examples(super::openapi::examples::puzzle_page))]
pub struct PuzzlePage {
    /// The puzzles of the page, by increasing id.
    pub items: Vec<Puzzle>,
    /// The `cursor` of the next page; null on the last.
    pub next_cursor: Option<String>,
}

/// The largest page.
pub const MAX_PAGE: u32 = 200;
/// The page size when `limit` is absent.
pub const DEFAULT_PAGE: u32 = 50;

/// `GET /v1/puzzles` filters and paging.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct PuzzleListQuery {
    /// Only puzzles of this kind.
    pub kind: Option<PuzzleKind>,
    /// Only puzzles of this game.
    pub game: Option<GameName>,
    /// Only Baroque puzzles under this preset (with any options).
    pub rules: Option<PresetName>,
    /// Only mates in this N (1 to 12).
    #[param(minimum = 1, maximum = 12)]
    pub mate_in: Option<u32>,
    /// Only puzzles with this tag.
    pub tag: Option<String>,
    /// Only puzzles from this source document (exact).
    pub source: Option<String>,
    /// Page size, 1 to 200 (default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<u32>,
    /// The `next_cursor` of the previous page (absent for the first): digits.
    #[param(pattern = "^[0-9]{1,18}$", example = "62")]
    pub cursor: Option<String>,
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
