//! [`Scenario`]: a validated scenario document, loaded from a preset, TOML or JSON, and changed
//! by keyword overrides (`set`). Every error names the field path and what is allowed.

use crate::build::{self, Built};
use crate::error::{one_line, Error};
use crate::schema::{ErrorDoc, RoleDoc, ScenarioDoc};
use crate::units::{parse_size, Size, RANGE_TAG, UNIT_TAG};

/// Shipped presets: (name, TOML text).
const PRESETS: &[(&str, &str)] = &[
    ("lan", include_str!("../presets/lan.toml")),
    ("wan", include_str!("../presets/wan.toml")),
    ("hiccup", include_str!("../presets/hiccup.toml")),
    ("gsm", include_str!("../presets/gsm.toml")),
    ("dumbbell", include_str!("../presets/dumbbell.toml")),
    ("wlan", include_str!("../presets/wlan.toml")),
    ("wlan-n", include_str!("../presets/wlan-n.toml")),
    ("wlan-n-ht20", include_str!("../presets/wlan-n-ht20.toml")),
    ("eln5", include_str!("../presets/eln5.toml")),
    ("llelsn", include_str!("../presets/llelsn.toml")),
    ("gigabit", include_str!("../presets/gigabit.toml")),
];

/// A validated scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    pub(crate) doc: ScenarioDoc,
}

/// Turn a serde error at `path` into a typed [`Error`].
fn classify(path: String, message: String) -> Error {
    let mut message = one_line(&message);
    // toml's value deserializer appends " in `path`"; the field is reported separately.
    if let Some(i) = message.rfind(" in `") {
        if message.ends_with('`') {
            message.truncate(i);
        }
    }
    let field = if path.is_empty() || path == "." {
        "scenario".to_string()
    } else {
        path
    };
    // A feature the build does not model, said in words rather than serde's.
    if let Some(words) = crate::unmodelled::explain(&field, &message) {
        return if message.starts_with("unknown field") {
            Error::UnknownField {
                field,
                message: words,
            }
        } else {
            Error::InvalidValue {
                field,
                message: words,
            }
        };
    }
    if let Some(m) = message.strip_prefix(UNIT_TAG) {
        Error::BadUnit {
            field,
            message: m.to_string(),
        }
    } else if let Some(m) = message.strip_prefix(RANGE_TAG) {
        Error::InvalidValue {
            field,
            message: m.to_string(),
        }
    } else if message.starts_with("unknown field") {
        Error::UnknownField {
            field,
            message: closest_allowed(&message),
        }
    } else {
        Error::InvalidValue { field, message }
    }
}

/// Longest list of allowed keys or variants an error message shows whole.
const ALLOWED_SHOWN: usize = 8;

/// serde's "unknown field `k`, expected one of `a`, `b`, ..." with a long list cut to the
/// three allowed names closest to `k` and a pointer to the docs (a `[tcp]` list alone runs to
/// 600 characters); shorter lists and other messages unchanged.
fn closest_allowed(message: &str) -> String {
    let Some((head, list)) = message.split_once(", expected one of ") else {
        return message.to_string();
    };
    let allowed: Vec<&str> = list
        .split(", ")
        .map(|a| a.trim_matches('`'))
        .filter(|a| !a.is_empty())
        .collect();
    if allowed.len() <= ALLOWED_SHOWN {
        return message.to_string();
    }
    let key = head.split('`').nth(1).unwrap_or_default();
    let mut ranked: Vec<(usize, usize, &str)> = allowed
        .iter()
        .enumerate()
        .map(|(i, a)| (edit_distance(key, a), i, *a))
        .collect();
    ranked.sort_unstable();
    let closest: Vec<String> = ranked
        .iter()
        .take(3)
        .map(|(_, _, a)| format!("`{a}`"))
        .collect();
    format!(
        "{head}; closest allowed: {} ({} keys in all: see docs/scenarios.md)",
        closest.join(", "),
        allowed.len()
    )
}

/// Levenshtein distance between `a` and `b` (in characters).
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diag = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let next = (diag + usize::from(ca != cb))
                .min(row[j] + 1)
                .min(row[j + 1] + 1);
            diag = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// `line L, column C` (1-based) of byte offset `at` in `text`.
