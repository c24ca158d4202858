//! HTTP/1.1 on one web connection: a request head read within its bounds and parsed by
//! `httparse`, and a response written through the connection's outbox (never
//! blocking, like every other output of the server).

use crate::net::Connection;
use std::fmt::Write as _;
use std::io::{ErrorKind, Read};
use std::time::{Duration, Instant};

/// The most a request line and its headers may take; past it the request is refused
/// (414 or 431) and the connection closed.
pub const HEAD_LIMIT: usize = 8 * 1024;

/// Headers parsed at first, on the stack: a browser sends about fifteen.
const USUAL_HEADERS: usize = 64;

/// The most headers that fit in [`HEAD_LIMIT`] (each line at least `a:` and a line
/// end): a head with more is over the limit anyway, so only the size refuses a head.
pub const MAX_HEADERS: usize = HEAD_LIMIT / 3;

/// The shortest read timeout set: the socket refuses a zero timeout.
const LEAST_WAIT: Duration = Duration::from_millis(1);

/// The request's method, as far as this read-only server cares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Method {
    Get,
    Head,
    /// Anything else: answered 405.
    Other(String),
}

/// A request head.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    pub method: Method,
    /// The path, without its query.
    pub path: String,
    /// The query, without its `?`.
    pub query: Option<String>,
    /// Whether the connection may carry another request after this one.
    pub keep_alive: bool,
}

/// What reading the next request found.
#[derive(Debug)]
pub enum Next {
    /// A request.
    Request(Request),
    /// The connection ended between requests (the client closed it, or it sat idle):
    /// nothing to answer.
    Ended,
    /// A request that cannot be served: this answer, then the connection closes.
    Refused(Response),
}

/// Reads request heads from a connection, keeping what follows one (a pipelined
/// request) for the next.
///
/// A head has one deadline for all of it, not a timeout per read: a client that
/// trickles a byte every few seconds would reset a per-read timeout for ever, holding
/// a `--max-web-clients` place.
pub struct RequestReader {
    buffer: Vec<u8>,
    /// The idle bound, and how long a head may take.
    timeout: Duration,
    /// When the connection was accepted, until its first request is read: that
    /// request's head is due `timeout` after it.
    accepted: Option<Instant>,
}

impl RequestReader {
    /// A reader for a connection accepted at `accepted`, whose heads are due within
    /// `timeout` (and which may sit idle that long between requests).
    pub fn new(accepted: Instant, timeout: Duration) -> RequestReader {
        RequestReader {
            buffer: Vec::new(),
            timeout,
            accepted: Some(accepted),
        }
    }

    /// Reads the next request head from `conn`: the first one within the timeout of
    /// the accept, a later one within the timeout of its first byte (and that byte
    /// within the timeout of the last answer).
    pub fn next(&mut self, conn: &Connection) -> Next {
        let stream = conn.stream();
        let mut due = match self.accepted.take() {
            Some(accepted) => Some(accepted + self.timeout),
            // A pipelined head began before this call: it is due from now.
            None if !self.buffer.is_empty() => Some(Instant::now() + self.timeout),
            None => None,
        };
        loop {
            if let Some(next) = self.parse() {
                return next;
            }
            if self.buffer.len() >= HEAD_LIMIT {
                return Next::Refused(too_long(&self.buffer));
            }
            let wait = due.map_or(self.timeout, |due| {
                due.saturating_duration_since(Instant::now())
            });
            if wait.is_zero() || stream.set_read_timeout(Some(wait.max(LEAST_WAIT))).is_err() {
                return self.late();
            }
            let mut chunk = [0u8; 2048];
            let room = (HEAD_LIMIT - self.buffer.len()).min(chunk.len());
            match (&*stream).read(&mut chunk[..room]) {
                Ok(0) => return Next::Ended,
                Ok(n) => {
                    self.buffer.extend_from_slice(&chunk[..n]);
                    due.get_or_insert_with(|| Instant::now() + self.timeout);
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                    return self.late();
                }
                Err(_) => return Next::Ended,
            }
        }
    }

    /// The end of a connection whose head did not arrive in time: silence is simply
    /// closed; a head begun and not finished gets 408.
    fn late(&self) -> Next {
        if self.buffer.is_empty() {
            Next::Ended
        } else {
            Next::Refused(Response::text(
                408,
                &format!(
                    "the request's head did not arrive whole within {} s",
                    self.timeout.as_secs_f64()
                ),
            ))
        }
    }

