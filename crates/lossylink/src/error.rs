//! Typed errors of the facade (house rule 10). Every message is one line that names the field
//! and says what is allowed; each kind maps to its own Python exception class.

use thiserror::Error;

/// The broad kind of an [`Error`], for bindings that map kinds to exception classes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// A scheme name that is not registered.
    UnknownScheme,
    /// A preset name that is not shipped.
    UnknownPreset,
    /// A key that the scenario schema does not have.
    UnknownField,
    /// A value of the right form but outside what is allowed.
    InvalidValue,
    /// A quantity with a malformed number or unit.
    BadUnit,
    /// A document that is not valid TOML or JSON.
    Syntax,
    /// The simulation could not finish.
    Simulation,
    /// Reading or writing a file failed.
    Io,
}

/// Everything that can go wrong in the facade.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum Error {
    /// Unknown scheme name.
    #[error("scheme: unknown scheme '{name}' (allowed: {allowed})")]
    UnknownScheme {
        /// What was asked for.
        name: String,
        /// Registered names, comma-separated.
        allowed: String,
    },
    /// Unknown preset name.
    #[error("preset: unknown preset '{name}' (allowed: {allowed})")]
    UnknownPreset {
        /// What was asked for.
        name: String,
        /// Shipped presets, comma-separated.
        allowed: String,
    },
    /// Unknown key.
    #[error("{field}: {message}")]
    UnknownField {
        /// Dotted path of the offending key.
        field: String,
        /// What is allowed instead.
        message: String,
    },
    /// Value out of range or of the wrong type.
    #[error("{field}: {message}")]
    InvalidValue {
        /// Dotted path of the field.
        field: String,
        /// What is allowed.
        message: String,
    },
    /// Malformed number or unit.
    #[error("{field}: {message}")]
    BadUnit {
        /// Dotted path of the field.
        field: String,
        /// What was wrong and examples of what is allowed.
        message: String,
    },
    /// Not valid TOML/JSON.
    #[error("{format} syntax: {message}")]
    Syntax {
        /// "TOML" or "JSON".
        format: &'static str,
        /// The parser's message, on one line.
        message: String,
    },
    /// The run could not complete.
    #[error("simulation: {message}")]
    Simulation {
        /// What happened.
        message: String,
    },
    /// File access failed.
    #[error("{path}: {message}")]
    Io {
        /// The file.
        path: String,
        /// The operating system's message.
        message: String,
    },
}

impl Error {
    /// The kind of this error.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::UnknownScheme { .. } => ErrorKind::UnknownScheme,
            Error::UnknownPreset { .. } => ErrorKind::UnknownPreset,
            Error::UnknownField { .. } => ErrorKind::UnknownField,
            Error::InvalidValue { .. } => ErrorKind::InvalidValue,
            Error::BadUnit { .. } => ErrorKind::BadUnit,
            Error::Syntax { .. } => ErrorKind::Syntax,
            Error::Simulation { .. } => ErrorKind::Simulation,
            Error::Io { .. } => ErrorKind::Io,
        }
    }

    /// An out-of-range value at `field`.
    pub(crate) fn invalid(field: impl Into<String>, message: impl Into<String>) -> Self {
        Error::InvalidValue {
            field: field.into(),
            message: message.into(),
        }
    }
}

/// Squash a multi-line parser message onto one line.
pub(crate) fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}
