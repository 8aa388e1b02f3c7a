//! Running scenarios, with the GIL released for the whole simulation, and the scheme registry.

use std::path::{Path, PathBuf};
use std::sync::Arc;

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
    run_one_reporting(scenario, seed, opts, pcap, None)
}

fn run_one_reporting(
    scenario: &lossylink::Scenario,
    seed: u64,
    opts: &RunOptions,
    pcap: Option<&Path>,
    progress: Option<&lossylink::Progress>,
) -> Result<(RunResult, Option<Vec<PathBuf>>), Error> {
    let mut result = lossylink::run_reporting(scenario, seed, opts, progress)?;
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
/// parallel. With `progress`, the run writes how far it has come into it (read it from another
/// thread while the call runs).
#[pyfunction]
#[pyo3(signature = (scenario, seed, trace = false, pcap = None, progress = None))]
pub fn run<'py>(
    py: Python<'py>,
    scenario: &Bound<'py, PyScenario>,
    seed: u64,
    trace: bool,
    pcap: Option<PathBuf>,
    progress: Option<PyRef<'py, PyProgress>>,
) -> PyResult<Bound<'py, PyDict>> {
    let progress = progress.map(|p| Arc::clone(&p.inner));
    // Work on a copy, so Python may use (even mutate) the scenario while we run.
    let scenario = scenario.borrow().inner.clone();
    let opts = RunOptions {
        trace,
        pcap: pcap.is_some(),
        ..RunOptions::default()
    };
    let (result, paths) = py
        .allow_threads(|| {
            run_one_reporting(&scenario, seed, &opts, pcap.as_deref(), progress.as_deref())
        })
        .map_err(to_pyerr)?;
    result_to_dict(py, result, paths)
}

/// How far a run has come (`run(..., progress=p)`), readable from any thread while it runs.
#[pyclass(name = "Progress", module = "lossylink._core", frozen)]
pub struct PyProgress {
    inner: Arc<lossylink::Progress>,
}

#[pymethods]
impl PyProgress {
    #[new]
    fn new() -> Self {
        PyProgress {
            inner: Arc::new(lossylink::Progress::new()),
        }
    }

    /// Simulated seconds reached.
    #[getter]
    fn sim_s(&self) -> f64 {
        self.inner.now().as_secs_f64()
    }

    /// Events processed.
    #[getter]
    fn events(&self) -> u64 {
        self.inner.events()
    }

    /// The latest end of the run in simulated seconds (0 until the run has started).
    #[getter]
    fn limit_s(&self) -> f64 {
        self.inner.limit().as_secs_f64()
    }
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
        ..RunOptions::default()
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
    let results = py.allow_threads(|| in_order(seeds.len(), threads, |i| one(seeds[i])));
    let results = results
        .into_iter()
        .collect::<Result<Vec<_>, _>>()
        .map_err(to_pyerr)?;
    let out = PyList::empty(py);
    for (result, paths) in results {
        out.append(result_to_dict(py, result, paths)?)?;
    }
    Ok(out)
}

/// `f(0) .. f(n-1)` on `threads` threads (0: the usable cores, never more than `n`), results
/// in index order: each thread takes the next index, each result lands in its index's slot.
fn in_order<T: Send>(
    n: usize,
    threads: usize,
    f: impl Fn(usize) -> Result<T, Error> + Sync,
) -> Vec<Result<T, Error>> {
    let workers = match threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        t => t,
    }
    .min(n.max(1));
    if workers <= 1 {
        return (0..n).map(f).collect();
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let slots: Vec<std::sync::Mutex<Option<_>>> =
        (0..n).map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if i >= n {
                    break;
                }
                let r = f(i);
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
        .collect()
}