    /// The request at the front of the buffer, if it is all there.
    fn parse(&mut self) -> Option<Next> {
        if self.buffer.is_empty() {
            return None;
        }
        let mut usual = [httparse::EMPTY_HEADER; USUAL_HEADERS];
        let mut many = Vec::new();
        let mut request = httparse::Request::new(&mut usual);
        let mut parsed = request.parse(&self.buffer);
        if let Err(httparse::Error::TooManyHeaders) = parsed {
            many.resize(MAX_HEADERS, httparse::EMPTY_HEADER);
            request = httparse::Request::new(&mut many);
            parsed = request.parse(&self.buffer);
        }
        let length = match parsed {
            Ok(httparse::Status::Complete(length)) => length,
            Ok(httparse::Status::Partial) => return None,
            Err(httparse::Error::TooManyHeaders) => {
                return Some(Next::Refused(Response::text(
                    431,
                    &format!("too many header lines: at most {MAX_HEADERS}"),
                )));
            }
            Err(e) => {
                return Some(Next::Refused(Response::text(
                    400,
                    &format!("not an HTTP/1.1 request: {e}"),
                )));
            }
        };
        let method = match request.method.unwrap_or_default() {
            "GET" => Method::Get,
            "HEAD" => Method::Head,
            other => Method::Other(other.to_string()),
        };
        let target = origin_form(request.path.unwrap_or("/"));
        let (path, query) = match target.split_once('?') {
            Some((path, query)) => (path.to_string(), Some(query.to_string())),
            None => (target.to_string(), None),
        };
        let header = |name: &str| {
            request
                .headers
                .iter()
                .find(|h| h.name.eq_ignore_ascii_case(name))
                .map(|h| String::from_utf8_lossy(h.value).to_ascii_lowercase())
        };
        // A body is not expected of GET or HEAD: one that comes ends the connection
        // after the answer rather than being read as the next request.
        let has_body = header("content-length").is_some_and(|n| n.trim() != "0")
            || header("transfer-encoding").is_some();
        let keep_alive = match (request.version, header("connection").as_deref()) {
            (_, Some(value)) if value.contains("close") => false,
            (Some(0), Some(value)) => value.contains("keep-alive"),
            (Some(0), None) => false,
            _ => true,
        } && !has_body;
        self.buffer.drain(..length);
        Some(Next::Request(Request {
            method,
            path,
            query,
            keep_alive,
        }))
    }
}

/// The path and query of a request target: an absolute-form target
/// (`http://host/path`, which HTTP/1.1 servers must accept) loses its scheme and host.
fn origin_form(target: &str) -> &str {
    let scheme_ends = ["http://", "https://"]
        .iter()
        .find(|scheme| {
            target
                .get(..scheme.len())
                .is_some_and(|start| start.eq_ignore_ascii_case(scheme))
        })
        .map(|scheme| scheme.len());
    match scheme_ends {
        Some(at) => {
            let rest = &target[at..];
            rest.find(['/', '?']).map_or("/", |path| &rest[path..])
        }
        None => target,
    }
}

/// The answer to a head that passed [`HEAD_LIMIT`]: the request line alone was too
/// long (414), or its headers (431).
fn too_long(buffer: &[u8]) -> Response {
    let line_ended = buffer.windows(2).any(|w| w == b"\r\n") || buffer.contains(&b'\n');
    if line_ended {
        Response::text(
            431,
            &format!("the request's headers are over {HEAD_LIMIT} bytes"),
        )
    } else {
        Response::text(414, &format!("the request line is over {HEAD_LIMIT} bytes"))
    }
}

/// A response to send: status, content type, body and any extra headers.
#[derive(Clone, Debug)]
pub struct Response {
    pub status: u16,
    pub content_type: &'static str,
    pub body: Vec<u8>,
    pub headers: Vec<(&'static str, String)>,
}

impl Response {
    /// A response with `body` of `content_type`.
    pub fn new(status: u16, content_type: &'static str, body: impl Into<Vec<u8>>) -> Response {
        Response {
            status,
            content_type,
            body: body.into(),
            headers: Vec::new(),
        }
    }

    /// A plain-text response (its text and a line end).
    pub fn text(status: u16, text: &str) -> Response {
        Response::new(status, "text/plain; charset=utf-8", format!("{text}\n"))
    }

    /// A JSON response.
    pub fn json(status: u16, json: &str) -> Response {
        Response::new(status, "application/json", json.to_string())
    }

