//! Where the store is, as the server and the commands are told (`--db`, `BAROQUE_DB`): a SQLite
//! file or a PostgreSQL URL.

use crate::store::Database;
use std::path::PathBuf;

/// The default puzzle store file.
pub const DEFAULT_DB: &str = "baroque.db";

/// Reads `--db` / `BAROQUE_DB` without ever repeating the value: clap's own message quotes what
/// it was given, a URL's password with it. A path that is not UTF-8 is a SQLite file.
#[derive(Clone, Copy, Debug)]
pub struct DatabaseParser;

impl clap::builder::TypedValueParser for DatabaseParser {
    type Value = Database;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<Database, clap::Error> {
        let Some(text) = value.to_str() else {
            return Ok(Database::Sqlite(PathBuf::from(value)));
        };
        text.parse().map_err(|e| {
            clap::Error::raw(
                clap::error::ErrorKind::ValueValidation,
                format!("invalid value for --db: {e}\n"),
            )
            .with_cmd(cmd)
        })
    }
}
