//! The exception hierarchy (DESIGN.md, "Error handling"): one Python class per
//! [`lossylink::ErrorKind`], all under `LossylinkError`, mapped in one place ([`to_pyerr`]).
//!
//! ```text
//! LossylinkError
//! ├── ScenarioError
//! │   ├── UnknownSchemeError      ErrorKind::UnknownScheme
//! │   ├── UnknownPresetError      ErrorKind::UnknownPreset
//! │   ├── UnknownFieldError       ErrorKind::UnknownField
//! │   ├── InvalidValueError       ErrorKind::InvalidValue
//! │   ├── UnitError               ErrorKind::BadUnit
//! │   └── ScenarioSyntaxError     ErrorKind::Syntax
//! ├── SimulationError             ErrorKind::Simulation
//! ├── LossylinkIOError            ErrorKind::Io
//! └── EmulationError              emu::EmuError (setup, programs, options)
//!     └── PrivilegeError          emu::EmuError::Privilege
//! ```
//!
//! The classes are created with `__module__ = "lossylink.errors"`, where the Python package
//! re-exports them, so tracebacks name the public path.

use lossylink::ErrorKind;
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;

create_exception!(
    lossylink.errors,
    LossylinkError,
    PyException,
    "Base class of every error lossylink raises."
);
create_exception!(
    lossylink.errors,
    ScenarioError,
    LossylinkError,
    "A scenario could not be built: bad name, field, value, unit or syntax."
);
create_exception!(
    lossylink.errors,
    UnknownSchemeError,
    ScenarioError,
    "The scheme name is not in the registry (see `lossylink.schemes()`)."
);
create_exception!(
    lossylink.errors,
    UnknownPresetError,
    ScenarioError,
    "The preset name is not one of `Scenario.preset_names()`."
);
create_exception!(
    lossylink.errors,
    UnknownFieldError,
    ScenarioError,
    "A key or dotted path names no field of the scenario."
);
create_exception!(
    lossylink.errors,
    InvalidValueError,
    ScenarioError,
    "A field's value is out of range or of the wrong kind."
);
create_exception!(
    lossylink.errors,
    UnitError,
    ScenarioError,
    "A quantity has a malformed or unknown unit (sizes like 64KiB, rates like 2Mbps, times like 10ms)."
);
create_exception!(
    lossylink.errors,
    ScenarioSyntaxError,
    ScenarioError,
    "A TOML or JSON scenario document is not well-formed."
);
create_exception!(
    lossylink.errors,
    SimulationError,
    LossylinkError,
    "A valid scenario failed while running."
);
create_exception!(
    lossylink.errors,
    LossylinkIOError,
    LossylinkError,
    "A file could not be read or written."
);

create_exception!(
    lossylink.errors,
    EmulationError,
    LossylinkError,
    "The emulator could not set up or run (namespaces, devices, programs, options)."
);
create_exception!(
    lossylink.errors,
    PrivilegeError,
    EmulationError,
    "The emulator lacks a privilege it needs (CAP_NET_ADMIN, CAP_SYS_ADMIN): run as root."
);

/// The Python exception for an emulator error (its one-line message).
pub(crate) fn emu_to_pyerr(err: emu::EmuError) -> PyErr {
    match err {
        emu::EmuError::Scenario(e) => to_pyerr(e),
        e @ emu::EmuError::Privilege { .. } => PrivilegeError::new_err(e.to_string()),
        e => EmulationError::new_err(e.to_string()),
    }
}

/// The Python exception for a facade error; the message is the error's one-line `Display`.
pub(crate) fn to_pyerr(err: lossylink::Error) -> PyErr {
    let msg = err.message();
    match err.kind() {
        ErrorKind::UnknownScheme => UnknownSchemeError::new_err(msg),
        ErrorKind::UnknownPreset => UnknownPresetError::new_err(msg),
        ErrorKind::UnknownField => UnknownFieldError::new_err(msg),
        ErrorKind::InvalidValue => InvalidValueError::new_err(msg),
        ErrorKind::BadUnit => UnitError::new_err(msg),
        ErrorKind::Syntax => ScenarioSyntaxError::new_err(msg),
        ErrorKind::Simulation => SimulationError::new_err(msg),
        ErrorKind::Io => LossylinkIOError::new_err(msg),
    }
}

/// Add the exception classes to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("LossylinkError", py.get_type::<LossylinkError>())?;
    m.add("ScenarioError", py.get_type::<ScenarioError>())?;
    m.add("UnknownSchemeError", py.get_type::<UnknownSchemeError>())?;
    m.add("UnknownPresetError", py.get_type::<UnknownPresetError>())?;
    m.add("UnknownFieldError", py.get_type::<UnknownFieldError>())?;
    m.add("InvalidValueError", py.get_type::<InvalidValueError>())?;
    m.add("UnitError", py.get_type::<UnitError>())?;
    m.add("ScenarioSyntaxError", py.get_type::<ScenarioSyntaxError>())?;
    m.add("SimulationError", py.get_type::<SimulationError>())?;
    m.add("LossylinkIOError", py.get_type::<LossylinkIOError>())?;
    m.add("EmulationError", py.get_type::<EmulationError>())?;
    m.add("PrivilegeError", py.get_type::<PrivilegeError>())?;
    Ok(())
}
