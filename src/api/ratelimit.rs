//! Per-client rate limiting of the costly endpoints: a token bucket per client.
//!
//! Each client has a bucket of `burst` tokens that refills at `per_minute` tokens a minute; a costly
//! request takes one, and a request that finds the bucket empty is refused with 429
//! `rate-limited` and `Retry-After` (the seconds until a token is back). `per_minute` 0 turns the
//! limit off.
//!
//! What is costly is decided where the cost is known, so the set is easy to extend:
//! - a whole endpoint: put the [`Metered`] extractor first among its handler's arguments (it
//!   refuses before the body is read): `POST /v1/solve`, `POST /v1/play`, `POST /v1/collections`;
//! - part of one: call [`RateLimiter::check`] once the request is known to be costly: `POST
//!   /v1/puzzles` of a mate (which runs a search), not of a diagram (a replay of a few moves); a
//!   collection export that streams a body (not one answered 304); a stored play that leaves its
//!   proof.
//!
//! A request refused with 503 (every search, job or export slot taken, the store unavailable) gives its
//! token back ([`refund_refused`]): the client was not served, so it has not used its budget.
//!
//! The client is the peer address of the connection: an IPv4 address, or the /64 prefix of an IPv6
//! one (a host usually holds a whole /64). `X-Forwarded-For` is read only when the server is told
//! to trust it (`--trust-forwarded-for`, behind a proxy that sets it): then the client is the
//! header's last address, the one the proxy saw, since earlier ones are whatever the client wrote.
//!
//! Memory is bounded: at most [`MAX_CLIENTS`] buckets are kept. When a new client finds the map
//! full, buckets that have refilled are forgotten first (forgetting one changes nothing); if that
//! frees nothing, the least recently seen half (at least) goes (those clients start again from a full bucket).

use super::problem::ApiError;
use actix_web::body::MessageBody;
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::http::StatusCode;
use actix_web::middleware::Next;
use actix_web::{web, FromRequest, HttpMessage, HttpRequest};
use std::collections::HashMap;
use std::future::{ready, Ready};
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::Instant;

/// Most clients whose buckets are kept at once (about 40 bytes each).
pub const MAX_CLIENTS: usize = 65_536;

/// The rate limit settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateLimit {
    /// Tokens a client gets back per minute; 0 turns the limit off.
    pub per_minute: u64,
    /// Most tokens a client holds: the costly requests it may send at once.
    pub burst: u64,
    /// Whether the client is the last address of `X-Forwarded-For` rather than the peer.
    pub trust_forwarded_for: bool,
}

#[derive(Clone, Copy, Debug)]
struct Bucket {
    tokens: f64,
    last: Instant,
}

impl From<&super::configuration::Settings> for RateLimit {
    fn from(s: &super::configuration::Settings) -> RateLimit {
        RateLimit {
            per_minute: s.rate_limit_per_minute,
            burst: s.rate_limit_burst,
            trust_forwarded_for: s.trust_forwarded_for,
        }
    }
}

/// The buckets of every client, shared by the workers.
#[derive(Debug)]
pub struct RateLimiter {
    limit: RateLimit,
    max_clients: usize,
    clients: Mutex<HashMap<IpAddr, Bucket>>,
}

impl RateLimiter {
    pub fn new(limit: RateLimit) -> RateLimiter {
        RateLimiter::with_capacity(limit, MAX_CLIENTS)
    }

    /// A limiter keeping at most `max_clients` buckets.
    pub fn with_capacity(limit: RateLimit, max_clients: usize) -> RateLimiter {
        RateLimiter {
            limit,
            max_clients: max_clients.max(2),
            clients: Mutex::new(HashMap::new()),
        }
    }

    pub fn limit(&self) -> RateLimit {
        self.limit
    }

    /// Clients whose buckets are kept.
    pub fn clients(&self) -> usize {
        self.clients.lock().map_or(0, |c| c.len())
    }

    /// The client a request counts against (see the module documentation).
    pub fn client_of(&self, req: &HttpRequest) -> Option<IpAddr> {
        let forwarded = self
            .limit
            .trust_forwarded_for
            .then(|| {
                req.headers()
                    .get_all("x-forwarded-for")
                    .filter_map(|v| v.to_str().ok())
                    .flat_map(|v| v.split(','))
                    .filter_map(|a| a.trim().parse::<IpAddr>().ok())
                    .last()
            })
            .flatten();
        forwarded
            .or_else(|| req.peer_addr().map(|a| a.ip()))
            .map(client_key)
    }

