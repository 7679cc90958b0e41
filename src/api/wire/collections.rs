//! The wire types of `/v1/collections` and `/v1/jobs`: a generation request, a job and its
//! progress, a collection, a listing, a page of a collection's puzzles and an export's query.

use crate::api::common::{GameName, RulesInput};
use crate::api::wire::solve::SearchLimits;
use crate::api::wire::Puzzle;
use crate::app::jobs::{JobRecord, ShardsView};
use crate::app::library::Collection;
use crate::generate::{Progress, Stop};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A request to generate a collection.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(examples(json!({"name": "twos", "mate_in": 2, "count": 5, "rules": "abbott", "seed": 42, "max_pieces": 8})))]
pub struct CollectionRequest {
    /// The new collection's name: 1 to 64 letters, digits, `-`, `_` or `.` (409 when taken).
    #[schema(example = "twos", pattern = "^[A-Za-z0-9._-]{1,64}$")]
    pub name: String,
    /// N of "mate in N" (`#N`): from 1 to the server's `--solve-max-mate-in`. Leave it out when
    /// `stipulation` is given (both given: they must agree).
    #[schema(example = 2, minimum = 1, maximum = 12)]
    #[serde(default, deserialize_with = "crate::api::whole_numbers::option")]
    pub mate_in: Option<u32>,
    /// The stipulation of the puzzles: `#N`, `s#N`, `h#N`, `h#N.5`, `=N`, `s=N`, `h=N`, `h=N.5`, `r#N`, `semi-r#N`, `ser-#N`, `ser-=N`, `ser-s#N` or `ser-h#N`
    /// (as for `/v1/solve`; N up to
    /// the server's `--solve-max-mate-in`). Candidates have the side to move the stipulation
    /// starts with; a helpmate is kept when it has exactly one solution and no shorter helpmate.
    #[serde(default)]
    #[schema(example = "h#2")]
    pub stipulation: Option<String>,
    /// Puzzles wanted: from 1 to the server's `--job-max-count` (which is at most 100,000).
    #[schema(example = 5, minimum = 1, maximum = 100_000)]
    #[serde(deserialize_with = "crate::api::whole_numbers::number")]
    pub count: u32,
    /// The game: `baroque` (the default) or `rococo` (mate meaning the capture of the King; no
    /// `rules`).
    #[serde(default)]
    pub game: Option<GameName>,
    /// The rule set (default `abbott`).
    #[serde(default)]
    pub rules: Option<RulesInput>,
    /// The seed of the random candidates: the same seed and request make the same puzzles
    /// (default: from the clock; the job and the collection show it). At most 2^63 - 1.
    #[serde(
        default,
        deserialize_with = "crate::api::whole_numbers::option_unchecked"
    )]
    #[schema(example = 42, minimum = 0, maximum = 9_223_372_036_854_775_807_u64)]
    pub seed: Option<u64>,
    /// Most pieces on the board, Kings included (3 to 32; default 10).
    #[serde(default, deserialize_with = "crate::api::whole_numbers::option")]
    #[schema(example = 8, minimum = 3, maximum = 32)]
    pub max_pieces: Option<u32>,
    /// Whether the side to move may start in check (default false).
    #[serde(default)]
    pub allow_check: Option<bool>,
    /// The solver's budget for one candidate (default: 2,000,000 nodes and 10,000 ms; clamped to the
    /// server's solve maxima). A candidate the solver cannot settle within it is dropped. The nodes
    /// decide; the time is a safety net (a run where it bites may not be reproduced by its seed).
    #[serde(default, deserialize_with = "crate::api::common::object_option")]
    pub candidate_limits: Option<SearchLimits>,
    /// The largest share of the puzzles whose key piece is of one kind (above 0, at most 1;
    /// default 0.4 for `#N`, 1 for every other stipulation). The key piece makes the key (a
    /// helpmate: the mating move). The share is never exceeded in collections of 10 puzzles or
    /// more; below 10 there is no limit.
    #[serde(default)]
    #[schema(example = 0.4, exclusive_minimum = 0.0, maximum = 1.0)]
    pub max_key_share: Option<f64>,
    /// Pieces besides its King the defender (the side that answers the key; in a helpmate the
    /// side mated) keeps in at least `min_defenders_share` of the puzzles (0: no such rule;
    /// default for `#N` 2, or `max_pieces` − 3 when that is less; 0 for every other stipulation;
    /// at most `max_pieces` − 3).
    #[serde(default, deserialize_with = "crate::api::whole_numbers::option")]
    #[schema(example = 2, minimum = 0, maximum = 29)]
    pub min_defenders: Option<u32>,
    /// The share of the puzzles whose defender keeps `min_defenders` pieces (0 to 1; default 0.8).
    #[serde(default)]
    #[schema(example = 0.8, minimum = 0.0, maximum = 1.0)]
    pub min_defenders_share: Option<f64>,
    /// For `#N`, `=N` and the help stipulations (`h#N`, `h#N.5`, `h=N`, `h=N.5`): only the
    /// candidates mated (or stalemated) by a search whose moves before the last land near the King
    /// mated (or stalemated) are screened fully, the first move within `focus` King steps and the
    /// later ones within one more (default 2). 0: every candidate is screened fully, so that
    /// puzzles whose solution plays far from the King are found too, at a fraction of the speed.
    /// Selfmates, selfstalemates, reflexmates and series movers are always screened fully.
    #[serde(default, deserialize_with = "crate::api::whole_numbers::option")]
    #[schema(example = 2, minimum = 0, maximum = 16)]
    pub focus: Option<u32>,
}