fn line_column(text: &str, at: usize) -> String {
    let before = text.get(..at).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    format!("line {line}, column {column}")
}

fn from_value(value: toml::Value) -> Result<ScenarioDoc, Error> {
    serde_path_to_error::deserialize(value)
        .map_err(|e| classify(e.path().to_string(), e.inner().to_string()))
}

impl Scenario {
    /// Names of the shipped presets.
    pub fn preset_names() -> Vec<&'static str> {
        PRESETS.iter().map(|(n, _)| *n).collect()
    }

    /// The TOML text of a shipped preset.
    pub fn preset_toml(name: &str) -> Result<&'static str, Error> {
        PRESETS
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, t)| *t)
            .ok_or_else(|| Error::UnknownPreset {
                name: name.to_string(),
                allowed: Self::preset_names().join(", "),
            })
    }

    /// A shipped preset.
    pub fn preset(name: &str) -> Result<Scenario, Error> {
        Self::from_toml_str(Self::preset_toml(name)?)
    }

    /// Parse and validate a TOML document.
    pub fn from_toml_str(text: &str) -> Result<Scenario, Error> {
        Self::from_toml_str_with(text, [])
    }

    /// Parse a TOML document, apply `edits` as [`Scenario::set_all`] does, and validate once,
    /// after them: a file that is invalid alone can be repaired by its overrides.
    pub fn from_toml_str_with<'a>(
        text: &str,
        edits: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Scenario, Error> {
        Self::from_doc_with(Self::parse_toml(text)?, edits)
    }

    /// Parse and validate a JSON document.
    pub fn from_json_str(text: &str) -> Result<Scenario, Error> {
        Self::from_json_str_with(text, [])
    }

    /// Parse a JSON document, apply `edits` and validate once (see
    /// [`Scenario::from_toml_str_with`]).
    pub fn from_json_str_with<'a>(
        text: &str,
        edits: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Scenario, Error> {
        Self::from_doc_with(Self::parse_json(text)?, edits)
    }

    /// The document of a TOML text, parsed but not validated.
    fn parse_toml(text: &str) -> Result<ScenarioDoc, Error> {
        let table: toml::Table = text.parse().map_err(|e: toml::de::Error| Error::Syntax {
            format: "TOML",
            message: match e.span() {
                Some(span) => format!(
                    "{}: {}",
                    line_column(text, span.start),
                    one_line(e.message())
                ),
                None => one_line(e.message()),
            },
        })?;
        if let Some(toml::Value::Array(flows)) = table.get("flow") {
            return Err(Error::InvalidValue {
                field: "flow".into(),
                message: format!(
                    "{} [[flow]] entries: several flows are a list of [[flows]] (from, to, \
                     scheme, bytes or long-lived, start, udp; docs/scenarios.md, Many flows); \
                     [flow] is the one transfer of a chain document",
                    flows.len()
                ),
            });
        }
        from_value(toml::Value::Table(table))
    }

    /// The document of a JSON text, parsed but not validated.
    fn parse_json(text: &str) -> Result<ScenarioDoc, Error> {
        let mut de = serde_json::Deserializer::from_str(text);
        let doc: ScenarioDoc = serde_path_to_error::deserialize(&mut de).map_err(|e| {
            let inner = e.inner();
            if inner.is_syntax() || inner.is_eof() {
                Error::Syntax {
                    format: "JSON",
                    message: one_line(&inner.to_string()),
                }
            } else {
                // serde_json appends " at line L column C"; the path is more useful.
                let msg = inner.to_string();
                let msg = msg.split(" at line ").next().unwrap_or(&msg).to_string();
                classify(e.path().to_string(), msg)
            }
        })?;
        Ok(doc)
    }

    fn from_doc_with<'a>(
        doc: ScenarioDoc,
        edits: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Scenario, Error> {
        let mut doc = doc;
        for (key, value) in edits {
            doc = edit(doc, key, value)?;
        }
        let s = Scenario { doc };
        s.build()?;
        Ok(s)
    }

    /// The scenario as TOML (what `lossylink preset show` prints for a preset, but normalised).
    pub fn to_toml_string(&self) -> String {
        toml::to_string(&self.doc).unwrap_or_else(|e| format!("# cannot render scenario: {e}\n"))
    }

    /// The scenario as JSON.
    pub fn to_json_string(&self) -> String {
        serde_json::to_string(&self.doc).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }

    /// Scenario name.
    pub fn name(&self) -> &str {
        &self.doc.name
    }

    /// Scheme name.
    pub fn scheme(&self) -> &str {
        &self.doc.scheme
    }

    /// Validate and compile into the network and endpoint settings.
    pub(crate) fn build(&self) -> Result<Built, Error> {
        build::build(&self.doc)
    }

    /// Change one setting. `key` is an alias — `scheme`, `error_every`, `ber`, `loss`, `buffer`,
    /// `transfer`, `mss`, `profile`, `time_limit` — or a dotted path into the document such as
    /// `hops.1.forward.queue` (or `hops[1].forward.queue`) or `tcp.min_rto`. `value` is text: a TOML literal (`20`, `true`,
    /// `{ model = "none" }`) or a bare word taken as a string (`64KiB`, `modern`).
    /// The error-model aliases set both directions of every wireless hop; `0` means no errors.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), Error> {
        self.set_all([(key, value)])
    }

    /// Change several settings at once, in order, and validate the result once: settings that
    /// only make sense together (`tcp.window_scaling = true` with `tcp.buffer = 1MiB`) may come
    /// in any order. Nothing changes when an edit or the result is refused.
    pub fn set_all<'a>(
        &mut self,
        edits: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<(), Error> {
        let mut doc = self.doc.clone();
        for (key, value) in edits {
            doc = edit(doc, key, value)?;
        }
        let candidate = Scenario { doc };
        candidate.build()?;
        *self = candidate;
        Ok(())
    }
}

