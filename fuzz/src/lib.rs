//! The invariants the fuzz targets check, one function per target (see `checks`).

pub mod checks;