    /// The same response with one more header.
    pub fn with_header(mut self, name: &'static str, value: impl Into<String>) -> Response {
        self.headers.push((name, value.into()));
        self
    }

    /// Sends the response on `conn` (its head only for a HEAD request). Never waits:
    /// the connection's outbox takes it.
    pub fn send(&self, conn: &Connection, head_only: bool, keep_alive: bool) {
        let mut head = format!("HTTP/1.1 {} {}\r\n", self.status, reason(self.status));
        let _ = write!(head, "Content-Type: {}\r\n", self.content_type);
        let _ = write!(head, "Content-Length: {}\r\n", self.body.len());
        head.push_str(SECURITY_HEADERS);
        for (name, value) in &self.headers {
            let _ = write!(head, "{name}: {value}\r\n");
        }
        head.push_str(if keep_alive {
            "Connection: keep-alive\r\n\r\n"
        } else {
            "Connection: close\r\n\r\n"
        });
        let _ = conn.send_bytes(head.as_bytes());
        if !head_only && !self.body.is_empty() {
            let _ = conn.send_bytes(&self.body);
        }
    }
}

/// Headers on every response: nothing is loaded from elsewhere, no inline script runs,
/// nothing is cached (every page is live), no type is sniffed.
pub const SECURITY_HEADERS: &str = "Content-Security-Policy: default-src 'self'\r\nX-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\n";

/// The reason phrase of a status code.
pub fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        414 => "URI Too Long",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        _ => "Error",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Option<Next> {
        let mut reader = RequestReader::new(Instant::now(), Duration::from_secs(30));
        reader.buffer.extend_from_slice(text.as_bytes());
        reader.parse()
    }

    #[test]
    fn a_get_with_a_query_keeps_its_connection_open() {
        let Some(Next::Request(request)) =
            parse("GET /api/results?limit=5 HTTP/1.1\r\nHost: x\r\n\r\n")
        else {
            panic!("a request");
        };
        assert_eq!(
            request,
            Request {
                method: Method::Get,
                path: "/api/results".into(),
                query: Some("limit=5".into()),
                keep_alive: true,
            }
        );
    }

    #[test]
    fn an_absolute_form_target_is_its_path() {
        for (target, path) in [
            ("http://lab:8003/healthz", "/healthz"),
            ("HTTP://lab", "/"),
            ("https://lab/api/results?limit=2", "/api/results"),
            ("/game/go/1", "/game/go/1"),
        ] {
            let Some(Next::Request(request)) = parse(&format!("GET {target} HTTP/1.1\r\n\r\n"))
            else {
                panic!("a request: {target}");
            };
            assert_eq!(request.path, path, "{target}");
        }
    }

    /// Only the size of a head refuses it: a small head of many short headers is a
    /// request like any other.
    #[test]
    fn many_short_headers_within_the_limit_are_a_request() {
        let head = format!("GET / HTTP/1.1\r\n{}\r\n", "a: b\r\n".repeat(1000));
        assert!(head.len() < HEAD_LIMIT);
        assert!(matches!(parse(&head), Some(Next::Request(_))));
    }

    #[test]
    fn close_http_1_0_and_bodies_end_the_connection_after_the_answer() {
        for text in [
            "GET / HTTP/1.1\r\nConnection: close\r\n\r\n",
            "GET / HTTP/1.0\r\n\r\n",
            "GET / HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc",
        ] {
            let Some(Next::Request(request)) = parse(text) else {
                panic!("a request: {text:?}");
            };
            assert!(!request.keep_alive, "{text:?}");
        }
        let Some(Next::Request(request)) = parse("POST /x HTTP/1.1\r\n\r\n") else {
            panic!("a request");
        };
        assert_eq!(request.method, Method::Other("POST".into()));
    }

    #[test]
    fn a_half_sent_head_waits_and_garbage_is_a_bad_request() {
        assert!(parse("GET / HTTP/1.1\r\nHost:").is_none());
        assert!(matches!(
            parse("\x00\x01 nonsense\r\n\r\n"),
            Some(Next::Refused(Response { status: 400, .. }))
        ));
    }

    #[test]
    fn an_over_long_head_is_414_or_431_as_the_line_ends_or_not() {
        let line = format!("GET /{} HTTP/1.1", "a".repeat(HEAD_LIMIT));
        assert_eq!(too_long(line.as_bytes()).status, 414);
        let headers = format!("GET / HTTP/1.1\r\nX: {}", "a".repeat(HEAD_LIMIT));
        assert_eq!(too_long(headers.as_bytes()).status, 431);
    }
}
