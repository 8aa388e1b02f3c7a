//! `emulate`: the emulator (`lossylink-emu`) with the GIL released; its results as a dict of
//! metrics. Conversion and exception mapping only.

use std::path::PathBuf;
use std::time::Duration;

use emu::{Congestion, EmuError, EmulateOptions, Programs};
use lossylink::Value;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::{emu_to_pyerr, to_pyerr};
use crate::scenario::PyScenario;

/// Emulate `scenario` with real Linux TCP (needs root: CAP_NET_ADMIN and CAP_SYS_ADMIN).
///
/// Without `server` and `client`, the built-in bulk transfer sends `bytes` (a size such as
/// "512KiB"; the scenario's transfer if None) with congestion control `cc`; `buffer` sets both
/// socket buffers ("0": the scenario's `tcp.buffer`, None: the kernel's autotuning). With `pcap`, one file per direction
/// is written there (and one per hop direction); `sysctls` are `net.*` kernel settings written
/// in every namespace. With `realtime` the relay thread runs under `SCHED_FIFO` when the process
/// may (`relay_realtime` in the results says whether it did). SIGINT and SIGTERM end the run
/// cleanly (`interrupted` is then true).
#[pyfunction]
#[pyo3(signature = (scenario, seed = 1, cc = "reno", bytes = None, buffer = None, server = None, client = None, time_limit = 600.0, pcap = None, sysctls = Vec::new(), realtime = true))]
#[allow(clippy::too_many_arguments)]
pub fn emulate<'py>(
    py: Python<'py>,
    scenario: &Bound<'py, PyScenario>,
    seed: u64,
    cc: &str,
    bytes: Option<String>,
    buffer: Option<String>,
    server: Option<String>,
    client: Option<String>,
    time_limit: f64,
    pcap: Option<PathBuf>,
    sysctls: Vec<(String, String)>,
    realtime: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let scenario = scenario.borrow().inner.clone();
    let cc = Congestion::parse(cc).map_err(emu_to_pyerr)?;
    let size = |option: &'static str, v: Option<String>| -> PyResult<Option<u64>> {
        v.map(|v| {
            lossylink::units::parse_size(&v)
                .map_err(|message| emu_to_pyerr(EmuError::Option { option, message }))
        })
        .transpose()
    };
    let bytes = size("bytes", bytes)?;
    if bytes == Some(0) {
        return Err(emu_to_pyerr(EmuError::Option {
            option: "bytes",
            message: "0 is not allowed: the built-in transfer sends at least 1 byte".into(),
        }));
    }
    let buffer = match size("buffer", buffer)? {
        Some(b) => Some(u32::try_from(b).map_err(|_| {
            emu_to_pyerr(EmuError::Option {
                option: "buffer",
                message: format!("{b} bytes is more than a socket buffer can be"),
            })
        })?),
        None => None,
    };
    if !(time_limit.is_finite() && time_limit > 0.0) {
        return Err(emu_to_pyerr(EmuError::Option {
            option: "time_limit",
            message: format!("{time_limit} is not a positive number of seconds"),
        }));
    }
    let programs = if server.is_some() || client.is_some() {
        Programs::Commands { server, client }
    } else {
        Programs::Bulk { bytes }
    };
    let opts = EmulateOptions {
        seed,
        cc,
        programs,
        buffer,
        time_limit: Duration::from_secs_f64(time_limit),
        pcap_dir: pcap,
        stop: None,
        sysctls,
        realtime,
    };
    let r = py
        .allow_threads(|| emu::emulate(&scenario, &opts))
        .map_err(|e| match e {
            EmuError::Scenario(e) => to_pyerr(e),
            e => emu_to_pyerr(e),
        })?;
    let d = PyDict::new(py);
    for (k, v) in r.metrics() {
        match v {
            Value::Int(i) => d.set_item(k, i)?,
            Value::Float(f) => d.set_item(k, f)?,
            Value::Str(s) => d.set_item(k, s)?,
            Value::Bool(b) => d.set_item(k, b)?,
        }
    }
    let files: Vec<String> = r
        .pcap_files
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    d.set_item("pcap", files)?;
    // The sender's TCP_INFO samples: (seconds, cwnd bytes, ssthresh bytes or None, ca_state).
    if let Some(b) = &r.bulk {
        let samples: Vec<(f64, u64, Option<u64>, u8)> = b
            .kernel
            .samples
            .iter()
            .map(|s| {
                (
                    s.t.as_secs_f64(),
                    s.cwnd_bytes,
                    s.ssthresh_bytes,
                    s.ca_state,
                )
            })
            .collect();
        d.set_item("cwnd_samples", samples)?;
    }
    d.set_item("removed_stale", r.removed_stale)?;
    Ok(d)
}
