//! Clients that stop reading: a response whose client takes nothing of it for `--write-timeout`
//! has its connection closed, and its memory freed.
//!
//! actix writes a response as fast as its client reads it, and while the client reads nothing the
//! response waits, whole, for as long as the connection stays open: a 16 MB solve answer, or an
//! export's pages. Every response body that is not small (more than [`WATCHED_ABOVE`] bytes, or
//! of unknown size, as a streamed export) is handed out in slices of at most [`SLICE`] bytes by a
//! [`Watched`] body, which notes when it last handed one out (actix asks for the next once the
//! system has taken what it holds). A [`Watchdog`] thread looks at the watched bodies every
//! quarter of the timeout (at most every second). One that handed out nothing for the whole
//! timeout is stalled only if the connection's own send queue has not moved either
//! (`ioctl(TIOCOUTQ)`: a client that reads slowly but steadily drains it, even while the system
//! waits for a third of its buffer to be free before it takes more); a stalled connection is
//! reset (`SO_LINGER` 0, then `shutdown(2)` of both directions, so the system drops what it
//! still holds for it). The HTTP layer then fails its next write, drops the connection and the
//! body with it, and the process gives the freed memory back to the system.
//!
//! The watchdog works on a duplicate of the connection's socket ([`Peer::duplicate`]), taken when
//! the body is watched and closed when the body is dropped: it never reaches a socket that a
//! later connection got under the same number. A body whose socket cannot be duplicated (the
//! process out of descriptors) goes unwatched.

use super::costly_work::Peer;
use actix_web::body::{BodySize, BoxBody, EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::web::{self, Bytes};
use std::collections::HashMap;
use std::os::fd::{AsRawFd, OwnedFd};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

/// Bodies of at most this many bytes are not watched: the system's socket buffers take them
/// whole, whether the client reads or not.
pub const WATCHED_ABOVE: u64 = 64 * 1024;

/// The most bytes a watched body hands out at once (compression, outside the watch, encodes each
/// slice on its own).
pub const SLICE: usize = 256 * 1024;

/// The least time between two returns of freed memory to the system, unless a connection was
/// closed.
const TRIM_EVERY: Duration = Duration::from_secs(30);

/// The watched bodies of one server, and the thread that closes the stalled ones.
#[derive(Debug)]
pub struct Watchdog {
    shared: Arc<Shared>,
}

#[derive(Debug)]
struct Shared {
    timeout: Duration,
    start: Instant,
    next_id: AtomicU64,
    watched: Mutex<HashMap<u64, Entry>>,
    /// A large body was freed since the last look: memory to give back.
    freed: AtomicBool,
}

#[derive(Debug)]
struct Entry {
    socket: OwnedFd,
    /// Milliseconds since `start` when the body last handed out a slice, or [`WAITING`].
    asked: Arc<AtomicU64>,
    /// `asked` when the watchdog last saw it change.
    last_asked: u64,
    /// The bytes of the connection's send queue then (or at the last renewal).
    queued: Option<i32>,
    closed: bool,
}

/// The bytes the system still holds to send on `socket` (sent or not, not yet acknowledged).
fn send_queue(socket: &OwnedFd) -> Option<i32> {
    let mut bytes: libc::c_int = 0;
    // SAFETY: TIOCOUTQ writes one int through the pointer, which points to `bytes`.
    let r = unsafe { libc::ioctl(socket.as_raw_fd(), libc::TIOCOUTQ, &mut bytes) };
    (r == 0).then_some(bytes)
}

/// Resets the connection of `socket`: what the system holds for it is dropped.
fn reset(socket: &OwnedFd) {
    let linger = libc::linger {
        l_onoff: 1,
        l_linger: 0,
    };
    // SAFETY: plain socket calls on a descriptor this entry owns; `linger` outlives the call.
    unsafe {
        libc::setsockopt(
            socket.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_LINGER,
            (&linger as *const libc::linger).cast(),
            std::mem::size_of::<libc::linger>() as libc::socklen_t,
        );
        libc::shutdown(socket.as_raw_fd(), libc::SHUT_RDWR);
    }
}

/// `asked` of a body that was asked for more and has none yet (an export waiting for its next page
/// from the store): its client waits for the server, not the other way round.
const WAITING: u64 = u64::MAX;

impl Shared {
    fn now(&self) -> u64 {
        u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX)
    }
}

impl Watchdog {
    /// A watchdog closing connections whose client read nothing for `timeout`, with its thread
    /// (which ends once the watchdog is dropped).
    pub fn start(timeout: Duration) -> std::io::Result<Watchdog> {
        let shared = Arc::new(Shared {
            timeout,
            start: Instant::now(),
            next_id: AtomicU64::new(0),
            watched: Mutex::new(HashMap::new()),
            freed: AtomicBool::new(false),
        });
        let every = (timeout / 4).clamp(Duration::from_millis(50), Duration::from_secs(1));
        let weak = Arc::downgrade(&shared);
        std::thread::Builder::new()
            .name("write-timeout".into())
            .spawn(move || watch(&weak, every))?;
        Ok(Watchdog { shared })
    }

