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
/// Longest quoted user value an error message shows whole; longer ones show their first
/// [`QUOTE_PREFIX`] characters, an ellipsis and their length.
pub const QUOTE_MAX: usize = 64;
/// Characters of a long quoted value an error message keeps.
pub const QUOTE_PREFIX: usize = 32;

impl Error {
    /// The message as a user reads it: one line, every quoted value ('…' or "…") longer than
    /// [`QUOTE_MAX`] characters cut to its first [`QUOTE_PREFIX`] and its length, so that a
    /// 10,000-character value cannot make a 10 KB error line.
    pub fn message(&self) -> String {
        shorten_quoted(&one_line(&self.to_string()))
    }
}

/// `s` with every quoted run longer than [`QUOTE_MAX`] characters shortened (see
/// [`Error::message`]); an unclosed quote runs to the end of `s`. A quote opens only at the
/// start of a word and closes only at the end of one, so an apostrophe in the sentence
/// (`balakrishnan97's`, `don't`) is text, never a value to cut.
pub fn shorten_quoted(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len().min(512));
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        out.push(c);
        i += 1;
        if (c != '\'' && c != '"') || (i >= 2 && chars[i - 2].is_alphanumeric()) {
            continue;
        }
        let end = (i..chars.len())
            .find(|&k| chars[k] == c && !chars.get(k + 1).is_some_and(|d| d.is_alphanumeric()))
            .unwrap_or(chars.len());
        let inner = &chars[i..end];
        if inner.len() > QUOTE_MAX {
            out.extend(&inner[..QUOTE_PREFIX]);
            out.push_str(&format!("… ({} characters)", inner.len()));
        } else {
            out.extend(inner);
        }
        if end < chars.len() {
            out.push(c);
        }
        i = end + 1;
    }
    out
}

pub(crate) fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_quoted_values_are_cut_short_values_kept() {
        let long = "x".repeat(10_000);
        let e = Error::invalid("flows[0].name", format!("'{long}' is used twice"));
        let m = e.message();
        assert!(m.len() < 120, "{m}");
        assert!(m.starts_with("flows[0].name: 'xxxxxxxx"));
        assert!(m.contains("… (10000 characters)' is used twice"));
        assert_eq!(shorten_quoted("a 'short' \"one\""), "a 'short' \"one\"");
        // An unclosed quote runs to the end.
        let m = shorten_quoted(&format!("bad \"{long}"));
        assert!(m.ends_with("(10000 characters)"));
    }

    #[test]
    fn an_apostrophe_in_the_sentence_is_not_a_quote() {
        let sentence = format!(
            "x: draws a balakrishnan97 reproduction's results.csv (this directory has none; {})",
            "y".repeat(80)
        );
        assert_eq!(shorten_quoted(&sentence), sentence);
        let long = "z".repeat(100);
        let m = shorten_quoted(&format!("the scheme's value '{long}' isn't known"));
        assert!(m.starts_with("the scheme's value 'zzz"), "{m}");
        assert!(m.ends_with("… (100 characters)' isn't known"), "{m}");
    }
}
