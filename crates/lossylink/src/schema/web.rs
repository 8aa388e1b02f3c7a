//! `web = { ... }` of a `[[flows]]` entry: a SURGE-style web session (crate `net::web`). Every
//! knob defaults to SURGE's value as the TCP-ELN spec's §5.3 lists it (Barford & Crovella 1998).

use crate::units::{Dur, Size};
use serde::{Deserialize, Serialize};

/// How a web session maps objects to TCP connections.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ConnectionsDoc {
    /// HTTP/1.1: one persistent connection per page (the spec's recommended default).
    #[default]
    PerPage,
    /// HTTP/1.0: a fresh connection for every object.
    PerObject,
}

/// A web session's knobs; the flow's `from` is the server, `to` the user's client.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WebDoc {
    /// Objects to connections (`per-page`).
    #[serde(default)]
    pub connections: ConnectionsDoc,
    /// Request bytes per object, client to server (320 B; the spec names none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request: Option<Size>,
    /// Lognormal body of object sizes: mean of ln(bytes) (9.357).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body_mu: Option<f64>,
    /// Lognormal body of object sizes: standard deviation of ln(bytes) (1.318).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body_sigma: Option<f64>,
    /// Where the Pareto tail of object sizes starts, and its scale (133 KB).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tail: Option<Size>,
    /// Shape of the tail (1.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tail_shape: Option<f64>,
    /// Embedded objects per page: Pareto scale (1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub embedded: Option<f64>,
    /// Embedded objects per page: Pareto shape (2.43).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub embedded_shape: Option<f64>,
    /// Think time between pages: Pareto scale (1 s).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub think: Option<Dur>,
    /// Think time between pages: Pareto shape (1.5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub think_shape: Option<f64>,
    /// Pause between a page's objects: Weibull scale (0.382 s).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pause: Option<Dur>,
    /// Pause between a page's objects: Weibull shape (1.46).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pause_shape: Option<f64>,
}
