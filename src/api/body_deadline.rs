//! The request body's deadline: a body must arrive within `--body-timeout-ms` of the request's
//! start, else the request ends in 408 `body-timeout` (actix cuts slow headers and idle
//! connections itself, but not a body sent a byte at a time).
//!
//! [`deadline`] wraps the payload stream of every request that has a body: when the stream would
//! wait past the deadline it ends with an I/O error of kind `TimedOut`, which the JSON extractor's
//! error handler turns into the problem. The timer is armed only when the body is not all there
//! (most bodies arrive with their headers and never wait).

use actix_web::body::MessageBody;
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::error::PayloadError;
use actix_web::middleware::Next;
use actix_web::rt::time::{sleep_until, Sleep};
use actix_web::web::{self, Bytes};
use actix_web::HttpMessage;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

/// How long a request body may take to arrive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BodyTimeout(pub Duration);

/// The error a late body ends with (inside an `io::Error` of kind `TimedOut`).
#[derive(Debug, thiserror::Error)]
#[error("the request body did not arrive within {millis} ms")]
struct Late {
    millis: u64,
}

/// The timeout in milliseconds that a `TimedOut` error of [`deadline`] names.
pub fn timeout_millis(e: &std::io::Error) -> u64 {
    e.get_ref()
        .and_then(|inner| inner.downcast_ref::<Late>())
        .map_or(0, |late| late.millis)
}

/// A payload stream that fails once its deadline has passed while it waits.
struct Deadline {
    inner: Payload,
    at: actix_web::rt::time::Instant,
    millis: u64,
    timer: Option<Pin<Box<Sleep>>>,
    done: bool,
}

impl futures_core::Stream for Deadline {
    type Item = Result<Bytes, PayloadError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.done {
            return Poll::Ready(None);
        }
        match Pin::new(&mut self.inner).poll_next(cx) {
            Poll::Pending => {}
            ready => return ready,
        }
        let at = self.at;
        let timer = self.timer.get_or_insert_with(|| Box::pin(sleep_until(at)));
        match timer.as_mut().poll(cx) {
            Poll::Pending => Poll::Pending,
            Poll::Ready(()) => {
                self.done = true;
                let late = Late {
                    millis: self.millis,
                };
                Poll::Ready(Some(Err(PayloadError::Io(std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    late,
                )))))
            }
        }
    }
}

/// Whether a request announces a body (a length above zero, or a chunked transfer).
fn has_body(req: &ServiceRequest) -> bool {
    let headers = req.headers();
    let length = headers
        .get(actix_web::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    let chunked = headers
        .get(actix_web::http::header::TRANSFER_ENCODING)
        .is_some();
    chunked || length.is_some_and(|n| n > 0)
}

/// The middleware: puts the deadline on the body of every request that has one.
pub async fn deadline(
    mut req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let timeout = req.app_data::<web::Data<BodyTimeout>>().map(|t| t.0);
    if let (Some(timeout), true) = (timeout, has_body(&req)) {
        let inner = req.take_payload();
        let stream = Deadline {
            inner,
            at: actix_web::rt::time::Instant::now() + timeout,
            millis: u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX),
            timer: None,
            done: false,
        };
        let boxed: Pin<Box<dyn futures_core::Stream<Item = Result<Bytes, PayloadError>>>> =
            Box::pin(stream);
        req.set_payload(Payload::from(boxed));
    }
    next.call(req).await
}
