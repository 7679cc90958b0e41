//! A problem's history: who composed it, where and when it was published, its award, its
//! keywords and notes. None of it is verified or part of the puzzle's content (its hash): it is
//! given with the puzzle, and corrected later without touching the position, the stipulation or
//! the verified outcome ([`HistoryPatch`]).

/// The most authors of one problem.
pub const MAX_AUTHORS: usize = 20;
/// The most keywords of one problem.
pub const MAX_KEYWORDS: usize = 50;
/// The longest name, award, keyword or source, in characters.
pub const MAX_FIELD: usize = 500;
/// The longest notes, in characters.
pub const MAX_NOTES: usize = 20_000;

/// A problem's history (every part optional).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct History {
    /// The composers, as they sign.
    pub authors: Vec<String>,
    /// When it was published: `YYYY` or `YYYY-MM-DD`.
    pub published: Option<String>,
    /// Its award (`1st Prize`, `Commendation`), as the award's judge wrote it.
    pub award: Option<String>,
    /// Free keywords (`Grimshaw`, `miniature`).
    pub keywords: Vec<String>,
    /// Anything else: the problem's story, a correction, a comment.
    pub notes: Option<String>,
}

impl History {
    /// Whether nothing is known.
    pub fn is_empty(&self) -> bool {
        *self == History::default()
    }

    /// The history with surrounding blanks trimmed and empty entries dropped, or what is wrong
    /// with it, naming the field (`authors[2]`, `published`).
    ///
    /// # Errors
    /// A date that is neither `YYYY` nor `YYYY-MM-DD` (a real day, year 1000 to 9999), too many
    /// authors or keywords, a text too long or holding a control character.
    pub fn checked(self) -> Result<History, HistoryError> {
        Ok(History {
            authors: list("authors", self.authors, MAX_AUTHORS)?,
            published: match self.published {
                Some(date) => check_date(&date)?,
                None => None,
            },
            award: text("award", self.award, MAX_FIELD)?,
            keywords: list("keywords", self.keywords, MAX_KEYWORDS)?,
            notes: text("notes", self.notes, MAX_NOTES)?,
        })
    }

    /// The year it was published.
    pub fn year(&self) -> Option<u32> {
        self.published
            .as_deref()
            .and_then(|d| d.get(..4)?.parse().ok())
    }
}

/// What is wrong with a history: the field (`authors[2]`) and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{field}`: {message}")]
pub struct HistoryError {
    pub field: String,
    pub message: String,
}

fn error(field: impl Into<String>, message: impl Into<String>) -> HistoryError {
    HistoryError {
        field: field.into(),
        message: message.into(),
    }
}

/// One text field trimmed (`None` when blank), or why it is refused.
fn text(field: &str, value: Option<String>, max: usize) -> Result<Option<String>, HistoryError> {
    let Some(value) = value else { return Ok(None) };
    let value = value.trim();
    if value.chars().count() > max {
        return Err(error(field, format!("at most {max} characters")));
    }
    // Notes keep their lines; the one-line fields keep none.
    let allowed = |c: char| !c.is_control() || (field == "notes" && (c == '\n' || c == '\t'));
    if let Some(c) = value.chars().find(|&c| !allowed(c)) {
        return Err(error(
            field,
            format!("holds the control character U+{:04X}", u32::from(c)),
        ));
    }
    Ok((!value.is_empty()).then(|| value.to_string()))
}

/// A list of one-line texts trimmed, the blank ones and repeats dropped, or why it is refused.
fn list(field: &str, values: Vec<String>, max: usize) -> Result<Vec<String>, HistoryError> {
    if values.len() > max {
        return Err(error(field, format!("at most {max} entries")));
    }
    let mut out: Vec<String> = Vec::with_capacity(values.len());
    for (i, v) in values.into_iter().enumerate() {
        if let Some(v) = text(&format!("{field}[{i}]"), Some(v), MAX_FIELD)? {
            if !out.contains(&v) {
                out.push(v);
            }
        }
    }
    Ok(out)
}

