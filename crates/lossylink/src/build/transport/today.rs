//! The `[tcp]` knobs of today's anchors (issue 14; docs/modern.md) into settings, and the
//! check that a scheme's parts can carry them.

use super::{CcSettings, TcpSettings};
use crate::error::Error;
use crate::schema::PrrDoc;
use crate::schemes::{Modifiers, RecoveryKind, SchemeDef};
use tcp::recovery::PrrBound;

/// `tcp.prr` and the `+prr` modifier (RFC 6937; SSRB is the RFC's recommended bound).
pub(super) fn prr(doc: Option<PrrDoc>, mods: Modifiers) -> Result<Option<PrrBound>, Error> {
    match (doc, mods.prr) {
        (Some(PrrDoc::Off), true) => Err(Error::invalid(
            "tcp.prr",
            "is off but the scheme asks for +prr; drop one of them",
        )),
        (Some(PrrDoc::Crb), _) => Ok(Some(PrrBound::Conservative)),
        (Some(PrrDoc::Ssrb), _) | (None, true) => Ok(Some(PrrBound::SlowStart)),
        (Some(PrrDoc::Off) | None, false) => Ok(None),
    }
}

/// `tcp.rack` and the `+rack` modifier (RFC 8985).
pub(super) fn rack(doc: Option<bool>, mods: Modifiers) -> Result<bool, Error> {
    match (doc, mods.rack) {
        (Some(false), true) => Err(Error::invalid(
            "tcp.rack",
            "is false but the scheme asks for +rack; drop one of them",
        )),
        (d, m) => Ok(d.unwrap_or(false) || m),
    }
}

/// `tcp.frto` and the `+frto` modifier (RFC 5682); `eifel`: Eifel is on, which judges the
/// same timeouts.
pub(super) fn frto(doc: Option<bool>, mods: Modifiers, eifel: bool) -> Result<bool, Error> {
    let on = match (doc, mods.frto) {
        (Some(false), true) => {
            return Err(Error::invalid(
                "tcp.frto",
                "is false but the scheme asks for +frto; drop one of them",
            ))
        }
        (d, m) => d.unwrap_or(false) || m,
    };
    if on && eifel {
        return Err(Error::invalid(
            "tcp.frto",
            "F-RTO and Eifel both judge retransmission timeouts; turn one of them off (tcp.eifel = \"off\" or tcp.frto = false)",
        ));
    }
    Ok(on)
}

/// The `+bbr` modifier: BBR, unless another window rule is asked for too.
pub(super) fn bbr(mods: Modifiers, mss8: Option<bool>) -> Result<CcSettings, Error> {
    if mods.cubic {
        return Err(Error::invalid(
            "scheme",
            "+cubic and +bbr both choose the congestion controller; keep one",
        ));
    }
    if mss8 == Some(true) {
        return Err(Error::invalid(
            "tcp.ca_extra_mss_over_8",
            "is a Reno term; the scheme asks for +bbr",
        ));
    }
    Ok(CcSettings::Bbr)
}

/// Whether the sender parts of `def` can carry the settings `t`; `field` names the scheme.
pub(crate) fn check_parts(t: &TcpSettings, def: &SchemeDef, field: &str) -> Result<(), Error> {
    let name = def.info.name;
    let sack_or_newreno = matches!(def.recovery, RecoveryKind::Sack | RecoveryKind::NewReno)
        && def.eln_dupthresh.is_none();
    if t.prr.is_some() && !sack_or_newreno {
        return Err(Error::invalid(
            field,
            format!(
                "'{name}' has no fast recovery PRR can pace: tcp.prr (and +prr) needs a SACK or NewReno scheme (e2e-ietf-sack, e2e-newreno, e2e-prr, ...)"
            ),
        ));
    }
    if t.cc == CcSettings::Bbr && t.prr.is_some() {
        return Err(Error::invalid(
            "tcp.prr",
            "BBR sets its own window in recovery (packet conservation); PRR cannot be used with +bbr",
        ));
    }
    if t.rack && (def.recovery != RecoveryKind::Sack || def.eln_dupthresh.is_some()) {
        return Err(Error::invalid(
            field,
            format!(
                "'{name}' has no SACK scoreboard: tcp.rack (and +rack) needs a SACK scheme (e2e-ietf-sack, e2e-cubic, e2e-rack, ...)"
            ),
        ));
    }
    Ok(())
}