/// Run `(scenario, seed)` pairs (the tasks of a sweep) on `threads` threads (0: the usable
/// cores), releasing the GIL once for the whole batch; a failing run does not stop the others.
///
/// Returns, in task order, `(result dict | None, error text | None, seconds)`: the dict shaped
/// like `run`'s, or the text `"<ExceptionClass>: <message>"` of the exception `run` would have
/// raised (a panic is a `PanicException`), and the wall seconds the run took on its thread.
#[pyfunction]
#[pyo3(signature = (scenarios, seeds, threads = 1))]
pub fn run_batch<'py>(
    py: Python<'py>,
    scenarios: Vec<PyRef<'py, PyScenario>>,
    seeds: Vec<u64>,
    threads: usize,
) -> PyResult<Bound<'py, PyList>> {
    if scenarios.len() != seeds.len() {
        return Err(pyo3::exceptions::PyValueError::new_err(
            "run_batch: scenarios and seeds differ in length",
        ));
    }
    let scenarios: Vec<lossylink::Scenario> = scenarios.iter().map(|s| s.inner.clone()).collect();
    let opts = RunOptions::default();
    let outcomes = py.allow_threads(|| {
        in_order(seeds.len(), threads, |i| {
            let started = std::time::Instant::now();
            let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                lossylink::run(&scenarios[i], seeds[i], &opts)
            }));
            Ok((run, started.elapsed().as_secs_f64()))
        })
    });
    let out = PyList::empty(py);
    for outcome in outcomes {
        let (run, secs) = outcome.map_err(to_pyerr)?;
        let item = match run {
            Ok(Ok(result)) => (Some(result_to_dict(py, result, None)?), None, secs),
            Ok(Err(err)) => {
                let err = to_pyerr(err);
                let name = err.get_type(py).name()?;
                (None, Some(format!("{name}: {}", err.value(py))), secs)
            }
            Err(panic) => {
                let msg = panic
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_owned())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a run panicked".into());
                (None, Some(format!("PanicException: {msg}")), secs)
            }
        };
        out.append(item)?;
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

/// The scheme aliases: one dict per alias with `alias`, `scheme` (the registered scheme, with
/// modifiers, it stands for) and `description`.
#[pyfunction]
pub fn scheme_aliases(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let out = PyList::empty(py);
    for a in lossylink::scheme_aliases() {
        let d = PyDict::new(py);
        d.set_item("alias", a.alias)?;
        d.set_item("scheme", a.scheme)?;
        d.set_item("description", a.description)?;
        out.append(d)?;
    }
    Ok(out)
}

/// The `+` modifiers a scheme name may carry, from the one table the parser and its errors
/// read: one dict per modifier with `name` (without the `+`) and `description`.
#[pyfunction]
pub fn scheme_modifiers(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let out = PyList::empty(py);
    for m in lossylink::scheme_modifiers() {
        let d = PyDict::new(py);
        d.set_item("name", m.name)?;
        d.set_item("description", m.description)?;
        out.append(d)?;
    }
    Ok(out)
}

/// The steady-state timer model of Ludwig2000 §3.4.2 (`lossylink::timer_model`): returns
/// `{column: numpy array}`, one row per ACK.
#[pyfunction]
#[pyo3(signature = (w, service, tick, cycles, timer, sampling, k = None, timeouts = None))]
#[allow(clippy::too_many_arguments)]
pub fn timer_model<'py>(
    py: Python<'py>,
    w: u32,
    service: &str,
    tick: &str,
    cycles: u32,
    timer: &str,
    sampling: &str,
    k: Option<f64>,
    timeouts: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let opts = lossylink::TimerModelOptions { k, timeouts };
    let table = lossylink::timer_model(w, service, tick, cycles, timer, sampling, opts)
        .map_err(to_pyerr)?;
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

fn trace_dict<'py>(py: Python<'py>, trace: lossylink::Trace) -> PyResult<Bound<'py, PyAny>> {
    Ok(crate::convert::trace_to_dict(py, trace)?.into_any())
}

/// ReTracer (`lossylink::retrace`): a `block_trace` text, RLP frame sizes and MTUs in;
/// `{table: {column: numpy array}}` out (tables `rlp`, `e2e`, `loss_runs`, `trace`).
#[pyfunction]
#[pyo3(signature = (trace, frames, mtus, packing = "continuous"))]
pub fn retrace<'py>(
    py: Python<'py>,
    trace: &str,
    frames: Vec<u32>,
    mtus: Vec<u32>,
    packing: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let out = py
        .allow_threads(|| lossylink::retrace(trace, &frames, &mtus, packing))
        .map_err(to_pyerr)?;
    trace_dict(py, out)
}

/// A synthetic block-erasure trace (`lossylink::erasure_trace`), as `block_trace` text.
#[pyfunction]
#[pyo3(signature = (profile, minutes, seed = 1, even = false))]
pub fn erasure_trace(profile: &str, minutes: u32, seed: u64, even: bool) -> PyResult<String> {
    lossylink::erasure_trace(profile, minutes, seed, even).map_err(to_pyerr)
}

/// The per-minute BLERs and burst lengths of a trace (`lossylink::erasure_stats`).
#[pyfunction]
pub fn erasure_stats<'py>(py: Python<'py>, trace: &str) -> PyResult<Bound<'py, PyAny>> {
    let out = lossylink::erasure_stats(trace).map_err(to_pyerr)?;
    trace_dict(py, out)
}
