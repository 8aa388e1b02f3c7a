//! The steady-state timer model of Ludwig2000 §3.4.2 (`tcp::rto::model`) for the front end:
//! names and quantities as text, checked here, rows as a trace table (the S10 figures and the
//! RT1, RT2, RT5 and RT6 targets of `lossylink reproduce ludwig2000`).

use crate::trace::{Column, TraceTable};
use crate::units::parse_duration;
use crate::Error;
use engine::SimDuration;
use tcp::rto::model::{self, ModelConfig, ModelSampling, ModelTimer};

/// Run the model: `w` (even, ≥ 4), `service` and `tick` as durations ("6250ms", "1ms"),
/// `cycles`, `timer` (`lite` | `eifel`) and `sampling` (`every-ack` | `once-per-rtt`).
/// Returns the table `timer_model` with one row per ACK: `time_s`, `cycle`, `load`, `rtt_s`,
/// `sampled` (0/1), `rto_prev_s` (RTO(i−1)), `rto_s`, `rexmt_restart_s`, `rexmt_precise_s`.
pub fn timer_model(
    w: u32,
    service: &str,
    tick: &str,
    cycles: u32,
    timer: &str,
    sampling: &str,
) -> Result<TraceTable, Error> {
    let dur = |field: &str, text: &str| {
        parse_duration(text)
            .map(SimDuration)
            .map_err(|message| Error::BadUnit {
                field: field.to_string(),
                message,
            })
    };
    let timer = match timer {
        "lite" => ModelTimer::Lite,
        "eifel" => ModelTimer::Eifel,
        _ => return Err(Error::invalid("timer", "must be lite or eifel")),
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
        ],
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn runs_and_names_bad_input() {
        let t = timer_model(10, "6250ms", "1ms", 2, "lite", "every-ack").unwrap();
        assert_eq!(t.columns.len(), 9);
        let Column::F64(time) = &t.columns[0].1 else {
            panic!("time_s")
        };
        assert_eq!(time.len(), 90);
        let e = |r: Result<TraceTable, Error>| r.unwrap_err().to_string();
        assert_eq!(
            e(timer_model(10, "6250ms", "1ms", 2, "bsd", "every-ack")),
            "timer: must be lite or eifel"
        );
        assert!(e(timer_model(10, "fast", "1ms", 2, "lite", "every-ack")).starts_with("service: "));
        assert!(e(timer_model(7, "1s", "1ms", 2, "lite", "every-ack")).starts_with("w: "));
    }
}
