//! Reading a trace file a scenario names (a delivery trace, an erasure trace, a GSM block file)
//! with bounds: it must be a regular file, and at most [`max_trace_bytes`] long, so
//! that `/dev/zero`, `/dev/urandom` or a FIFO is a clear error instead of memory growing without
//! end or a hang.

use crate::error::Error;
use std::io::Read;

/// The largest trace file read, unless `LOSSYLINK_MAX_TRACE_BYTES` says otherwise: 64 MiB, far
/// above recorded traces (Mahimahi's cellular traces are under a megabyte).
pub const DEFAULT_MAX_TRACE_BYTES: u64 = 64 << 20;

/// The environment variable that raises (or lowers) the limit, in bytes.
pub const MAX_TRACE_BYTES_VAR: &str = "LOSSYLINK_MAX_TRACE_BYTES";

/// The limit on a trace file's size: `LOSSYLINK_MAX_TRACE_BYTES` if it is a whole number of
/// bytes, else [`DEFAULT_MAX_TRACE_BYTES`].
pub fn max_trace_bytes() -> u64 {
    std::env::var(MAX_TRACE_BYTES_VAR)
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(DEFAULT_MAX_TRACE_BYTES)
}

/// The text of the trace file at `path`, named by `field` in errors: a regular file of at most
/// `limit` bytes, in UTF-8.
pub(crate) fn read_trace(field: &str, path: &str, limit: u64) -> Result<String, Error> {
    let fail = |m: String| Error::invalid(field, m);
    let meta = std::fs::metadata(path).map_err(|e| fail(format!("cannot read '{path}': {e}")))?;
    if !meta.is_file() {
        return Err(fail(format!(
            "'{path}' is not a regular file (a trace cannot be a device, a FIFO or a directory)"
        )));
    }
    let too_big = || {
        fail(format!(
            "'{path}' is larger than the {limit}-byte limit on trace files (raise it with {MAX_TRACE_BYTES_VAR})"
        ))
    };
    if meta.len() > limit {
        return Err(too_big());
    }
    // Read at most one byte past the limit: a file that grows after the check (or a special
    // file that reports no size) cannot be read without end.
    let file = std::fs::File::open(path).map_err(|e| fail(format!("cannot read '{path}': {e}")))?;
    let mut text = String::new();
    file.take(limit.saturating_add(1))
        .read_to_string(&mut text)
        .map_err(|e| fail(format!("cannot read '{path}': {e}")))?;
    if text.len() as u64 > limit {
        return Err(too_big());
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str, text: &str) -> std::path::PathBuf {
        let p = std::env::temp_dir().join(format!("lossylink-trace-{}-{name}", std::process::id()));
        std::fs::write(&p, text).unwrap();
        p
    }

    #[test]
    fn a_trace_is_a_regular_file_within_the_limit() {
        let p = temp("ok", "10\n20\n");
        let path = p.to_str().unwrap();
        assert_eq!(
            read_trace("links.0.delivery", path, 100).unwrap(),
            "10\n20\n"
        );
        let e = read_trace("links.0.delivery", path, 5)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("links.0.delivery: "), "{e}");
        assert!(
            e.contains("5-byte limit") && e.contains(MAX_TRACE_BYTES_VAR),
            "{e}"
        );
        std::fs::remove_file(p).unwrap();
        // A device: refused before anything is read.
        let e = read_trace("links.0.error.file", "/dev/zero", 100)
            .unwrap_err()
            .to_string();
        assert!(e.contains("not a regular file"), "{e}");
        let e = read_trace("links.0.error.file", "/nonexistent/x", 100)
            .unwrap_err()
            .to_string();
        assert!(e.contains("cannot read '/nonexistent/x'"), "{e}");
        assert!(e.len() < 300 && !e.contains('\n'), "{e}");
    }
}
