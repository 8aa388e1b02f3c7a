//! Running scenarios, with the GIL released for the whole simulation, and the scheme registry.

use std::path::{Path, PathBuf};

use lossylink::{Error, RunOptions, RunResult};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::convert::result_to_dict;
use crate::errors::to_pyerr;
use crate::scenario::PyScenario;

/// Run once, and write the pcap files into `pcap` if given; returns the result and the paths.
fn run_one(
    scenario: &lossylink::Scenario,
    seed: u64,
    opts: &RunOptions,
    pcap: Option<&Path>,
) -> Result<(RunResult, Option<Vec<PathBuf>>), Error> {
    let mut result = lossylink::run(scenario, seed, opts)?;
    let paths = match (pcap, result.capture.take()) {
        (Some(dir), Some(capture)) => Some(capture.write_dir(dir)?),
        _ => None,
    };
    Ok((result, paths))
}

/// Run `scenario` once with master seed `seed`.
///
/// Returns `{"metrics": {...}, "trace": None | {table: {column: numpy array}}, "pcap": None |
/// [path, ...]}`. With `pcap` (a directory), one pcap file per link direction is written there.
/// The GIL is released while the simulation runs, so Python threads can run scenarios in
/// parallel.
#[pyfunction]
#[pyo3(signature = (scenario, seed, trace = false, pcap = None))]
pub fn run<'py>(
    py: Python<'py>,
    scenario: &Bound<'py, PyScenario>,
    seed: u64,
    trace: bool,
    pcap: Option<PathBuf>,
) -> PyResult<Bound<'py, PyDict>> {
    // Work on a copy, so Python may use (even mutate) the scenario while we run.
    let scenario = scenario.borrow().inner.clone();
    let opts = RunOptions {
        trace,
        pcap: pcap.is_some(),
    };
    let (result, paths) = py
        .allow_threads(|| run_one(&scenario, seed, &opts, pcap.as_deref()))
        .map_err(to_pyerr)?;
    result_to_dict(py, result, paths)
}

/// Run `scenario` once per seed on `threads` threads (0: the usable cores), releasing the GIL
/// once for all of them; results come back in seed order and are the same for any number of
/// threads (each run is independent and deterministic).
///
/// Returns a list of dicts shaped like `run`'s; the first failing seed (in seed order) raises.
/// With `pcap`, the files of a single seed go into that directory, those of several seeds into
/// `seed<S>` subdirectories of it.
#[pyfunction]
#[pyo3(signature = (scenario, seeds, trace = false, pcap = None, threads = 0))]
pub fn run_seeds<'py>(
    py: Python<'py>,
    scenario: &Bound<'py, PyScenario>,
    seeds: Vec<u64>,
    trace: bool,
    pcap: Option<PathBuf>,
    threads: usize,
) -> PyResult<Bound<'py, PyList>> {
    let scenario = scenario.borrow().inner.clone();
    let opts = RunOptions {
        trace,
        pcap: pcap.is_some(),
    };
    let several = seeds.len() > 1;
    let one = |seed: u64| {
        let dir = pcap.as_ref().map(|d| {
            if several {
                d.join(format!("seed{seed}"))
            } else {
                d.clone()
            }
        });
        run_one(&scenario, seed, &opts, dir.as_deref())
    };
    let workers = match threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
    .min(seeds.len().max(1));
    let results = py
        .allow_threads(|| {
            if workers <= 1 {
                return seeds.iter().map(|&s| one(s)).collect::<Vec<_>>();
            }
            // Each worker takes the next seed index; results land in their seed's slot.
            let next = std::sync::atomic::AtomicUsize::new(0);
            let slots: Vec<std::sync::Mutex<Option<_>>> =
                seeds.iter().map(|_| std::sync::Mutex::new(None)).collect();
            std::thread::scope(|scope| {
                for _ in 0..workers {
                    scope.spawn(|| loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(&seed) = seeds.get(i) else { break };
                        let r = one(seed);
                        if let Ok(mut slot) = slots[i].lock() {
                            *slot = Some(r);
                        }
                    });
                }
            });
            slots
                .into_iter()
                .map(|m| {
                    m.into_inner().ok().flatten().unwrap_or_else(|| {
                        Err(Error::Simulation {
                            message: "a worker thread stopped without a result".into(),
                        })
                    })
                })
                .collect::<Vec<_>>()
        })
        .into_iter()
        .collect::<Result<Vec<_>, _>>()
        .map_err(to_pyerr)?;
    let out = PyList::empty(py);
    for (result, paths) in results {
        out.append(result_to_dict(py, result, paths)?)?;
    }
    Ok(out)
}

/// The scheme registry: one dict per scheme with `name`, `family`, `description`, `source`.
#[pyfunction]
pub fn schemes(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let out = PyList::empty(py);
    for info in lossylink::schemes() {
        let d = PyDict::new(py);
        d.set_item("name", info.name)?;
        d.set_item("family", info.family)?;
        d.set_item("description", info.description)?;
        d.set_item("source", info.source)?;
        out.append(d)?;
    }
    Ok(out)
}

/// The steady-state timer model of Ludwig2000 §3.4.2 (`lossylink::timer_model`): returns
/// `{column: numpy array}`, one row per ACK.
#[pyfunction]
#[pyo3(signature = (w, service, tick, cycles, timer, sampling))]
pub fn timer_model<'py>(
    py: Python<'py>,
    w: u32,
    service: &str,
    tick: &str,
    cycles: u32,
    timer: &str,
    sampling: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let table =
        lossylink::timer_model(w, service, tick, cycles, timer, sampling).map_err(to_pyerr)?;
    let name = table.name.clone();
    let out = crate::convert::trace_to_dict(
        py,
        lossylink::Trace {
            tables: vec![table],
        },
    )?;
    out.get_item(name)?
        .ok_or_else(|| pyo3::exceptions::PyRuntimeError::new_err("timer_model: no table"))
}
