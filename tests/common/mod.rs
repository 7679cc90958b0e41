//! Helpers of the tests that run the real binary's `serve` as a child process.
#![allow(dead_code)] // each test binary uses its own part

use std::time::Duration;

/// An HTTP client that returns 4xx and 5xx answers instead of failing, with a 20 s timeout.
pub fn agent() -> ureq::Agent {
    ureq::Agent::new_with_config(
        ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(20)))
            .build(),
    )
}

/// The `HOST:PORT` of a server's "listening on http://HOST:PORT" line, when `text` holds it
/// whole.
pub fn listening_addr(text: &str) -> Option<String> {
    let rest = text.split("listening on http://").nth(1)?;
    let addr: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | ':' | '[' | ']'))
        .collect();
    let port = addr.rsplit_once(':')?.1;
    // A port is whole once something other than a digit follows it.
    let whole = rest.len() > addr.len() && !port.is_empty();
    whole.then_some(addr)
}
