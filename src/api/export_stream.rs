//! An export's body as a stream: the export slots (at most `--max-exports` at once, one per
//! client), the chunks handed out as the client reads them, and the export's tag.

use crate::api::common::etag;
use crate::api::costly_work::Slots;
use crate::api::problem::ApiError;
use crate::app::export::Export;
use crate::formats::Format;
use actix_web::web;
use std::time::Duration;

/// Seconds a client refused for every export slot being taken is asked to wait.
pub const EXPORT_RETRY_AFTER: u64 = 5;

/// The write timeout an export goes by when the server's `--write-timeout` is not known: it waits
/// ten times that for its client to take the next chunk before it gives up and frees its slot.
pub const EXPORT_SEND_WAIT: Duration =
    Duration::from_secs(crate::api::configuration::DEFAULT_WRITE_TIMEOUT);

/// The export slots: at most `--max-exports` exports stream at once, and at most
/// `--max-exports-per-client` of one client, so that one client cannot hold them all.
#[derive(Debug)]
pub struct ExportSlots {
    slots: Slots,
    per_client: usize,
    clients: std::sync::Arc<std::sync::Mutex<std::collections::HashMap<std::net::IpAddr, usize>>>,
}

/// An export's slot and its client's share, given back when dropped (when the export ends, fails
/// or its client leaves).
#[derive(Debug)]
pub struct ExportSlot {
    _slot: crate::api::costly_work::Slot,
    client: Option<std::net::IpAddr>,
    clients: std::sync::Arc<std::sync::Mutex<std::collections::HashMap<std::net::IpAddr, usize>>>,
}

impl Drop for ExportSlot {
    fn drop(&mut self) {
        let Some(client) = self.client else { return };
        let mut clients = self.clients.lock().unwrap_or_else(|e| e.into_inner());
        if let std::collections::hash_map::Entry::Occupied(mut e) = clients.entry(client) {
            *e.get_mut() -= 1;
            if *e.get() == 0 {
                e.remove();
            }
        }
    }
}

impl ExportSlots {
    /// `max` slots in all, `per_client` of them at most for one client.
    pub fn new(max: usize, per_client: usize) -> ExportSlots {
        ExportSlots {
            slots: Slots::new(max),
            per_client: per_client.max(1),
            clients: Default::default(),
        }
    }

    /// Takes a slot for `client` (the rate limiter's client; `None`, unknown, has no share of
    /// its own): refused when the client holds its share, or when every slot is taken.
    ///
    /// # Errors
    /// [`ApiError::ExportsBusyForClient`] and [`ApiError::ExportsBusy`].
    pub fn try_acquire(&self, client: Option<std::net::IpAddr>) -> Result<ExportSlot, ApiError> {
        // The client's count is raised under the lock before the slot is taken, and lowered
        // again if none is free: two exports of one client cannot both pass its share.
        let mut clients = self.clients.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(c) = client {
            let held = clients.get(&c).copied().unwrap_or(0);
            if held >= self.per_client {
                return Err(ApiError::ExportsBusyForClient {
                    limit: self.per_client as u64,
                    retry_after: EXPORT_RETRY_AFTER,
                });
            }
        }
        let slot = self.slots.try_acquire().ok_or(ApiError::ExportsBusy {
            limit: self.slots.max() as u64,
            retry_after: EXPORT_RETRY_AFTER,
        })?;
        if let Some(c) = client {
            *clients.entry(c).or_insert(0) += 1;
        }
        Ok(ExportSlot {
            _slot: slot,
            client,
            clients: std::sync::Arc::clone(&self.clients),
        })
    }

    /// Slots taken now.
    pub fn in_use(&self) -> usize {
        self.slots.in_use()
    }
}

/// The strong `ETag` of an export: of the collection's stored version
/// ([`crate::app::Library::collection_version`]), the format and this build (an export's bytes
/// are a function of the three).
pub fn export_tag(name: &str, format: Format, version: &str) -> String {
    etag(format!(
        "{name}\n{}\n{version}\n{}",
        format.name(),
        build_stamp()
    ))
}

/// The body of a streamed export: its chunks are made on the blocking pool, one page at a time,
/// and handed over through a channel of two, so that an export holds a few pages whatever its
/// size; the slot is given back when the export ends, fails, or its client leaves or takes
/// nothing for `wait`. An export given up ends its response with an error (the connection is cut),
/// never as if it were whole.
pub fn stream(mut work: Export, slot: ExportSlot, wait: Duration) -> Chunks {
    let (tx, rx) = tokio::sync::mpsc::channel(2);
    let whole = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let done = std::sync::Arc::clone(&whole);
    actix_web::rt::spawn(async move {
        let _slot = slot;
        loop {
            let Ok((back, next)) = web::block(move || {
                let next = work.next_chunk();
                (work, next)
            })
            .await
            else {
                break;
            };
            work = back;
            let item = match next {
                Ok(Some(chunk)) if chunk.is_empty() => continue,
                Ok(Some(chunk)) => Ok(web::Bytes::from(chunk)),
                Ok(None) => {
                    done.store(true, std::sync::atomic::Ordering::Release);
                    break;
                }
                Err(e) => {
                    tracing::error!(error = %e, "an export failed; its response is cut short");
                    Err(std::io::Error::other(e))
                }
            };
            let failed = item.is_err();
            match actix_web::rt::time::timeout(wait, tx.send(item)).await {
                Ok(Ok(())) if !failed => {}
                _ => break,
            }
        }
    });
    Chunks { rx, whole }
}

/// A response body fed by a channel; `whole` is set once the export has sent its last chunk.
pub struct Chunks {
    rx: tokio::sync::mpsc::Receiver<Result<web::Bytes, std::io::Error>>,
    whole: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl futures_core::Stream for Chunks {
    type Item = Result<web::Bytes, std::io::Error>;
    fn poll_next(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Self::Item>> {
        use std::task::Poll;
        match self.rx.poll_recv(cx) {
            Poll::Ready(None) if !self.whole.load(std::sync::atomic::Ordering::Acquire) => {
                // Given up before its end: cut the response rather than end it as if whole.
                self.whole.store(true, std::sync::atomic::Ordering::Release);
                Poll::Ready(Some(Err(std::io::Error::other(
                    "the export was given up before its end",
                ))))
            }
            other => other,
        }
    }
}

/// This build, for tags of what it writes: the version, and the size and modification time of
/// the executable (so that two builds of one version tag their exports apart).
pub fn build_stamp() -> &'static str {
    static STAMP: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    STAMP.get_or_init(|| {
        let exe = std::env::current_exe()
            .and_then(std::fs::metadata)
            .ok()
            .map(|m| {
                let modified = m
                    .modified()
                    .ok()
                    .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                    .map_or(0, |d| d.as_nanos());
                format!("{}:{modified}", m.len())
            })
            .unwrap_or_default();
        format!("{}+{exe}", env!("CARGO_PKG_VERSION"))
    })
}