/// The state of a job (and of its collection).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(example = "done")]
#[serde(rename_all = "snake_case")]
pub enum JobState {
    Running,
    /// Every puzzle asked for was stored.
    Done,
    /// A limit (candidates, time) or a cancel came first; what was found is stored.
    Stopped,
    /// The store failed; `error` says how.
    Failed,
}

/// A generation job.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(examples(json!({"id": 1, "url": "/v1/jobs/1", "state": "done", "collection": "twos",
    "collection_url": "/v1/collections/twos", "mate_in": 2, "stipulation": "#2", "count": 5, "seed": 42,
    "progress": {"tried": 170, "found": 5, "duplicates": 0, "unsettled": 0, "nodes": 181000, "millis": 240},
    "stop": "done", "puzzle_ids": [65, 66, 67, 68, 69],
    "summary": {"variety": {"max_key_share": 0.4, "key_cap": 2, "min_defenders": 2, "min_defenders_share": 0.8, "defenders_kept": 5},
        "key_pieces": {"immobilizer": 2, "long-leaper": 2, "chameleon": 1}, "themes": {"mate-in-2": 5, "quiet-key": 4, "key-captures-1": 1},
        "difficulty": {"min": 34, "median": 55, "max": 67, "buckets": {"0-19": 0, "20-39": 1, "40-59": 2, "60-79": 2, "80-100": 0}},
        "focus": 2},
    "error": null, "attempts": 1, "workers": {"replica-1:8080": 170},
    "shards": {"total": 17, "done": 1, "running": 0}})))]
pub struct Job {
    pub id: u64,
    pub url: String,
    pub state: JobState,
    pub collection: String,
    pub collection_url: String,
    /// The N of the stipulation.
    pub mate_in: u32,
    /// The stipulation of the puzzles.
    #[schema(example = "#2")]
    pub stipulation: String,
    pub count: u32,
    pub seed: u64,
    pub progress: JobProgress,
    /// Why the run stopped (`done`, `candidate_limit`, `time_limit`, `cancelled`); null while it runs.
    #[schema(value_type = Option<String>, example = "done")]
    pub stop: Option<Stop>,
    /// The stored puzzles, in order.
    pub puzzle_ids: Vec<i64>,
    /// Once the run ended, what its puzzles are like (as in the collection's `summary`):
    /// `variety` (the rules and `defenders_kept`), `key_pieces`, `themes`, `difficulty`
    /// (`min`, `median`, `max`, `buckets`) and `focus`; null while it runs.
    #[schema(value_type = Option<Object>)]
    pub summary: Option<serde_json::Value>,
    pub error: Option<String>,
    /// How many runners have held the job: 1, or more when a replica that stopped (handing it
    /// over), died or was killed left it and another took it over, going on from the puzzles
    /// already stored.
    #[schema(example = 1)]
    pub attempts: u32,
    /// The candidates each replica screened for the job, over all its runs, by replica name
    /// (`--replica-name`; default the host's name and port).
    #[schema(example = json!({"db-1:8080": 170}))]
    pub workers: std::collections::BTreeMap<String, u64>,
    /// Where the job's shards are: ranges of `steer_epoch` candidates (256 by default) that
    /// any replica with a free generation slot screens. `total` are made so far (a few ahead of
    /// the one assembled next), `done` screened, `running` screened by a replica now. Absent from
    /// a job stored by a release before shards (it runs on one replica at a time).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shards: Option<JobShards>,
}

