//! The invariants the fuzz targets check, one function per target (see `checks`, and
//! `web_checks` for the web API's request body, behind the `web` feature).

pub mod checks;
#[cfg(feature = "web")]
pub mod web_checks;