/// One edit of [`Scenario::set`] on the document, unvalidated.
fn edit(mut doc: ScenarioDoc, key: &str, value: &str) -> Result<ScenarioDoc, Error> {
    let key_norm = key.replace('-', "_");
    match key_norm.as_str() {
        "error_every" => {
            let every = parse_size(value).map_err(|m| classify("error_every".into(), m))?;
            let e = if every == 0 {
                ErrorDoc::None
            } else {
                ErrorDoc::Exponential {
                    every: Some(Size(every)),
                    ber: None,
                }
            };
            set_wireless_error(&mut doc, e)?;
        }
        "ber" => {
            let ber: f64 = value.trim().parse().map_err(|_| Error::BadUnit {
                field: "ber".into(),
                message: format!(
                    "cannot parse '{value}' as a bit-error rate (examples: 0, 1.9e-6)"
                ),
            })?;
            let e = if ber == 0.0 {
                ErrorDoc::None
            } else {
                ErrorDoc::Exponential {
                    every: None,
                    ber: Some(ber),
                }
            };
            set_wireless_error(&mut doc, e)?;
        }
        "loss" => {
            let p: f64 = value.trim().parse().map_err(|_| Error::BadUnit {
                field: "loss".into(),
                message: format!("cannot parse '{value}' as a probability (examples: 0, 0.01)"),
            })?;
            let e = if p == 0.0 {
                ErrorDoc::None
            } else {
                ErrorDoc::Bernoulli { p }
            };
            set_wireless_error(&mut doc, e)?;
        }
        "scheme" => {
            crate::schemes::lookup(value.trim())?;
            doc.scheme = value.trim().to_string();
        }
        "transfer" if !doc.flows.is_empty() => {
            // Every flow of a [[flows]] document transfers that many bytes (a long-lived
            // flow becomes a finite one).
            let bytes = parse_size(value).map_err(|m| classify("transfer".into(), m))?;
            for f in &mut doc.flows {
                f.bytes = Some(Size(bytes));
                f.stop = None;
            }
        }
        alias @ ("buffer" | "transfer" | "mss" | "profile" | "time_limit") => {
            let path = match alias {
                "buffer" => "tcp.buffer",
                "transfer" => "flow.bytes",
                "mss" => "tcp.mss",
                "profile" => "tcp.profile",
                _ => "run.time_limit",
            };
            doc = set_path(&doc, path, value)?;
        }
        _ => doc = set_path(&doc, key, value)?,
    }
    Ok(doc)
}