impl From<JobRecord> for Job {
    fn from(r: JobRecord) -> Job {
        let v = r.view;
        Job {
            id: u64::try_from(r.id).unwrap_or_default(),
            url: format!("/v1/jobs/{}", r.id),
            state: match r.state.as_str() {
                "done" => JobState::Done,
                "stopped" => JobState::Stopped,
                "failed" => JobState::Failed,
                _ => JobState::Running,
            },
            collection_url: format!("/v1/collections/{}", v.collection),
            collection: v.collection,
            mate_in: v.mate_in,
            stipulation: v.stipulation,
            count: v.count,
            seed: v.seed,
            progress: v.progress.into(),
            stop: v.stop,
            puzzle_ids: v.puzzle_ids,
            summary: v.summary,
            error: v.error,
            attempts: r.attempts,
            workers: v.workers,
            shards: v.shards.map(Into::into),
        }
    }
}

/// How far a run (a generation job) has got.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(json!({"tried": 51, "found": 2, "duplicates": 0, "unsettled": 0, "varied": 0, "nodes": 68155, "millis": 23})))]
pub struct JobProgress {
    /// Candidates made and screened.
    pub tried: u64,
    /// Sound puzzles kept.
    pub found: u64,
    /// Sound puzzles dropped as near-duplicates (the same position or a mirror image of one kept).
    pub duplicates: u64,
    /// Candidates the solver could not settle within the candidate budget.
    pub unsettled: u64,
    /// Puzzles passed over to keep the collection varied (their key piece's kind had its share,
    /// or the defender kept too few pieces when every remaining puzzle had to keep them). With
    /// `focus`, a candidate whose key would be of a kind that has its share is dropped before it
    /// is proven sound, and counted here too: it is sound or not, but would not be kept either
    /// way.
    pub varied: u64,
    /// Solver nodes spent.
    pub nodes: u64,
    /// Milliseconds spent.
    pub millis: u64,
}

/// Where a sharded job's shards are: made so far, done, and held by a runner now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(examples(json!({"total": 12, "done": 9, "running": 2})))]
pub struct JobShards {
    /// Shards made so far: each a range of `steer_epoch` candidates (256 by default); the job's
    /// runner makes them a few ahead of the one it assembles next.
    pub total: u64,
    /// Shards screened.
    pub done: u64,
    /// Shards a replica screens now.
    pub running: u64,
}

impl From<Progress> for JobProgress {
    fn from(p: Progress) -> JobProgress {
        let Progress {
            tried,
            found,
            duplicates,
            unsettled,
            varied,
            nodes,
            millis,
        } = p;
        JobProgress {
            tried,
            found,
            duplicates,
            unsettled,
            varied,
            nodes,
            millis,
        }
    }
}

impl From<ShardsView> for JobShards {
    fn from(s: ShardsView) -> JobShards {
        let ShardsView {
            total,
            done,
            running,
        } = s;
        JobShards {
            total,
            done,
            running,
        }
    }
}

/// A collection as listed.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(examples(json!({"name": "twos", "url": "/v1/collections/twos", "game": "baroque",
    "rules": "abbott", "mate_in": 2, "stipulation": "#2", "seed": 42, "max_pieces": 8, "state": "done", "puzzles": 5,
    "summary": {"count": 5, "stop": "done", "progress": {"tried": 170, "found": 5}},
    "created_at": "2026-11-22T07:00:00.000Z"})))]
pub struct CollectionInfo {
    pub name: String,
    pub url: String,
    pub game: String,
    /// The rule set, as `Rules` writes it (`abbott`, `abbott,leaper=single`).
    pub rules: String,
    /// The N of the stipulation.
    pub mate_in: u32,
    /// The stipulation of the puzzles (`#2`, `s#2`, `h#2`, `h#2.5`, `=2`, ...).
    #[schema(example = "#2")]
    pub stipulation: String,
    /// The seed: the same request with it makes the same puzzles.
    pub seed: u64,
    pub max_pieces: u32,
    /// `running`, `done`, `stopped` (a limit, a cancel or a restart came first) or `failed`.
    pub state: String,
    /// Puzzles in the collection.
    pub puzzles: u64,
    /// The run's figures: `count` asked, `progress`, `stop`, and `error` when it failed; once it
    /// ended, what its puzzles are like: `variety` (`max_key_share` and the `key_cap` it gives,
    /// `min_defenders`, `min_defenders_share`, and `defenders_kept`: the puzzles whose defender
    /// keeps them), `key_pieces` (puzzles by the kind of their key piece), `themes` (puzzles by
    /// theme tag), `difficulty` (`min`, `median`, `max`, and `buckets` `0-19` to `80-100`) and
    /// `focus` (the reach of the narrowed search, 0 for none).
    #[schema(value_type = Object)]
    pub summary: serde_json::Value,
    /// RFC 3339, UTC.
    pub created_at: String,
}

