//! Costly work off the HTTP workers, bounded and abandoned with its client.
//!
//! - [`Searches`]: at most `concurrency` searches at once (one more is refused at once with 503
//!   `solver-busy`), run on a pool of background threads of lower priority than the HTTP workers,
//!   so that `/health` and the cheap endpoints keep answering while every search slot is busy.
//! - [`Analyses`]: at most `concurrency` costly analyses in flight (Rococo analysis, verification
//!   of a line of moves: each at most tens of milliseconds), running on one thread per core or
//!   waiting for one; 503 `analysis-busy` beyond, so the backlog stays bounded.
//!
//! Both hand the work a [`Cancel`] that is raised when the client goes away: actix keeps an HTTP/1
//! request's future running after its client closed the connection, so while the work runs its
//! connection is looked at every [`WATCH_EVERY`] ([`Peer`]): once it is closed (the end of the
//! stream or a reset, as Go's server also reads it), the flag is raised, the work stops at its
//! next check (a search within a few milliseconds, an analysis at its next move) and its slot is
//! free again. The flag is raised too when the request's future is dropped.
//!
//! A client that only shut down its sending side still waits for an answer, but cannot be told
//! from one that left: it is answered 499 `client-closed`, never with a result cut short.

use super::problem::ApiError;
use crate::solver::Cancel;
use actix_web::dev::{Extensions, Payload};
use actix_web::{FromRequest, HttpRequest};
use std::any::Any;
use std::future::{ready, Ready};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// How often the connection of a request whose work is running is looked at.
pub const WATCH_EVERY: Duration = Duration::from_millis(20);

/// The socket of a request's connection, remembered when the connection opens
/// ([`remember_peer`]); an extractor.
#[derive(Clone, Copy, Debug, Default)]
pub struct Peer(Option<i32>);

/// The `on_connect` hook of the server: remembers each TCP connection's socket.
pub fn remember_peer(conn: &dyn Any, data: &mut Extensions) {
    #[cfg(unix)]
    if let Some(tcp) = conn.downcast_ref::<actix_web::rt::net::TcpStream>() {
        use std::os::fd::AsRawFd;
        data.insert(Peer(Some(tcp.as_raw_fd())));
    }
    #[cfg(not(unix))]
    let _ = (conn, data);
}

impl FromRequest for Peer {
    type Error = std::convert::Infallible;
    type Future = Ready<Result<Peer, Self::Error>>;
    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(Ok(req.conn_data::<Peer>().copied().unwrap_or_default()))
    }
}

impl Peer {
    /// A duplicate of the connection's socket (closed when dropped), or `None` when the socket is
    /// not known or cannot be duplicated: shutting it down ends the connection, and it stays
    /// this connection's even after actix closes its own descriptor.
    pub fn duplicate(self) -> Option<std::os::fd::OwnedFd> {
        #[cfg(unix)]
        if let Some(fd) = self.0 {
            use std::os::fd::FromRawFd;
            // SAFETY: `fd` is the socket of the connection of the request being answered, open
            // while its response is made; the duplicate is a new descriptor owned by the result.
            let copy = unsafe { libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 0) };
            if copy >= 0 {
                // SAFETY: `copy` is a descriptor just made, owned by nothing else.
                return Some(unsafe { std::os::fd::OwnedFd::from_raw_fd(copy) });
            }
        }
        None
    }

    /// Whether the client has closed the connection (its end of the stream, or a reset). Bytes
    /// waiting to be read (a pipelined request) are left where they are.
    fn gone(self) -> bool {
        #[cfg(unix)]
        if let Some(fd) = self.0 {
            let mut byte = 0u8;
            // SAFETY: `fd` is the socket of the connection of the request being served: actix
            // keeps it open while the request's future, which calls this, is alive. A peek with
            // MSG_DONTWAIT neither blocks nor consumes anything.
            let n = unsafe {
                libc::recv(
                    fd,
                    (&mut byte as *mut u8).cast(),
                    1,
                    libc::MSG_PEEK | libc::MSG_DONTWAIT,
                )
            };
            if n == 0 {
                return true;
            }
            if n < 0 {
                let e = std::io::Error::last_os_error().kind();
                return !matches!(
                    e,
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::Interrupted
                );
            }
        }
        false
    }
}

/// A slot of a bounded set, given back when dropped (when the work ends, even if its client left).
#[derive(Debug)]
pub struct Slot(Arc<AtomicUsize>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// A fixed number of slots; a request that finds every slot taken is refused at once rather than
/// queued behind work of seconds.
#[derive(Debug)]
pub struct Slots {
    in_use: Arc<AtomicUsize>,
    max: usize,
}

impl Slots {
    pub fn new(max: usize) -> Slots {
        Slots {
            in_use: Arc::new(AtomicUsize::new(0)),
            max: max.max(1),
        }
    }

    /// Takes a slot, or `None` when all are taken.
    pub fn try_acquire(&self) -> Option<Slot> {
        self.in_use
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < self.max).then_some(n + 1)
            })
            .ok()
            .map(|_| Slot(Arc::clone(&self.in_use)))
    }

    /// The number of slots.
    pub fn max(&self) -> usize {
        self.max
    }

    /// Slots taken now.
    pub fn in_use(&self) -> usize {
        self.in_use.load(Ordering::Acquire)
    }
}

/// Raises a [`Cancel`] when dropped: held by a request's future, it stops the request's work when
/// actix drops the future because the client went away.
struct CancelOnDrop(Cancel);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