    /// Watches a body whose connection is `peer`'s: `None` when the connection's socket is not
    /// known (not TCP) or cannot be duplicated.
    fn watch(&self, peer: Peer) -> Option<Watch> {
        let socket = peer.duplicate()?;
        let id = self.shared.next_id.fetch_add(1, Ordering::Relaxed);
        let asked = Arc::new(AtomicU64::new(self.shared.now()));
        let entry = Entry {
            socket,
            asked: Arc::clone(&asked),
            last_asked: WAITING,
            queued: None,
            closed: false,
        };
        self.shared
            .watched
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id, entry);
        Some(Watch {
            id,
            asked,
            shared: Arc::clone(&self.shared),
        })
    }

    /// Bodies watched now.
    pub fn watched(&self) -> usize {
        self.shared
            .watched
            .lock()
            .map_or(0, |w| w.values().filter(|e| !e.closed).count())
    }
}

/// The watchdog's thread: every `every`, shuts down the connections of the bodies not asked for
/// more within the timeout, and gives freed memory back to the system.
fn watch(shared: &Weak<Shared>, every: Duration) {
    let mut trimmed = Instant::now();
    loop {
        std::thread::sleep(every);
        let Some(shared) = shared.upgrade() else {
            return;
        };
        let now = shared.now();
        let timeout = u64::try_from(shared.timeout.as_millis()).unwrap_or(u64::MAX);
        let mut closed = 0u64;
        {
            let mut watched = shared.watched.lock().unwrap_or_else(|e| e.into_inner());
            for entry in watched.values_mut() {
                let asked = entry.asked.load(Ordering::Relaxed);
                if entry.closed || asked == WAITING {
                    entry.last_asked = WAITING;
                    continue;
                }
                if asked != entry.last_asked {
                    // The body moved: the send queue is noted as it stands now.
                    entry.last_asked = asked;
                    entry.queued = send_queue(&entry.socket);
                    continue;
                }
                if now.saturating_sub(asked) < timeout {
                    continue;
                }
                // Nothing handed out for the timeout: stalled, unless the client took some of
                // what the system holds since the body last moved (it reads, slowly: the
                // timeout starts again).
                let queued = send_queue(&entry.socket);
                if queued.is_some() && queued != entry.queued {
                    entry.asked.store(now, Ordering::Relaxed);
                    entry.last_asked = now;
                    entry.queued = queued;
                    continue;
                }
                reset(&entry.socket);
                entry.closed = true;
                closed += 1;
            }
        }
        if closed > 0 {
            metrics::counter!("baroque_http_write_timeouts_total").increment(closed);
            tracing::warn!(
                connections = closed,
                timeout_s = shared.timeout.as_secs_f64(),
                "closed connections whose clients read nothing of their answers"
            );
        }
        if (closed > 0 || trimmed.elapsed() >= TRIM_EVERY)
            && shared.freed.swap(false, Ordering::AcqRel)
        {
            give_back_memory();
            trimmed = Instant::now();
        }
    }
}

/// Gives the memory freed inside the allocator back to the system (glibc keeps it otherwise).
fn give_back_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases free memory of the allocator's own arenas.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// A watched body's registration, removed (and its duplicate socket closed) when dropped.
#[derive(Debug)]
struct Watch {
    id: u64,
    asked: Arc<AtomicU64>,
    shared: Arc<Shared>,
}

impl Drop for Watch {
    fn drop(&mut self) {
        let entry = self
            .shared
            .watched
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&self.id);
        drop(entry);
        self.shared.freed.store(true, Ordering::Release);
    }
}

/// A response body handed out in slices of at most [`SLICE`] bytes, noting when it last handed
/// one out (the HTTP layer asks for the next once its client has taken most of the last).
pub struct Watched {
    body: BoxBody,
    size: BodySize,
    rest: Bytes,
    watch: Watch,
}

impl MessageBody for Watched {
    type Error = Box<dyn std::error::Error>;

    fn size(&self) -> BodySize {
        self.size
    }

    fn poll_next(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Bytes, Self::Error>>> {
        let this = &mut *self;
        loop {
            if !this.rest.is_empty() {
                let n = this.rest.len().min(SLICE);
                this.watch
                    .asked
                    .store(this.watch.shared.now(), Ordering::Relaxed);
                return Poll::Ready(Some(Ok(this.rest.split_to(n))));
            }
            match Pin::new(&mut this.body).poll_next(cx) {
                Poll::Ready(Some(Ok(chunk))) => this.rest = chunk,
                Poll::Ready(Some(Err(e))) => return Poll::Ready(Some(Err(e))),
                Poll::Ready(None) => return Poll::Ready(None),
                Poll::Pending => {
                    this.watch.asked.store(WAITING, Ordering::Relaxed);
                    return Poll::Pending;
                }
            }
        }
    }
}

/// The middleware: watches every response body above [`WATCHED_ABOVE`] bytes, or of unknown size.
pub async fn watch_writes<B: MessageBody + 'static>(
    req: ServiceRequest,
    next: Next<B>,
) -> Result<ServiceResponse<EitherBody<B, Watched>>, actix_web::Error> {
    let peer = req.conn_data::<Peer>().copied().unwrap_or_default();
    let watchdog = req.app_data::<web::Data<Watchdog>>().cloned();
    let res = next.call(req).await?;
    Ok(res.map_body(move |_, body| {
        let size = body.size();
        let large = match size {
            BodySize::None => false,
            BodySize::Sized(n) => n > WATCHED_ABOVE,
            BodySize::Stream => true,
        };
        match watchdog.filter(|_| large).and_then(|w| w.watch(peer)) {
            Some(watch) => EitherBody::right(Watched {
                body: body.boxed(),
                size,
                rest: Bytes::new(),
                watch,
            }),
            None => EitherBody::left(body),
        }
    }))
}
