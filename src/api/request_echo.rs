//! What the service repeats of a request in its logs and problem documents: methods and paths
//! cut to a bounded length, and paths percent-encoded where a text log line would read a field
//! delimiter, so that no client can make a line long or forge its fields.

/// The most characters of a method a problem document repeats.
pub const ECHOED_METHOD_CHARS: usize = 32;

/// `text` cut to at most `chars` characters (then `...`): what a problem document or a log line
/// repeats of what a client sent.
pub fn capped(text: &str, chars: usize) -> String {
    match text.char_indices().nth(chars) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text.to_string(),
    }
}

/// The most characters of a path a log line shows.
pub const LOGGED_PATH_CHARS: usize = 256;

/// A request path as a log line shows it: at most [`LOGGED_PATH_CHARS`] characters (cut with
/// `...`), every byte outside the unreserved and path characters of RFC 3986, and `=`,
/// percent-encoded, so that a path cannot forge a field of a text log line.
pub fn logged_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len().min(LOGGED_PATH_CHARS) + 3);
    for b in path.bytes() {
        if out.len() >= LOGGED_PATH_CHARS {
            out.push_str("...");
            break;
        }
        let plain = b.is_ascii_alphanumeric()
            || matches!(
                b,
                b'-' | b'.'
                    | b'_'
                    | b'~'
                    | b'/'
                    | b'%'
                    | b'!'
                    | b'$'
                    | b'&'
                    | b'\''
                    | b'('
                    | b')'
                    | b'*'
                    | b'+'
                    | b','
                    | b';'
                    | b':'
                    | b'@'
            );
        if plain {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}
