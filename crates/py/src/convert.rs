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

/// `{"metrics": {...}, "trace": None | {table: {column: array}}, "pcap": None | [path]}`.
pub(crate) fn result_to_dict(
    py: Python<'_>,
    result: RunResult,
    pcap: Option<Vec<PathBuf>>,
) -> PyResult<Bound<'_, PyDict>> {
    let out = PyDict::new(py);
    out.set_item("metrics", metrics_to_dict(py, &result.metrics)?)?;
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
    let out = PyDict::new(py);
    for (key, value) in metrics.to_pairs() {
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
fn trace_to_dict(py: Python<'_>, trace: Trace) -> PyResult<Bound<'_, PyDict>> {
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
