//! Typed errors of the emulator (house rule 10): each message is one line that says what failed
//! and what to do.

use thiserror::Error;

/// Everything that can stop an emulation.
#[derive(Debug, Error)]
pub enum EmuError {
    /// A privilege the emulator needs is missing.
    #[error("emulate: missing privilege {capability} ({needed_for}); run as root or grant it")]
    Privilege {
        /// The capability, e.g. `CAP_NET_ADMIN`.
        capability: &'static str,
        /// What it is needed for.
        needed_for: &'static str,
    },
    /// The scenario could not be built.
    #[error("{0}")]
    Scenario(#[from] lossylink::Error),
    /// An option of the emulation has a value that is not allowed.
    #[error("emulate: {option}: {message}")]
    Option {
        /// The option's name.
        option: &'static str,
        /// What is allowed.
        message: String,
    },
    /// Setting up namespaces or devices failed.
    #[error("emulate: {step}: {message}")]
    Setup {
        /// What was being done.
        step: String,
        /// Why it failed, on one line.
        message: String,
    },
    /// A program or the built-in transfer failed.
    #[error("emulate: {what}: {message}")]
    Run {
        /// Which part.
        what: &'static str,
        /// Why, on one line.
        message: String,
    },
}

impl EmuError {
    pub(crate) fn setup(step: impl Into<String>, message: impl std::fmt::Display) -> Self {
        EmuError::Setup {
            step: step.into(),
            message: one_line(&message.to_string()),
        }
    }
    pub(crate) fn run(what: &'static str, message: impl std::fmt::Display) -> Self {
        EmuError::Run {
            what,
            message: one_line(&message.to_string()),
        }
    }
}

/// `s` with its lines joined by "; ".
pub(crate) fn one_line(s: &str) -> String {
    s.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}