impl From<Collection> for CollectionInfo {
    fn from(c: Collection) -> CollectionInfo {
        CollectionInfo {
            url: format!("/v1/collections/{}", c.name),
            name: c.name,
            game: c.game,
            rules: c.rules,
            mate_in: c.mate_in,
            stipulation: c.stipulation,
            seed: c.seed,
            max_pieces: c.max_pieces,
            state: c.state,
            puzzles: c.puzzles,
            summary: crate::app::value(&c.summary),
            created_at: c.created_at,
        }
    }
}

/// Every collection.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(examples(json!({"items": [{"name": "twos", "url": "/v1/collections/twos", "game": "baroque",
    "rules": "abbott", "mate_in": 2, "stipulation": "#2", "seed": 42, "max_pieces": 8, "state": "done", "puzzles": 2,
    "summary": {"count": 2, "stop": "done", "progress": {"tried": 51, "found": 2, "duplicates": 0, "unsettled": 0, "nodes": 68155, "millis": 23}},
    "created_at": "2026-11-22T07:05:53.405Z"}]})))]
pub struct CollectionList {
    pub items: Vec<CollectionInfo>,
}

/// A collection and its puzzles in order.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(examples(json!({"name": "twos", "url": "/v1/collections/twos", "game": "baroque",
    "rules": "abbott", "mate_in": 2, "stipulation": "#2", "seed": 42, "max_pieces": 8, "state": "done", "puzzles": 1,
    "summary": {"count": 1, "stop": "done", "progress": {"tried": 19, "found": 1, "duplicates": 0, "unsettled": 0, "nodes": 20512, "millis": 9}},
    "created_at": "2026-11-22T07:05:53.405Z",
    "items": [{"id": 65, "kind": "mate", "game": "baroque", "fen": "7R/6P1/8/8/2K5/4k3/8/6M1 w 0",
        "rules": {"preset": "abbott", "leaper": "long", "suicide": "off", "stalemate": "draw"},
        "source": "generated", "title": null, "caption": "collection twos: seed 42, candidate 18 (random)",
        "tags": ["key-immobilizer", "mate-by-immobilizer", "mate-by-king", "mate-by-pawn", "mate-in-2", "quiet-key"],
        "moves": [], "captures": [], "mate_in": 2, "stipulation": "#2", "fixture": null, "created_at": "2026-11-22T07:05:53.418Z",
        "content_hash": "d14346d71780c27fdc4cb44ec445ee9f538858c63c8d552cdacfc908d8ebeab5"}]})))]
pub struct CollectionPuzzles {
    #[serde(flatten)]
    pub collection: CollectionInfo,
    pub items: Vec<Puzzle>,
}

/// An export's format, as `?format=` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(example = "pgn")]
pub enum ExportFormat {
    /// One JSON puzzle per line (the default).
    Jsonl,
    /// PGN, one game per puzzle.
    Pgn,
    /// Lichess's puzzle CSV.
    Csv,
}

/// `GET /v1/collections/{name}/export` parameters.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ExportQuery {
    /// `jsonl` (the default), `pgn` or `csv`.
    #[param(value_type = Option<ExportFormat>, inline)]
    pub format: Option<String>,
}

/// Examples for the OpenAPI document, computed by the engine.
pub(crate) mod examples {
    use crate::api::wire::puzzles::examples::chameleon_stored;

    /// A collection of the Chameleon mate in 2 as PGN.
    pub fn pgn_export() -> String {
        crate::formats::pgn::write_all(chameleon_stored().as_slice()).0
    }

    /// A collection of the Chameleon mate in 2 as CSV.
    pub fn csv_export() -> String {
        crate::formats::csv::write_all(chameleon_stored().as_slice()).0
    }
}
