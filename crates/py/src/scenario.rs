//! The `Scenario` class: a handle on a validated [`lossylink::Scenario`].
//!
//! Everything a scenario means (the schema, presets, aliases, units) is decided in Rust; this
//! class only passes text in and out. Values given to `set` are strings, parsed by the facade.

use lossylink::Scenario;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::errors::to_pyerr;

/// A complete, validated simulation scenario (topology, links, TCP, scheme, workload).
///
/// Build one with `Scenario.preset(name)`, `Scenario.from_toml(text)` or
/// `Scenario.from_json(text)`, then adjust it with `set(key, value)`.
#[pyclass(name = "Scenario", module = "lossylink._core")]
#[derive(Clone)]
pub struct PyScenario {
    /// The facade scenario this object wraps.
    pub(crate) inner: Scenario,
}

#[pymethods]
impl PyScenario {
    /// The shipped preset `name` (one of `Scenario.preset_names()`).
    #[staticmethod]
    fn preset(name: &str) -> PyResult<Self> {
        let inner = Scenario::preset(name).map_err(to_pyerr)?;
        Ok(PyScenario { inner })
    }

    /// The names of the shipped presets, in registry order.
    #[staticmethod]
    fn preset_names() -> Vec<&'static str> {
        Scenario::preset_names()
    }

    /// The TOML text a preset is built from, ready to copy into a file and edit.
    #[staticmethod]
    fn preset_toml(name: &str) -> PyResult<&'static str> {
        Scenario::preset_toml(name).map_err(to_pyerr)
    }

    /// Parse a scenario from a TOML document.
    #[staticmethod]
    fn from_toml(text: &str) -> PyResult<Self> {
        let inner = Scenario::from_toml_str(text).map_err(to_pyerr)?;
        Ok(PyScenario { inner })
    }

    /// Parse a scenario from a JSON document (the same schema as TOML).
    #[staticmethod]
    fn from_json(text: &str) -> PyResult<Self> {
        let inner = Scenario::from_json_str(text).map_err(to_pyerr)?;
        Ok(PyScenario { inner })
    }

    /// The scenario as a TOML document; `Scenario.from_toml` reads it back unchanged.
    fn to_toml(&self) -> String {
        self.inner.to_toml_string()
    }

    /// The scenario as a JSON document; `Scenario.from_json` reads it back unchanged.
    fn to_json(&self) -> String {
        self.inner.to_json_string()
    }

    /// Set one field from text. `key` is an alias (`scheme`, `error_every`, `ber`, `loss`,
    /// `buffer`, `transfer`, `mss`, `profile`, `time_limit`) or a dotted path into the TOML
    /// document (`hops.1.forward.queue`, `tcp.min_rto`); `value` may carry units (`64KiB`,
    /// `2Mbps`, `10ms`).
    fn set(&mut self, key: &str, value: &str) -> PyResult<()> {
        self.inner.set(key, value).map_err(to_pyerr)
    }

    /// Change several settings in order and validate the result once (settings that only make
    /// sense together may come in any order); nothing changes when one is refused.
    fn set_all(&mut self, edits: Vec<(String, String)>) -> PyResult<()> {
        let edits = edits.iter().map(|(k, v)| (k.as_str(), v.as_str()));
        self.inner.set_all(edits).map_err(to_pyerr)
    }

    /// An independent copy.
    fn copy(&self) -> Self {
        self.clone()
    }

    fn __copy__(&self) -> Self {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    /// Pickle through JSON, so scenarios can be sent to worker processes.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let from_json = slf.get_type().getattr("from_json")?;
        let args = PyTuple::new(slf.py(), [slf.borrow().inner.to_json_string()])?;
        Ok((from_json, args))
    }

    /// The preset name, or the `name` field of the scenario file.
    #[getter]
    fn name(&self) -> &str {
        self.inner.name()
    }

    /// The scheme's registry name.
    #[getter]
    fn scheme(&self) -> &str {
        self.inner.scheme()
    }

    fn __repr__(&self) -> String {
        format!(
            "Scenario(name={:?}, scheme={:?})",
            self.inner.name(),
            self.inner.scheme()
        )
    }
}