/// A publication date, `YYYY` or `YYYY-MM-DD`, as given (blank: none).
fn check_date(date: &str) -> Result<Option<String>, HistoryError> {
    let date = date.trim();
    if date.is_empty() {
        return Ok(None);
    }
    let wrong = || {
        error(
            "published",
            format!(
                "{:?} is not a date: write YYYY or YYYY-MM-DD (1851 or 1851-06-21)",
                date.chars().take(40).collect::<String>()
            ),
        )
    };
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if !date.is_ascii() {
        return Err(wrong());
    }
    let (year, rest) = date.split_at(date.len().min(4));
    if year.len() != 4 || !digits(year) || year.starts_with('0') {
        return Err(wrong());
    }
    if rest.is_empty() {
        return Ok(Some(date.to_string()));
    }
    let parts: Vec<&str> = rest.split('-').collect();
    let ["", month, day] = parts[..] else {
        return Err(wrong());
    };
    if month.len() != 2 || day.len() != 2 || !digits(month) || !digits(day) {
        return Err(wrong());
    }
    let (y, m, d): (u32, u32, u32) = (
        year.parse().map_err(|_| wrong())?,
        month.parse().map_err(|_| wrong())?,
        day.parse().map_err(|_| wrong())?,
    );
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return Err(wrong()),
    };
    if d == 0 || d > days {
        return Err(wrong());
    }
    Ok(Some(date.to_string()))
}

/// A correction of a stored problem's history and source: each part given replaces the stored
/// one (`Some(None)` or an empty list clears it), each part left out stays.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HistoryPatch {
    pub authors: Option<Vec<String>>,
    pub published: Option<Option<String>>,
    pub award: Option<Option<String>>,
    pub keywords: Option<Vec<String>>,
    pub notes: Option<Option<String>>,
    /// The publication (the stored puzzle's `source`).
    pub source: Option<Option<String>>,
}

impl HistoryPatch {
    /// Whether it changes nothing.
    pub fn is_empty(&self) -> bool {
        *self == HistoryPatch::default()
    }

    /// `history` and `source` with this correction applied and checked.
    ///
    /// # Errors
    /// What [`History::checked`] refuses, and a source too long.
    pub fn apply(
        self,
        history: &History,
        source: Option<&str>,
    ) -> Result<(History, Option<String>), HistoryError> {
        let h = History {
            authors: self.authors.unwrap_or_else(|| history.authors.clone()),
            published: self.published.unwrap_or_else(|| history.published.clone()),
            award: self.award.unwrap_or_else(|| history.award.clone()),
            keywords: self.keywords.unwrap_or_else(|| history.keywords.clone()),
            notes: self.notes.unwrap_or_else(|| history.notes.clone()),
        };
        let source = match self.source {
            Some(s) => text("source", s, MAX_FIELD)?,
            None => source.map(str::to_string),
        };
        Ok((h.checked()?, source))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_a_year_or_a_real_day() {
        for good in ["1851", "1851-06-21", "2000-02-29", " 1999 "] {
            assert!(check_date(good).is_ok(), "{good}");
        }
        for bad in [
            "851",
            "1851-6-21",
            "1851-13-01",
            "1900-02-29",
            "1851-06-31",
            "0999",
            "18x1",
            "1851-06",
            "1851-06-21-1",
            "June 1851",
        ] {
            let e = check_date(bad).unwrap_err();
            assert_eq!(e.field, "published", "{bad}");
        }
        assert_eq!(check_date("  ").unwrap(), None);
    }

    #[test]
    fn a_history_is_trimmed_and_its_faults_named() {
        let h = History {
            authors: vec![" A. Composer ".into(), "".into(), "A. Composer".into()],
            published: Some("1999-12-31".into()),
            award: Some(" 1st Prize ".into()),
            keywords: vec!["Grimshaw".into()],
            notes: Some("line one\nline two".into()),
        }
        .checked()
        .unwrap();
        assert_eq!(h.authors, ["A. Composer"]);
        assert_eq!(h.award.as_deref(), Some("1st Prize"));
        assert_eq!(h.year(), Some(1999));
        let e = History {
            keywords: vec!["ok".into(), "bad\u{7}".into()],
            ..History::default()
        }
        .checked()
        .unwrap_err();
        assert_eq!(e.field, "keywords[1]");
        let e = History {
            authors: vec!["x".into(); MAX_AUTHORS + 1],
            ..History::default()
        }
        .checked()
        .unwrap_err();
        assert_eq!(e.field, "authors");
    }

    #[test]
    fn a_patch_replaces_what_it_names_and_keeps_the_rest() {
        let stored = History {
            authors: vec!["A".into()],
            award: Some("Prize".into()),
            ..History::default()
        };
        let patch = HistoryPatch {
            award: Some(None),
            published: Some(Some("2001".into())),
            source: Some(Some("The Problemist".into())),
            ..HistoryPatch::default()
        };
        let (h, source) = patch.apply(&stored, Some("old")).unwrap();
        assert_eq!(h.authors, ["A"]);
        assert_eq!(h.award, None);
        assert_eq!(h.published.as_deref(), Some("2001"));
        assert_eq!(source.as_deref(), Some("The Problemist"));
        let (_, kept) = HistoryPatch::default().apply(&stored, Some("old")).unwrap();
        assert_eq!(kept.as_deref(), Some("old"));
    }
}
