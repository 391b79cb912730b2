//! Accepting connections from strangers: a cap on open connections per address and in all,
//! a deadline for a request's head (slowloris), an idle timeout on every connection (WebSockets
//! too: the server pings them), and the descriptor limit raised at start.

use axum::Router;
use axum::extract::ConnectInfo;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::{Instant, Sleep};

/// How long and how many connections the server keeps open.
#[derive(Clone, Copy, Debug)]
pub struct ConnectionLimits {
    /// Open connections from one address at most (more are closed as they are accepted).
    pub per_address: usize,
    /// Open connections in all at most.
    pub total: usize,
    /// Time a client has to send a request's head.
    pub header_read: Duration,
    /// Time a connection may go without sending a byte (a WebSocket answers the server's
    /// pings, which come more often).
    pub idle: Duration,
}

/// Raise the soft limit on open descriptors to the hard limit; the limit now in force.
pub fn raise_descriptor_limit() -> u64 {
    use rustix::process::{Resource, getrlimit, setrlimit};
    let mut limit = getrlimit(Resource::Nofile);
    if limit.current != limit.maximum {
        limit.current = limit.maximum;
        // Refused (a container's policy): the old limit stays, and is what is reported.
        let _ = setrlimit(Resource::Nofile, limit);
    }
    getrlimit(Resource::Nofile).current.unwrap_or(u64::MAX)
}

/// The open connections, by address.
#[derive(Default)]
struct Open {
    by_address: HashMap<IpAddr, usize>,
    total: usize,
}

/// One accepted connection's place in the count, given back when it closes.
struct Admitted {
    open: Arc<Mutex<Open>>,
    ip: IpAddr,
}

impl Drop for Admitted {
    fn drop(&mut self) {
        if let Ok(mut open) = self.open.lock() {
            open.total -= 1;
            if let Some(n) = open.by_address.get_mut(&self.ip) {
                *n -= 1;
                if *n == 0 {
                    open.by_address.remove(&self.ip);
                }
            }
        }
    }
}

fn admit(open: &Arc<Mutex<Open>>, ip: IpAddr, limits: &ConnectionLimits) -> Option<Admitted> {
    let mut counts = open.lock().ok()?;
    let here = counts.by_address.get(&ip).copied().unwrap_or(0);
    if here >= limits.per_address || counts.total >= limits.total {
        return None;
    }
    counts.total += 1;
    *counts.by_address.entry(ip).or_insert(0) += 1;
    Some(Admitted {
        open: open.clone(),
        ip,
    })
}

/// Serve `router` on `listener` until `shutdown` completes; then let open requests finish.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()>,
) {
    let open = Arc::new(Mutex::new(Open::default()));
    // Shutdown: `stop` tells every connection to finish; `done` is closed when all have.
    let (stop, stopping) = tokio::sync::watch::channel(());
    let (done, running) = tokio::sync::watch::channel(());
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of descriptors (or another passing error): wait, and accept again.
                    eprintln!("deckspec serve: accepting a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        // Past a cap the connection is closed at once, before anything is read.
        let Some(admitted) = admit(&open, peer.ip(), &limits) else {
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let io = TokioIo::new(IdleStream::new(stream, limits.idle, admitted));
        let service = TowerToHyperService::new(
            router
                .clone()
                .layer(axum::Extension(ConnectInfo::<SocketAddr>(peer))),
        );
        let mut builder = hyper::server::conn::http1::Builder::new();
        builder
            .timer(TokioTimer::new())
            .header_read_timeout(limits.header_read)
            .max_buf_size(64 * 1024);
        let mut stopping = stopping.clone();
        let running = running.clone();
        tokio::spawn(async move {
            let mut connection =
                std::pin::pin!(builder.serve_connection(io, service).with_upgrades());
            tokio::select! {
                _ = connection.as_mut() => {}
                _ = stopping.changed() => {
                    connection.as_mut().graceful_shutdown();
                    let _ = connection.await;
                }
            }
            drop(running);
        });
    }
    drop(listener);
    // Requests in flight finish (a WebSocket is its own task, closed by the runtime's end).
    let _ = stop.send(());
    drop(running);
    let _ = tokio::time::timeout(Duration::from_secs(5), done.closed()).await;
}

/// A connection that fails a read once the client has sent nothing for `idle`; it holds the
/// connection's place in the count until it is dropped (after an upgrade too).
struct IdleStream {
    inner: TcpStream,
    idle: Duration,
    deadline: Pin<Box<Sleep>>,
    _admitted: Admitted,
}

impl IdleStream {
    fn new(inner: TcpStream, idle: Duration, admitted: Admitted) -> IdleStream {
        IdleStream {
            inner,
            idle,
            deadline: Box::pin(tokio::time::sleep(idle)),
            _admitted: admitted,
        }
    }
}

impl AsyncRead for IdleStream {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        match Pin::new(&mut self.inner).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                if buf.filled().len() > before {
                    let next = Instant::now() + self.idle;
                    self.deadline.as_mut().reset(next);
                }
                Poll::Ready(Ok(()))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => match self.deadline.as_mut().poll(cx) {
                Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "the client sent nothing for too long",
                ))),
                Poll::Pending => Poll::Pending,
            },
        }
    }
}

impl AsyncWrite for IdleStream {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}