fn set_wireless_error(doc: &mut ScenarioDoc, e: ErrorDoc) -> Result<(), Error> {
    let mut any = false;
    let links = doc.hops.iter_mut().chain(doc.links.iter_mut());
    for hop in links.filter(|h| h.role == RoleDoc::Wireless) {
        hop.error = Some(e.clone());
        hop.forward.error = None;
        hop.reverse.error = None;
        any = true;
    }
    for cell in &mut doc.cells {
        cell.error = Some(e.clone());
        any = true;
    }
    if any {
        Ok(())
    } else {
        Err(Error::invalid(
            "hops",
            "the scenario has no hop, link or cell with role = \"wireless\" to put errors on",
        ))
    }
}

/// Parse `value` as a TOML literal, or take it as a string.
fn literal(value: &str) -> toml::Value {
    format!("v = {value}")
        .parse::<toml::Table>()
        .ok()
        .and_then(|mut t| t.remove("v"))
        .unwrap_or_else(|| toml::Value::String(value.to_string()))
}

/// A table may only be replaced by a table and a list by a list: an empty list for `tcp`
/// would otherwise read as a table of defaults and silently drop every setting.
fn same_shape(field: &str, old: &toml::Value, new: &toml::Value) -> Result<(), Error> {
    // Fields that take either a table or a single value (schema/either.rs).
    const EITHER: &[&str] = &["per_frame"];
    if EITHER.iter().any(|k| field.rsplit('.').next() == Some(k)) {
        return Ok(());
    }
    let wanted = match (old, new) {
        (toml::Value::Table(_), toml::Value::Table(_))
        | (toml::Value::Array(_), toml::Value::Array(_)) => return Ok(()),
        (toml::Value::Table(_), _) => "a table such as { key = value, ... }",
        (toml::Value::Array(_), _) => "a list such as [ ... ]",
        _ => return Ok(()),
    };
    Err(Error::invalid(
        field,
        format!("must be {wanted}, not a {}", new.type_str()),
    ))
}

/// Set `path` (dotted; numbers index arrays) in `doc` to `value`.
fn set_path(doc: &ScenarioDoc, path: &str, value: &str) -> Result<ScenarioDoc, Error> {
    // `hops[0].forward` (the form error messages use) is the same path as `hops.0.forward`.
    let path = &path.replace('[', ".").replace(']', "");
    let mut root =
        toml::Value::try_from(doc).map_err(|e| Error::invalid(path, one_line(&e.to_string())))?;
    let parts: Vec<&str> = path.split('.').collect();
    if parts.iter().any(|p| p.is_empty()) {
        return Err(Error::UnknownField {
            field: path.into(),
            message: "empty path component".into(),
        });
    }
    let mut cur = &mut root;
    for (i, part) in parts.iter().enumerate() {
        let last = i + 1 == parts.len();
        let here = parts[..=i].join(".");
        cur = match cur {
            toml::Value::Table(t) => {
                if last {
                    let new = literal(value);
                    if let Some(old) = t.get(*part) {
                        same_shape(&here, old, &new)?;
                    }
                    t.insert(part.to_string(), new);
                    break;
                }
                t.entry(part.to_string())
                    .or_insert_with(|| toml::Value::Table(toml::Table::new()))
            }
            toml::Value::Array(a) => {
                let idx: usize = part.parse().map_err(|_| Error::UnknownField {
                    field: here.clone(),
                    message: format!("'{part}' is not an index (0..{})", a.len()),
                })?;
                let len = a.len();
                let slot = a.get_mut(idx).ok_or_else(|| Error::UnknownField {
                    field: here.clone(),
                    message: format!("index {idx} out of range (0..{len})"),
                })?;
                if last {
                    let new = literal(value);
                    same_shape(&here, slot, &new)?;
                    *slot = new;
                    break;
                }
                slot
            }
            _ => {
                return Err(Error::UnknownField {
                    field: here,
                    message: "is not a table or array".into(),
                })
            }
        };
    }
    from_value(root)
}

#[cfg(test)]
#[path = "scenario_tests.rs"]
mod tests;
