//! Facade results to Python objects: metrics to an ordered `dict`, trace columns to numpy arrays.
//!
//! The conversion is generic over [`lossylink::Metrics::to_pairs`] and the trace's tables, so a
//! metric or column added in Rust appears in Python without touching this crate.

use lossylink::{Column, Metrics, RunResult, Trace, Value};
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use pyo3::IntoPyObjectExt;
use std::path::PathBuf;

/// `{"metrics": {...}, "trace": None | {table: {column: array}}, "pcap": None | [path]}`, plus
/// `"flows"`, `"links"` (lists of dicts) and `"aggregate"` for `[[flows]]` documents.
pub(crate) fn result_to_dict(
    py: Python<'_>,
    result: RunResult,
    pcap: Option<Vec<PathBuf>>,
) -> PyResult<Bound<'_, PyDict>> {
    let out = PyDict::new(py);
    out.set_item("metrics", metrics_to_dict(py, &result.metrics)?)?;
    // `[[flows]]` documents only: chain documents' results keep their keys.
    if let Some(fr) = result.flows {
        let rows = |rows: Vec<Vec<(&'static str, Value)>>| -> PyResult<Bound<'_, PyList>> {
            let list = PyList::empty(py);
            for row in rows {
                list.append(pairs_to_dict(py, row)?)?;
            }
            Ok(list)
        };
        out.set_item("flows", rows(fr.flows)?)?;
        out.set_item("links", rows(fr.links)?)?;
        out.set_item("members", rows(fr.members)?)?;
        out.set_item("aggregate", pairs_to_dict(py, fr.aggregate)?)?;
    }
    match result.trace {
        Some(trace) => out.set_item("trace", trace_to_dict(py, trace)?)?,
        None => out.set_item("trace", py.None())?,
    }
    match pcap {
        Some(paths) => {
            let paths: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
            out.set_item("pcap", PyList::new(py, paths)?)?;
        }
        None => out.set_item("pcap", py.None())?,
    }
    Ok(out)
}

/// The metrics as a `dict` whose key order is the facade's (`to_pairs` order).
fn metrics_to_dict<'py>(py: Python<'py>, metrics: &Metrics) -> PyResult<Bound<'py, PyDict>> {
    pairs_to_dict(py, metrics.to_pairs())
}

/// Ordered (key, value) pairs as a `dict`.
fn pairs_to_dict<'py>(
    py: Python<'py>,
    pairs: Vec<(&'static str, Value)>,
) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    for (key, value) in pairs {
        out.set_item(key, value_to_py(py, value)?)?;
    }
    Ok(out)
}

fn value_to_py(py: Python<'_>, value: Value) -> PyResult<Bound<'_, PyAny>> {
    match value {
        Value::Int(v) => v.into_bound_py_any(py),
        Value::Float(v) => v.into_bound_py_any(py),
        Value::Str(v) => v.into_bound_py_any(py),
        Value::Bool(v) => v.into_bound_py_any(py),
    }
}

/// `{table: {column: array}}`: numbers move into numpy arrays without a copy (`from_vec`),
/// strings become a `list[str]`.
pub(crate) fn trace_to_dict(py: Python<'_>, trace: Trace) -> PyResult<Bound<'_, PyDict>> {
    let out = PyDict::new(py);
    for table in trace.tables {
        let columns = PyDict::new(py);
        for (name, column) in table.columns {
            let array = match column {
                Column::F64(v) => PyArray1::from_vec(py, v).into_any(),
                Column::I64(v) => PyArray1::from_vec(py, v).into_any(),
                Column::Str(v) => PyList::new(py, v)?.into_any(),
            };
            columns.set_item(name, array)?;
        }
        out.set_item(table.name, columns)?;
    }
    Ok(out)
}