    /// Takes a token of `client` at `now`: `Ok` or `Err(seconds until one is back)`.
    pub fn take_at(&self, client: IpAddr, now: Instant) -> Result<(), u64> {
        let RateLimit {
            per_minute, burst, ..
        } = self.limit;
        if per_minute == 0 {
            return Ok(());
        }
        let rate = per_minute as f64 / 60.0; // tokens a second
        let burst = burst.max(1) as f64;
        let mut clients = match self.clients.lock() {
            Ok(c) => c,
            Err(poisoned) => poisoned.into_inner(),
        };
        if !clients.contains_key(&client) && clients.len() >= self.max_clients {
            clients.retain(|_, b| {
                b.tokens + now.saturating_duration_since(b.last).as_secs_f64() * rate < burst
            });
            if clients.len() >= self.max_clients {
                let mut seen: Vec<Instant> = clients.values().map(|b| b.last).collect();
                let half = seen.len() / 2;
                seen.select_nth_unstable(half);
                let cut = seen[half];
                clients.retain(|_, b| b.last > cut);
            }
        }
        let bucket = clients.entry(client).or_insert(Bucket {
            tokens: burst,
            last: now,
        });
        let elapsed = now.saturating_duration_since(bucket.last).as_secs_f64();
        bucket.tokens = (bucket.tokens + elapsed * rate).min(burst);
        bucket.last = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(())
        } else {
            let wait = ((1.0 - bucket.tokens) / rate).ceil();
            Err((wait as u64).max(1))
        }
    }

    /// Gives a token back to `client` (never beyond a full bucket).
    pub fn refund(&self, client: IpAddr) {
        if self.limit.per_minute == 0 {
            return;
        }
        let mut clients = match self.clients.lock() {
            Ok(c) => c,
            Err(poisoned) => poisoned.into_inner(),
        };
        if let Some(bucket) = clients.get_mut(&client) {
            bucket.tokens = (bucket.tokens + 1.0).min(self.limit.burst.max(1) as f64);
        }
    }

    /// Takes a token of the request's client, or the 429 problem, and marks the request as
    /// holding it (see [`refund_refused`]). A request whose client is unknown (no peer address) is
    /// not limited.
    ///
    /// # Errors
    /// [`ApiError::RateLimited`] when the client's bucket is empty.
    pub fn check(&self, req: &HttpRequest) -> Result<(), ApiError> {
        let Some(client) = self.client_of(req) else {
            return Ok(());
        };
        self.take_at(client, Instant::now())
            .map_err(|retry_after| {
                metrics::counter!("baroque_rate_limited_total").increment(1);
                ApiError::RateLimited {
                    per_minute: self.limit.per_minute,
                    burst: self.limit.burst,
                    retry_after,
                }
            })?;
        if self.limit.per_minute > 0 {
            req.extensions_mut().insert(Taken(client));
        }
        Ok(())
    }
}

/// A request that took a token of this client.
#[derive(Clone, Copy, Debug)]
struct Taken(IpAddr);

/// The middleware that gives a refused request's token back: a response of 503 (a busy search or
/// job slot, an unavailable store) to a request that took a token.
pub async fn refund_refused(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let res = next.call(req).await?;
    if res.status() == StatusCode::SERVICE_UNAVAILABLE {
        let taken = res.request().extensions().get::<Taken>().copied();
        if let (Some(Taken(client)), Some(limiter)) =
            (taken, res.request().app_data::<web::Data<RateLimiter>>())
        {
            limiter.refund(client);
        }
    }
    Ok(res)
}

/// The key of a client address: IPv4 (an IPv4-mapped IPv6 address as IPv4), or the /64 prefix
/// of IPv6.
fn client_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let prefix = u128::from(v6) & !((1u128 << 64) - 1);
                IpAddr::V6(prefix.into())
            }
        },
    }
}

/// An extractor that takes a token of the request's client (see [`RateLimiter::check`]); placed
/// first among a handler's arguments, it refuses before the body is read. Without a limiter in
/// the application data, nothing is limited.
pub struct Metered;

