//! Two knobs of today's TCP beside the profiles: RFC 8511 ABE (`tcp.abe`, `tcp.beta_ecn`) and socket
//! buffer autotuning (`tcp.autotune`, `tcp.rmem_default`, `tcp.rmem_max`, `tcp.wmem_max`).

use crate::cc::CcKind;
use crate::error::Error;
use crate::schema::{AutotuneDoc, TcpDoc};
use tcp::cc::{BETA_ECN_CUBIC, BETA_ECN_RENO};

/// Linux's socket-buffer autotuning as the build settles it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct AutotuneSettings {
    /// The receiver's DRS knobs (`tcp_rmem[1]`, `tcp_rmem[2]`).
    pub rx: tcp::Autotune,
    /// The send buffer (`tcp_wmem[2]`).
    pub wmem_max: u32,
}

/// Linux's `tcp_rmem[1]` (`net/ipv4/tcp.c`, `tcp_init`).
pub(crate) const RMEM_DEFAULT: u32 = 131_072;
/// Linux's `tcp_rmem[2]` since 6.16 (`tcp_init`: `max_rshare = min(32UL*1024*1024, limit)`,
/// "tcp: increase tcp_rmem[2] to 32 MB", May 2025; 6 MiB from 2012 to 6.15).
pub(crate) const RMEM_MAX: u32 = 32 << 20;
/// Linux's `tcp_wmem[2]` (`tcp_init`: `max_wshare = min(4UL*1024*1024, limit)`).
pub(crate) const WMEM_MAX: u32 = 4 << 20;

/// RFC 8511 ABE's β_ecn in thousandths, or None for RFC 3168's response.
///
/// Off by default on every profile: Linux mainline has no ABE (`tcp_enter_cwr` →
/// `tcp_init_cwnd_reduction` sets `snd_ssthresh = icsk_ca_ops->ssthresh(sk)`, the loss
/// threshold); FreeBSD applies `net.inet.tcp.cc.abe` in `cc_newreno.c` only
/// (`newreno_cong_signal`, `beta_ecn` 80 %).
pub(crate) fn abe(t: &TcpDoc, cc: CcKind, ecn: bool) -> Result<Option<u16>, Error> {
    let on = match (t.abe, t.beta_ecn) {
        (Some(false), Some(_)) => {
            return Err(Error::invalid(
                "tcp.beta_ecn",
                "is ABE's decrease; tcp.abe is false: drop one of them",
            ))
        }
        (Some(on), _) => on,
        (None, b) => b.is_some(),
    };
    if !on {
        return Ok(None);
    }
    let field = if t.abe.is_some() {
        "tcp.abe"
    } else {
        "tcp.beta_ecn"
    };
    if !ecn {
        return Err(Error::invalid(
            field,
            "ABE changes the response to ECN marks: set tcp.ecn = true (or +ecn)",
        ));
    }
    // RFC 8511 §3.1: 0.8 for standard TCP; CUBIC "benefit[s] from beta_{ecn} of 0.85".
    let default = match cc {
        CcKind::Reno(_) => BETA_ECN_RENO,
        CcKind::Cubic(..) => BETA_ECN_CUBIC,
        other => {
            return Err(Error::invalid(
                field,
                format!(
                    "RFC 8511 ABE is defined for Reno and CUBIC; the scheme runs {}",
                    other.title()
                ),
            ))
        }
    };
    let Some(b) = t.beta_ecn else {
        return Ok(Some(default as u16));
    };
    let milli = b * 1000.0;
    if !(0.5..1.0).contains(&b) || (milli - milli.round()).abs() > 1e-6 {
        return Err(Error::invalid(
            "tcp.beta_ecn",
            format!("must be at least 0.5 and below 1, with at most three decimals, not {b}"),
        ));
    }
    Ok(Some(milli.round() as u16))
}

/// `tcp.autotune` and its sizes: Linux's by default on the linux profile, off elsewhere.
pub(crate) fn autotune(t: &TcpDoc, linux: bool) -> Result<Option<AutotuneSettings>, Error> {
    let sizes = [
        ("tcp.rmem_default", t.rmem_default),
        ("tcp.rmem_max", t.rmem_max),
        ("tcp.wmem_max", t.wmem_max),
    ];
    let on = match t.autotune {
        Some(AutotuneDoc::Linux) => true,
        Some(AutotuneDoc::Off) => false,
        None => linux,
    };
    if !on {
        if let Some((field, _)) = sizes.iter().find(|(_, v)| v.is_some()) {
            return Err(Error::invalid(
                *field,
                "sizes an autotuned buffer: set tcp.autotune = \"linux\" (the linux profile's default)",
            ));
        }
        return Ok(None);
    }
    let size = |field: &str, v: Option<crate::units::Size>, default: u32| match v {
        None => Ok(default),
        Some(s) if s.0 >= u64::from(t.mss) && s.0 <= 1 << 30 => Ok(s.0 as u32),
        Some(s) => Err(Error::invalid(
            field,
            format!("{} bytes is outside mss..=1GiB", s.0),
        )),
    };
    let rmem_default = size("tcp.rmem_default", t.rmem_default, RMEM_DEFAULT)?;
    let rmem_max = size("tcp.rmem_max", t.rmem_max, RMEM_MAX)?;
    let wmem_max = size("tcp.wmem_max", t.wmem_max, WMEM_MAX)?;
    if rmem_default > rmem_max {
        return Err(Error::invalid(
            "tcp.rmem_default",
            format!("{rmem_default} bytes is above tcp.rmem_max ({rmem_max})"),
        ));
    }
    Ok(Some(AutotuneSettings {
        rx: tcp::Autotune {
            rmem_default,
            rmem_max,
        },
        wmem_max,
    }))
}
