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

/// Run `scenario` once per seed, in order, releasing the GIL once for all of them.
///
/// Returns a list of dicts shaped like `run`'s; the first failing seed raises. With `pcap`, the
/// files of a single seed go into that directory, those of several seeds into `seed<S>`
/// subdirectories of it.
#[pyfunction]
#[pyo3(signature = (scenario, seeds, trace = false, pcap = None))]
pub fn run_seeds<'py>(
    py: Python<'py>,
    scenario: &Bound<'py, PyScenario>,
    seeds: Vec<u64>,
    trace: bool,
    pcap: Option<PathBuf>,
) -> PyResult<Bound<'py, PyList>> {
    let scenario = scenario.borrow().inner.clone();
    let opts = RunOptions {
        trace,
        pcap: pcap.is_some(),
    };
    let several = seeds.len() > 1;
    let results = py
        .allow_threads(|| {
            seeds
                .iter()
                .map(|&seed| {
                    let dir = pcap.as_ref().map(|d| {
                        if several {
                            d.join(format!("seed{seed}"))
                        } else {
                            d.clone()
                        }
                    });
                    run_one(&scenario, seed, &opts, dir.as_deref())
                })
                .collect::<Result<Vec<_>, _>>()
        })
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