pub use crate::app::lower_priority;

/// Runs `work` on `pool` and awaits its answer; `work` gets a cancel flag raised when the client
/// of `peer` goes away or the awaiting future is dropped. A panic in `work` is an internal error
/// (500), not a lost thread.
async fn run_on<T: Send + 'static>(
    pool: &rayon::ThreadPool,
    slot: Slot,
    peer: Peer,
    work: impl FnOnce(&Cancel) -> T + Send + 'static,
) -> Result<T, ApiError> {
    let cancel = Cancel::new();
    let guard = CancelOnDrop(cancel.clone());
    let (tx, mut rx) = tokio::sync::oneshot::channel();
    {
        let cancel = cancel.clone();
        let span = tracing::Span::current();
        pool.spawn(move || {
            let _request = span.enter();
            let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(&cancel)));
            drop(slot);
            let _ = tx.send(answer);
        });
    }
    let mut left = false;
    let answer = loop {
        match actix_web::rt::time::timeout(WATCH_EVERY, &mut rx).await {
            Ok(answer) => break answer,
            Err(_) if peer.gone() => {
                cancel.cancel();
                left = true;
                // The work stops at its next check; what it has done is not an answer.
                break rx.await;
            }
            Err(_) => {}
        }
    };
    drop(guard);
    if left {
        return Err(ApiError::ClientClosed);
    }
    match answer {
        Ok(Ok(t)) => Ok(t),
        Ok(Err(_)) => Err(ApiError::Internal("the work panicked".into())),
        Err(_) => Err(ApiError::Internal(
            "the work ended without an answer".into(),
        )),
    }
}

/// The server's searches (`/v1/solve`, a mate posted to `/v1/puzzles`).
#[derive(Debug)]
pub struct Searches {
    slots: Slots,
    pool: rayon::ThreadPool,
    retry_after: u64,
}

impl Searches {
    /// `concurrency` searches, each started on a background thread of its own (a search of several
    /// threads adds its helpers, which inherit the lower priority); a refusal asks to retry after
    /// `retry_after` seconds. The time bound of a search is kept with the defaults (two searches of
    /// a thread per core); many more search threads than cores can delay an answer beyond it.
    ///
    /// # Errors
    /// When the threads cannot be started.
    pub fn new(concurrency: usize, retry_after: u64) -> std::io::Result<Searches> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(concurrency.max(1))
            .thread_name(|i| format!("search-{i}"))
            .start_handler(|_| lower_priority())
            .build()
            .map_err(std::io::Error::other)?;
        Ok(Searches {
            slots: Slots::new(concurrency),
            pool,
            retry_after: retry_after.max(1),
        })
    }

    /// Takes a search slot.
    ///
    /// # Errors
    /// [`ApiError::SolverBusy`] when every slot is taken.
    pub fn try_acquire(&self) -> Result<Slot, ApiError> {
        self.slots.try_acquire().ok_or(ApiError::SolverBusy {
            limit: self.slots.max() as u64,
            retry_after: self.retry_after,
        })
    }

    /// Runs a search holding `slot` on the search threads (stopped when its client goes away).
    ///
    /// # Errors
    /// [`ApiError::Internal`] when the search panicked.
    pub async fn run<T: Send + 'static>(
        &self,
        slot: Slot,
        peer: Peer,
        work: impl FnOnce(&Cancel) -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        run_on(&self.pool, slot, peer, work).await
    }

    /// Searches running now.
    pub fn running(&self) -> usize {
        self.slots.in_use()
    }
}

/// The server's costly analyses (Rococo `/v1/analyze`, `/v1/verify`): at most `concurrency` in
/// flight, run by one thread per core.
#[derive(Debug)]
pub struct Analyses {
    slots: Slots,
    pool: rayon::ThreadPool,
}

impl Analyses {
    /// At most `concurrency` analyses in flight, run by `threads` threads.
    ///
    /// # Errors
    /// When the threads cannot be started.
    pub fn new(concurrency: usize, threads: usize) -> std::io::Result<Analyses> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(1))
            .thread_name(|i| format!("analysis-{i}"))
            .build()
            .map_err(std::io::Error::other)?;
        Ok(Analyses {
            slots: Slots::new(concurrency),
            pool,
        })
    }

    /// Runs an analysis if a slot is free.
    ///
    /// # Errors
    /// [`ApiError::AnalysisBusy`] when every slot is taken, [`ApiError::Internal`] when the
    /// analysis panicked.
    pub async fn run<T: Send + 'static>(
        &self,
        peer: Peer,
        work: impl FnOnce(&Cancel) -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let slot = self.slots.try_acquire().ok_or(ApiError::AnalysisBusy {
            limit: self.slots.max() as u64,
        })?;
        run_on(&self.pool, slot, peer, work).await
    }
}

#[cfg(test)]
mod tests {
    use super::Slots;

    #[test]
    fn slots_are_given_back_when_dropped() {
        let slots = Slots::new(2);
        let a = slots.try_acquire().unwrap();
        let b = slots.try_acquire().unwrap();
        assert!(slots.try_acquire().is_none());
        drop(a);
        let c = slots.try_acquire().unwrap();
        assert!(slots.try_acquire().is_none());
        assert_eq!(slots.in_use(), 2);
        drop((b, c));
        assert!(slots.try_acquire().is_some());
    }
}
