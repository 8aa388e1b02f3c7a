//! The steady-state timer model of Ludwig2000 §3.4.2 (`tcp::rto::model`) for the front end:
//! names and quantities as text, checked here, rows as a trace table (the S10 figures and the
//! RT1, RT2, RT5 and RT6 targets of `lossylink reproduce ludwig2000`).

use crate::trace::{Column, TraceTable};
use crate::units::parse_duration;
use crate::Error;
use engine::SimDuration;
use tcp::rto::model::{self, ModelConfig, ModelSampling, ModelTimeouts, ModelTimer};
use tcp::rto::AGG_ONE;

/// What the model runs besides its sawtooth: the estimator's `k` (RTO_AGG only) and whether
/// effective timeouts are acted on.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TimerModelOptions<'a> {
    /// RTO_AGG's k (0 < k < 1; §5.4.6); required with `timer = "agg"`, refused otherwise.
    pub k: Option<f64>,
    /// `"shown"` (default: computed, not acted on) or `"eifel"` (the precise timer fires, Eifel
    /// detects it spurious; RTO_E and RTO_AGG, every ACK timed).
    pub timeouts: Option<&'a str>,
}

/// Run the model: `w` (even, ≥ 4), `service` and `tick` as durations ("6250ms", "1ms"),
/// `cycles`, `timer` (`lite` | `eifel` | `agg`) and `sampling` (`every-ack` | `once-per-rtt`).
/// Returns the table `timer_model` with one row per ACK: `time_s`, `cycle`, `load`, `rtt_s`,
/// `sampled` (0/1), `rto_prev_s` (RTO(i−1)), `rto_s`, `rexmt_restart_s`, `rexmt_precise_s`,
/// `timeouts` (spurious timeouts of the acknowledged segment before this ACK), `timeout_s`
/// (when the first fired; NaN if none) and `agg` (AGG after the ACK; 1 but for RTO_AGG).
pub fn timer_model(
    w: u32,
    service: &str,
    tick: &str,
    cycles: u32,
    timer: &str,
    sampling: &str,
    opts: TimerModelOptions<'_>,
) -> Result<TraceTable, Error> {
    let dur = |field: &str, text: &str| {
        parse_duration(text)
            .map(SimDuration)
            .map_err(|message| Error::BadUnit {
                field: field.to_string(),
                message,
            })
    };
    let timer = match (timer, opts.k) {
        ("lite", None) => ModelTimer::Lite,
        ("eifel", None) => ModelTimer::Eifel,
        ("agg", Some(k)) if k > 0.0 && k < 1.0 => ModelTimer::Agg {
            // k in millionths, as `tcp.rto_agg_k` is kept.
            k: ((k * AGG_ONE as f64).round() as u64).clamp(1, AGG_ONE - 1),
        },
        ("agg", _) => {
            return Err(Error::invalid(
                "k",
                "must be between 0 and 1 for the agg timer",
            ))
        }
        ("lite" | "eifel", Some(_)) => {
            return Err(Error::invalid("k", "is for the agg timer only"))
        }
        _ => return Err(Error::invalid("timer", "must be lite, eifel or agg")),
    };
    let timeouts = match opts.timeouts.unwrap_or("shown") {
        "shown" => ModelTimeouts::Shown,
        "eifel" => ModelTimeouts::Eifel,
        _ => return Err(Error::invalid("timeouts", "must be shown or eifel")),
    };
    let sampling = match sampling {
        "every-ack" => ModelSampling::EveryAck,
        "once-per-rtt" => ModelSampling::OncePerRtt,
        _ => {
            return Err(Error::invalid(
                "sampling",
                "must be every-ack or once-per-rtt",
            ))
        }
    };
    let cfg = ModelConfig {
        w,
        service: dur("service", service)?,
        tick: dur("tick", tick)?,
        cycles,
        timer,
        sampling,
        timeouts,
    };
    let rows = model::run(&cfg).map_err(|e| Error::invalid(e.field, e.why))?;
    let f = |g: &dyn Fn(&model::ModelRow) -> f64| Column::F64(rows.iter().map(g).collect());
    let i = |g: &dyn Fn(&model::ModelRow) -> i64| Column::I64(rows.iter().map(g).collect());
    Ok(TraceTable {
        name: "timer_model".into(),
        columns: vec![
            ("time_s".into(), f(&|r| r.at.as_secs_f64())),
            ("cycle".into(), i(&|r| i64::from(r.cycle))),
            ("load".into(), i(&|r| i64::from(r.load))),
            ("rtt_s".into(), f(&|r| r.rtt.as_secs_f64())),
            ("sampled".into(), i(&|r| i64::from(r.sampled))),
            ("rto_prev_s".into(), f(&|r| r.rto_prev.as_secs_f64())),
            ("rto_s".into(), f(&|r| r.rto.as_secs_f64())),
            (
                "rexmt_restart_s".into(),
                f(&|r| r.rexmt_restart.as_secs_f64()),
            ),
            (
                "rexmt_precise_s".into(),
                f(&|r| r.rexmt_precise.as_secs_f64()),
            ),
            ("timeouts".into(), i(&|r| i64::from(r.timeouts))),
            (
                "timeout_s".into(),
                f(&|r| r.timeout_at.map_or(f64::NAN, |t| t.as_secs_f64())),
            ),
            ("agg".into(), f(&|r| r.agg as f64 / AGG_ONE as f64)),
        ],
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn runs_and_names_bad_input() {
        let none = TimerModelOptions::default();
        let t = timer_model(10, "6250ms", "1ms", 2, "lite", "every-ack", none).unwrap();
        assert_eq!(t.columns.len(), 12);
        let Column::F64(time) = &t.columns[0].1 else {
            panic!("time_s")
        };
        assert_eq!(time.len(), 90);
        let e = |r: Result<TraceTable, Error>| r.unwrap_err().to_string();
        assert_eq!(
            e(timer_model(
                10,
                "6250ms",
                "1ms",
                2,
                "bsd",
                "every-ack",
                none
            )),
            "timer: must be lite, eifel or agg"
        );
        let run = |timer, k, timeouts| {
            let opts = TimerModelOptions { k, timeouts };
            timer_model(26, "6250ms", "1ms", 2, timer, "every-ack", opts)
        };
        assert!(e(run("agg", None, None)).starts_with("k: "));
        assert!(e(run("agg", Some(1.0), None)).starts_with("k: "));
        assert!(e(run("eifel", Some(0.05), None)).starts_with("k: "));
        assert!(e(run("agg", Some(0.05), Some("acted"))).starts_with("timeouts: "));
        assert!(e(run("lite", None, Some("eifel"))).starts_with("timeouts: "));
        let t = run("agg", Some(0.05), Some("eifel")).unwrap();
        let Column::I64(n) = &t.columns[9].1 else {
            panic!("timeouts")
        };
        // The initial 6 s RTO against the first 81 s round trip: 3 timeouts, backed off.
        assert_eq!(n[0], 3);
        assert!(
            e(timer_model(10, "fast", "1ms", 2, "lite", "every-ack", none))
                .starts_with("service: ")
        );
        assert!(e(timer_model(7, "1s", "1ms", 2, "lite", "every-ack", none)).starts_with("w: "));
    }
}
