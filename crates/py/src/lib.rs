//! Python bindings for lossylink: the private extension module `lossylink._core`.
//!
//! This crate is conversion and exception mapping only (DESIGN.md, "Layers"): every rule that
//! changes what a simulation outputs lives in the `lossylink` facade crate and below. The public
//! Python API is the pure-Python package `python/lossylink`, which wraps what is exported here.
//!
//! - [`scenario`]: the `Scenario` class, a thin handle on [`lossylink::Scenario`];
//! - [`run`]: `run` / `run_seeds` / `run_batch`, which release the GIL while simulating, and `schemes`;
//! - [`convert`]: metrics and traces to Python dicts and numpy arrays;
//! - [`emulate`]: the emulator (`emu`), GIL released;
//! - [`errors`]: one Python exception class per [`lossylink::ErrorKind`], and the emulator's.

use pyo3::prelude::*;

mod convert;
mod emulate;
mod errors;
mod run;
mod scenario;

/// The extension module. Its name must match `[lib] name` in Cargo.toml and `module-name` in
/// pyproject.toml (`lossylink._core`).
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", lossylink::VERSION)?;
    m.add_class::<scenario::PyScenario>()?;
    m.add_function(wrap_pyfunction!(run::run, m)?)?;
    m.add_class::<run::PyProgress>()?;
    m.add_function(wrap_pyfunction!(run::run_seeds, m)?)?;
    m.add_function(wrap_pyfunction!(run::run_batch, m)?)?;
    m.add_function(wrap_pyfunction!(run::schemes, m)?)?;
    m.add_function(wrap_pyfunction!(run::scheme_aliases, m)?)?;
    m.add_function(wrap_pyfunction!(run::scheme_modifiers, m)?)?;
    m.add_function(wrap_pyfunction!(emulate::emulate, m)?)?;
    m.add_function(wrap_pyfunction!(run::timer_model, m)?)?;
    m.add_function(wrap_pyfunction!(run::retrace, m)?)?;
    m.add_function(wrap_pyfunction!(run::erasure_trace, m)?)?;
    m.add_function(wrap_pyfunction!(run::erasure_stats, m)?)?;
    errors::register(m)?;
    Ok(())
}