impl FromRequest for Metered {
    type Error = ApiError;
    type Future = Ready<Result<Metered, ApiError>>;
    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(match req.app_data::<web::Data<RateLimiter>>() {
            Some(limiter) => limiter.check(req).map(|()| Metered),
            None => Ok(Metered),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::Ipv4Addr;
    use std::time::Duration;

    fn limiter(per_minute: u64, burst: u64, max: usize) -> RateLimiter {
        RateLimiter::with_capacity(
            RateLimit {
                per_minute,
                burst,
                trust_forwarded_for: false,
            },
            max,
        )
    }

    fn ip(n: u32) -> IpAddr {
        IpAddr::V4(Ipv4Addr::from(n))
    }

    #[test]
    fn a_burst_then_one_token_per_interval() {
        let l = limiter(60, 3, 16);
        let t0 = Instant::now();
        for _ in 0..3 {
            assert_eq!(l.take_at(ip(1), t0), Ok(()));
        }
        assert_eq!(l.take_at(ip(1), t0), Err(1));
        // Another client has its own bucket.
        assert_eq!(l.take_at(ip(2), t0), Ok(()));
        // One token a second comes back.
        assert_eq!(l.take_at(ip(1), t0 + Duration::from_millis(1000)), Ok(()));
        assert_eq!(l.take_at(ip(1), t0 + Duration::from_millis(1000)), Err(1));
        // Never more than the burst, however long the client waited.
        let later = t0 + Duration::from_secs(3600);
        for _ in 0..3 {
            assert_eq!(l.take_at(ip(1), later), Ok(()));
        }
        assert!(l.take_at(ip(1), later).is_err());
    }

    #[test]
    fn retry_after_is_the_wait_for_one_token() {
        let l = limiter(6, 1, 16); // a token every 10 s
        let t0 = Instant::now();
        assert_eq!(l.take_at(ip(1), t0), Ok(()));
        assert_eq!(l.take_at(ip(1), t0), Err(10));
        assert_eq!(l.take_at(ip(1), t0 + Duration::from_secs(4)), Err(6));
        assert_eq!(l.take_at(ip(1), t0 + Duration::from_secs(10)), Ok(()));
    }

    #[test]
    fn a_refund_gives_one_token_back_and_never_beyond_the_burst() {
        let l = limiter(1, 2, 16);
        let t0 = Instant::now();
        assert_eq!(l.take_at(ip(1), t0), Ok(()));
        assert_eq!(l.take_at(ip(1), t0), Ok(()));
        assert!(l.take_at(ip(1), t0).is_err());
        l.refund(ip(1));
        assert_eq!(l.take_at(ip(1), t0), Ok(()));
        assert!(l.take_at(ip(1), t0).is_err());
        for _ in 0..5 {
            l.refund(ip(1));
        }
        assert_eq!(l.take_at(ip(1), t0), Ok(()));
        assert_eq!(l.take_at(ip(1), t0), Ok(()));
        assert!(l.take_at(ip(1), t0).is_err());
        // A client never seen has nothing to give back.
        l.refund(ip(9));
        assert_eq!(l.clients(), 1);
    }

    #[test]
    fn zero_per_minute_turns_the_limit_off() {
        let l = limiter(0, 1, 16);
        let t0 = Instant::now();
        for _ in 0..100 {
            assert_eq!(l.take_at(ip(1), t0), Ok(()));
        }
        assert_eq!(l.clients(), 0);
    }

    #[test]
    fn the_map_stays_bounded_and_a_busy_client_stays_limited() {
        let l = limiter(60, 2, 64);
        let t0 = Instant::now();
        // Clients passing by once each, 100 ms apart, and one client asking all the time: the
        // passers' buckets refill and are forgotten first, so the busy one keeps its empty bucket.
        let mut granted = 0;
        for n in 1..10_000u32 {
            let now = t0 + Duration::from_millis(100 * u64::from(n));
            assert_eq!(l.take_at(ip(n), now), Ok(()));
            if l.take_at(ip(0), now).is_ok() {
                granted += 1;
            }
            assert!(l.clients() <= 64);
        }
        // 999.9 s at one token a second, plus the burst.
        assert!((999..=1002).contains(&granted), "{granted}");
        // A flood of new clients at one instant: older buckets go, the map stays bounded.
        let now = t0 + Duration::from_secs(2000);
        for n in 20_000..30_000u32 {
            assert_eq!(l.take_at(ip(n), now), Ok(()));
            assert!(l.clients() <= 64);
        }
    }

    #[test]
    fn ipv6_clients_are_their_64_prefix() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::7".parse().unwrap();
        let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(client_key(a), client_key(b));
        assert_ne!(client_key(a), client_key(c));
        let mapped: IpAddr = "::ffff:192.0.2.1".parse().unwrap();
        assert_eq!(client_key(mapped), "192.0.2.1".parse::<IpAddr>().unwrap());
    }
}
