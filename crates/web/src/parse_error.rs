//! The answers to requests that are not HTTP at all, in the API's error shape.
//!
//! hyper answers a request it cannot parse before any of the app's code runs: 400 for a
//! garbage request line or header, 414 for a target over 65,534 bytes, 431 for a head over its
//! buffer. It writes the status line, a `content-length: 0` and a date, and closes the
//! connection: an empty body where every other error of the server is `{"error": ...}` with
//! `content-type: application/json`. hyper has no hook for these answers, so the connection's
//! socket is wrapped: a response head that hyper wrote for a parse error (one of those three
//! statuses, no `content-type`, an empty body: the app's own errors always carry a JSON
//! body) is replaced on its way out by the same status with a JSON body.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// A connection's socket whose parse-error answers are rewritten as JSON.
pub(crate) struct JsonParseErrors<S> {
    inner: S,
    /// A rewritten answer being written: its bytes, how many are written, and how many
    /// bytes of hyper's own answer it stands for (reported written once it is all out).
    pending: Option<(Vec<u8>, usize, usize)>,
}

impl<S> JsonParseErrors<S> {
    pub(crate) fn new(inner: S) -> Self {
        JsonParseErrors { inner, pending: None }
    }
}

/// The JSON answer standing for `head`, when `head` is hyper's answer to a parse error.
fn rewrite(head: &[u8]) -> Option<Vec<u8>> {
    let message = match head.get(..13)? {
        b"HTTP/1.1 400 " => "malformed request: the request line or a header is not valid HTTP/1.1",
        b"HTTP/1.1 414 " => "the request target is too long (at most 65,534 bytes)",
        b"HTTP/1.1 431 " => "the request head is too large (over 100 headers or about 400 KiB)",
        _ => return None,
    };
    let end = head.windows(4).position(|w| w == b"\r\n\r\n")?;
    // Only a head with nothing after it: hyper's answer has no body.
    if end + 4 != head.len() {
        return None;
    }
    let text = std::str::from_utf8(&head[..end]).ok()?.to_ascii_lowercase();
    let mut lines = text.split("\r\n");
    let status = lines.next()?;
    let mut empty = false;
    for line in lines {
        if line.starts_with("content-type:") {
            return None;
        }
        empty |= line.replace(' ', "") == "content-length:0";
    }
    if !empty {
        return None;
    }
    let body = serde_json::json!({ "error": message }).to_string();
    let status = &head[..status.len()];
    let mut answer = Vec::with_capacity(status.len() + body.len() + 96);
    answer.extend_from_slice(status);
    answer.extend_from_slice(
        format!(
            "\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
            body.len()
        )
        .as_bytes(),
    );
    answer.extend_from_slice(body.as_bytes());
    Some(answer)
}

impl<S: AsyncWrite + Unpin> JsonParseErrors<S> {
    /// Writes the pending rewritten answer; ready with the length it stands for once done.
    fn poll_pending(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<usize>> {
        while let Some((bytes, written, _)) = &mut self.pending {
            if *written == bytes.len() {
                let (_, _, stands_for) = self.pending.take().unwrap_or_default();
                return Poll::Ready(Ok(stands_for));
            }
            let n = ready!(Pin::new(&mut self.inner).poll_write(cx, &bytes[*written..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            *written += n;
        }
        Poll::Ready(Ok(0))
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for JsonParseErrors<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for JsonParseErrors<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        if self.pending.is_none() {
            match rewrite(buf) {
                Some(answer) => self.pending = Some((answer, 0, buf.len())),
                None => return Pin::new(&mut self.inner).poll_write(cx, buf),
            }
        }
        self.poll_pending(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        if self.pending.is_none() {
            // hyper's answer to a parse error is its head alone, in one buffer.
            let mut nonempty = bufs.iter().filter(|b| !b.is_empty());
            if let (Some(head), None) = (nonempty.next(), nonempty.next()) {
                if let Some(answer) = rewrite(head) {
                    self.pending = Some((answer, 0, head.len()));
                }
            }
            if self.pending.is_none() {
                return Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
            }
        }
        self.poll_pending(cx)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::rewrite;

    #[test]
    fn hypers_empty_answers_to_parse_errors_become_json() {
        let head = b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\ndate: Wed, 25 Nov 2026 02:00:00 GMT\r\n\r\n";
        let answer = String::from_utf8(rewrite(head).unwrap()).unwrap();
        assert_eq!(
            answer,
            "HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: application/json\r\n\
             content-length: 77\r\nconnection: close\r\n\r\n{\"error\":\"the request head is too large (over 100 headers or about 400 KiB)\"}"
        );
    }

    #[test]
    fn the_apps_own_answers_pass_unchanged() {
        // A JSON error, a success, a head followed by its body, an empty 404 from elsewhere.
        for head in [
            &b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: 0\r\n\r\n"[..],
            b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n",
            b"HTTP/1.1 400 Bad Request\r\ncontent-length: 2\r\n\r\n{}",
            b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n",
            b"HTTP/1.1 400 Bad Request\r\ntransfer-encoding: chunked\r\n\r\n",
        ] {
            assert_eq!(rewrite(head), None, "{}", String::from_utf8_lossy(head));
        }
    }
}
