//! The page: HTML, CSS and ES modules from `crates/web/assets/`, embedded in the binary.
//!
//! No build step: the files are served as written. Each carries a strong `ETag` (a hash of
//! its bytes computed at compile time) and `Cache-Control: no-cache`, so a browser revalidates
//! and gets a 304 until the binary changes.

use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::error::{AppError, AppPath};

/// One embedded file.
#[derive(Debug)]
pub struct Asset {
    /// Its name under `/assets/`.
    pub name: &'static str,
    /// Its `Content-Type`.
    pub mime: &'static str,
    /// Its bytes.
    pub body: &'static [u8],
    etag: &'static str,
}

/// FNV-1a, at compile time: a change of any byte changes the ETag.
const fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325_u64;
    let mut i = 0;
    while i < bytes.len() {
        hash ^= bytes[i] as u64;
        hash = hash.wrapping_mul(0x0100_0000_01b3);
        i += 1;
    }
    hash
}

/// `"` + 16 hex digits + `"`, at compile time.
const fn etag_bytes(hash: u64) -> [u8; 18] {
    let digits = b"0123456789abcdef";
    let mut out = [b'"'; 18];
    let mut i = 0;
    while i < 16 {
        out[1 + i] = digits[((hash >> (60 - 4 * i)) & 0xf) as usize];
        i += 1;
    }
    out
}

macro_rules! assets {
    ($($name:literal => $mime:literal),* $(,)?) => {
        /// Every embedded file.
        pub const ASSETS: &[Asset] = &[$(
            Asset {
                name: $name,
                mime: $mime,
                body: include_bytes!(concat!("../assets/", $name)),
                etag: {
                    const BYTES: [u8; 18] = etag_bytes(fnv1a(include_bytes!(concat!("../assets/", $name))));
                    match std::str::from_utf8(&BYTES) {
                        Ok(s) => s,
                        Err(_) => panic!("an ETag is ASCII"),
                    }
                },
            },
        )*];
    };
}

assets! {
    "index.html" => "text/html; charset=utf-8",
    "style.css" => "text/css; charset=utf-8",
    "app.js" => "text/javascript; charset=utf-8",
    "puzzle.js" => "text/javascript; charset=utf-8",
    "game.js" => "text/javascript; charset=utf-8",
    "pictures.js" => "text/javascript; charset=utf-8",
    "api.js" => "text/javascript; charset=utf-8",
    "names.js" => "text/javascript; charset=utf-8",
    "helpers.js" => "text/javascript; charset=utf-8",
    "transport.js" => "text/javascript; charset=utf-8",
    "views.js" => "text/javascript; charset=utf-8",
    "stats.js" => "text/javascript; charset=utf-8",
    "game-controller.js" => "text/javascript; charset=utf-8",
    "picture-controller.js" => "text/javascript; charset=utf-8",
    "solver-controller.js" => "text/javascript; charset=utf-8",
    "results-controller.js" => "text/javascript; charset=utf-8",
    "share-controller.js" => "text/javascript; charset=utf-8",
    "search-controller.js" => "text/javascript; charset=utf-8",
    "lane.js" => "text/javascript; charset=utf-8",
    "pseudocode.js" => "text/javascript; charset=utf-8",
}

/// The page's policy: everything from this server, plus the `data:`/`blob:` images the page
/// draws and the player's own picture.
const CSP: &str = "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; \
                   script-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; \
                   frame-ancestors 'none'";

/// `GET /`.
pub async fn index(headers: HeaderMap) -> Response {
    match ASSETS.iter().find(|a| a.name == "index.html") {
        Some(asset) => serve(asset, &headers),
        None => AppError::not_found("no page in this build").into_response(),
    }
}

/// `GET /assets/{name}`.
pub async fn file(AppPath(name): AppPath<String>, headers: HeaderMap) -> Response {
    match ASSETS.iter().find(|a| a.name == name) {
        Some(asset) => serve(asset, &headers),
        None => AppError::not_found(format!("no asset {name:?}")).into_response(),
    }
}

fn serve(asset: &Asset, headers: &HeaderMap) -> Response {
    let common = [
        (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        (header::ETAG, HeaderValue::from_static(asset.etag)),
        (header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")),
    ];
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|tag| tag.trim() == asset.etag));
    if fresh {
        return (StatusCode::NOT_MODIFIED, common).into_response();
    }
    let mut response =
        (common, [(header::CONTENT_TYPE, HeaderValue::from_static(asset.mime))], asset.body)
            .into_response();
    if asset.mime.starts_with("text/html") {
        response
            .headers_mut()
            .insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn etags_differ_per_file_and_are_quoted_hex() {
        for a in ASSETS {
            assert_eq!(a.etag.len(), 18);
            assert!(a.etag.starts_with('"') && a.etag.ends_with('"'));
            assert_eq!(a.etag, std::str::from_utf8(&etag_bytes(fnv1a(a.body))).unwrap());
        }
        let mut tags: Vec<_> = ASSETS.iter().map(|a| a.etag).collect();
        tags.sort_unstable();
        tags.dedup();
        assert_eq!(tags.len(), ASSETS.len());
    }

    #[test]
    fn the_whole_page_weighs_under_200_kb() {
        // Every embedded file, loaded or not: the most a first visit can cost (issue 21).
        let total: usize = ASSETS.iter().map(|a| a.body.len()).sum();
        assert!(total < 200 * 1024, "the page's files weigh {total} bytes");
    }
}
