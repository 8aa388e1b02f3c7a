//! lossylink: a deterministic packet-level simulator of TCP over lossy (wireless) links.
//!
//! This facade crate owns the scenario schema (TOML/JSON), the shipped presets, the scheme
//! registry, and `run`, which builds a network from a scenario and a seed, simulates it and
//! returns the metrics of Balakrishnan et al. 1997 (§3.8) with optional traces.
//!
//! ```
//! let mut s = lossylink::Scenario::preset("lan").unwrap();
//! s.set("transfer", "256KiB").unwrap();
//! let r = lossylink::run(&s, 1, &lossylink::RunOptions::default()).unwrap();
//! assert!(r.metrics.throughput_mbps > 0.5);
//! ```

mod build;
mod capture;
mod cc;
mod emulation;
mod error;
mod flow_metrics;
mod mac_metrics;
mod metrics;
pub mod pcap;
mod queue_metrics;
pub mod radiotap;
mod retrace;
mod run;
mod run_endpoints;
mod run_gsm;
mod run_web;
mod scenario;
mod schema;
mod schemes;
mod timer_model;
mod trace;
pub mod units;
mod unmodelled;

pub use capture::files::{FileCounts, FileView, WrittenFile};
pub use capture::index::{CSV_COLUMNS, INDEX_CSV, INDEX_JSON};
pub use capture::{node_mac, port_file_name, Capture, CaptureFlow, CapturePort};
pub use emulation::{emulation_plan, EmulationPlan};
pub use engine::Progress;
pub use error::{Error, ErrorKind};
pub use flow_metrics::{jain, FlowResults};
pub use metrics::{EcnMetrics, GsmMetrics, Metrics, Value};
pub use retrace::{erasure_stats, erasure_trace, retrace};
pub use run::{run, run_reporting, RunOptions, RunResult};
pub use scenario::Scenario;
pub use schemes::{
    scheme_aliases, scheme_modifiers, schemes, ModifierInfo, SchemeAlias, SchemeInfo,
};
pub use timer_model::{timer_model, TimerModelOptions};
pub use trace::{Column, Trace, TraceTable};

/// The crate version, recorded with every result.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
