//! A `[[flows]]` entry's `web = { ... }`, validated into a session's settings (crate
//! `net::web`): every knob finite and positive, with SURGE's value where it is left out.

use crate::error::Error;
use crate::schema::{ConnectionsDoc, WebDoc};
use engine::SimDuration;
use net::web::{HttpMode, WebConfig};

/// The session settings of `d`; `field(k)` names knob `k` in errors.
pub(super) fn web_config(d: &WebDoc, field: &dyn Fn(&str) -> String) -> Result<WebConfig, Error> {
    let s = WebConfig::SURGE;
    let real = |k: &str, v: Option<f64>, default: f64, what: &str| -> Result<f64, Error> {
        match v {
            None => Ok(default),
            Some(x) if x.is_finite() && x > 0.0 => Ok(x),
            Some(x) => Err(Error::invalid(
                field(&format!("web.{k}")),
                format!("{x} is not allowed: {what} must be a finite number greater than 0"),
            )),
        }
    };
    // A Pareto distribution's mean is finite only for a shape above 1 (as `udp.shape`).
    let pareto = |k: &str, v: Option<f64>, default: f64| -> Result<f64, Error> {
        match v {
            None => Ok(default),
            Some(x) if x.is_finite() && x > 1.0 => Ok(x),
            Some(x) => Err(Error::invalid(
                field(&format!("web.{k}")),
                format!(
                    "{x} must exceed 1 (the mean of a Pareto distribution is finite only then)"
                ),
            )),
        }
    };
    let dur = |k: &str, v: Option<crate::units::Dur>, default: SimDuration| match v {
        None => Ok(default),
        Some(d) if d.0 > 0 => Ok(SimDuration(d.0)),
        Some(_) => Err(Error::invalid(
            field(&format!("web.{k}")),
            "must be greater than zero",
        )),
    };
    let request = match d.request {
        None => s.request,
        Some(r) => match u32::try_from(r.0) {
            Ok(v) if v >= 1 => v,
            _ => {
                return Err(Error::invalid(
                    field("web.request"),
                    format!("{} bytes is outside 1..=4294967295", r.0),
                ))
            }
        },
    };
    let tail_k = match d.tail {
        None => s.tail_k,
        Some(t) if t.0 >= 1 => t.0 as f64,
        Some(_) => return Err(Error::invalid(field("web.tail"), "must be at least 1 byte")),
    };
    Ok(WebConfig {
        mode: match d.connections {
            ConnectionsDoc::PerPage => HttpMode::Persistent,
            ConnectionsDoc::PerObject => HttpMode::PerObject,
        },
        request,
        body_mu: real("body_mu", d.body_mu, s.body_mu, "the mean of ln(bytes)")?,
        body_sigma: real(
            "body_sigma",
            d.body_sigma,
            s.body_sigma,
            "a standard deviation",
        )?,
        tail_k,
        tail_alpha: pareto("tail_shape", d.tail_shape, s.tail_alpha)?,
        embedded_k: real("embedded", d.embedded, s.embedded_k, "a Pareto scale")?,
        embedded_alpha: pareto("embedded_shape", d.embedded_shape, s.embedded_alpha)?,
        think_k: dur("think", d.think, s.think_k)?,
        think_alpha: pareto("think_shape", d.think_shape, s.think_alpha)?,
        active_shape: real(
            "pause_shape",
            d.pause_shape,
            s.active_shape,
            "a Weibull shape",
        )?,
        active_scale: dur("pause", d.pause, s.active_scale)?,
    })
}
