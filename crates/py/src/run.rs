//! Running scenarios, with the GIL released for the whole simulation, and the scheme registry.

use lossylink::{RunOptions, RunResult};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::convert::result_to_dict;
use crate::errors::to_pyerr;
use crate::scenario::PyScenario;

/// Run `scenario` once with master seed `seed`.
///
/// Returns `{"metrics": {...}, "trace": None | {table: {column: numpy array}}}`. The GIL is
/// released while the simulation runs, so Python threads can run scenarios in parallel.
#[pyfunction]
#[pyo3(signature = (scenario, seed, trace = false))]
pub fn run<'py>(
    py: Python<'py>,
    scenario: &Bound<'py, PyScenario>,
    seed: u64,
    trace: bool,
) -> PyResult<Bound<'py, PyDict>> {
    // Work on a copy, so Python may use (even mutate) the scenario while we run.
    let scenario = scenario.borrow().inner.clone();
    let opts = RunOptions {
        trace,
        ..RunOptions::default()
    };
    let result = py
        .allow_threads(|| lossylink::run(&scenario, seed, &opts))
        .map_err(to_pyerr)?;
    result_to_dict(py, result)
}

/// Run `scenario` once per seed, in order, releasing the GIL once for all of them.
///
/// Returns a list of dicts shaped like `run`'s; the first failing seed raises.
#[pyfunction]
#[pyo3(signature = (scenario, seeds, trace = false))]
pub fn run_seeds<'py>(
    py: Python<'py>,
    scenario: &Bound<'py, PyScenario>,
    seeds: Vec<u64>,
    trace: bool,
) -> PyResult<Bound<'py, PyList>> {
    let scenario = scenario.borrow().inner.clone();
    let opts = RunOptions {
        trace,
        ..RunOptions::default()
    };
    let results: Vec<RunResult> = py
        .allow_threads(|| {
            seeds
                .iter()
                .map(|&seed| lossylink::run(&scenario, seed, &opts))
                .collect::<Result<Vec<_>, _>>()
        })
        .map_err(to_pyerr)?;
    let out = PyList::empty(py);
    for result in results {
        out.append(result_to_dict(py, result)?)?;
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
