//! The `[tcp]` knobs of today's anchors (docs/modern.md) into settings, and the
//! check that a scheme's parts can carry them.

use super::TcpSettings;
use crate::error::Error;
use crate::schema::{PrrDoc, TcpDoc};
use crate::schemes::{Modifiers, RecoveryKind, SchemeDef};
use tcp::recovery::PrrBound;

/// `tcp.prr` and the `+prr` modifier (RFC 6937; SSRB is the RFC's recommended bound); on by
/// default with the linux profile.
pub(super) fn prr(
    doc: Option<PrrDoc>,
    mods: Modifiers,
    linux: bool,
) -> Result<Option<PrrBound>, Error> {
    match (doc, mods.prr || linux) {
        (Some(PrrDoc::Off), true) => Err(Error::invalid(
            "tcp.prr",
            "is off but the scheme asks for +prr; drop one of them",
        )),
        (Some(PrrDoc::Crb), _) => Ok(Some(PrrBound::Conservative)),
        (Some(PrrDoc::Ssrb), _) | (None, true) => Ok(Some(PrrBound::SlowStart)),
        (Some(PrrDoc::Off) | None, false) => Ok(None),
    }
}

/// `tcp.rack` and the `+rack` modifier (RFC 8985); on by default with the linux profile.
pub(super) fn rack(doc: Option<bool>, mods: Modifiers, linux: bool) -> Result<bool, Error> {
    match (doc, mods.rack) {
        (None, false) => Ok(linux),
        (Some(false), true) => Err(Error::invalid(
            "tcp.rack",
            "is false but the scheme asks for +rack; drop one of them",
        )),
        (d, m) => Ok(d.unwrap_or(false) || m),
    }
}

/// `tcp.frto` and the `+frto` modifier (RFC 5682); `eifel`: Eifel is on, which judges the
/// same timeouts. On by default with the linux profile (net.ipv4.tcp_frto = 2), unless Eifel is.
pub(super) fn frto(
    doc: Option<bool>,
    mods: Modifiers,
    eifel: bool,
    linux: bool,
) -> Result<bool, Error> {
    let on = match (doc, mods.frto) {
        (None, false) => linux && !eifel,
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

/// The linux profile's RACK-TLP and PRR apply where the scheme carries them: a scheme
/// without SACK keeps its own loss detection, one without a fast recovery PRR can pace (or
/// with BBR) goes without PRR. Knobs set in `doc` or by the scheme's modifiers stay as asked
/// (and [`check_parts`] refuses what cannot be carried).
pub(crate) fn fit_profile(t: &mut TcpSettings, def: &SchemeDef, doc: &TcpDoc, mods: Modifiers) {
    if !t.linux {
        return;
    }
    let plain = def.eln_dupthresh.is_none();
    if doc.rack.is_none() && !mods.rack && !(def.recovery == RecoveryKind::Sack && plain) {
        t.rack = false;
    }
    let pacable = matches!(def.recovery, RecoveryKind::Sack | RecoveryKind::NewReno) && plain;
    if doc.prr.is_none() && !mods.prr && (!pacable || t.cc.owns_recovery_window()) {
        t.prr = None;
    }
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
    if t.cc.owns_recovery_window() && t.prr.is_some() {
        return Err(Error::invalid(
            "tcp.prr",
            format!(
                "{} sets its own window in recovery; PRR cannot be used with +{}",
                t.cc.title(),
                t.cc.name()
            ),
        ));
    }
    if t.esack_filter.is_some() && def.recovery != RecoveryKind::Esack {
        return Err(Error::invalid(
            "tcp.esack_filter",
            format!("belongs to ESACK (ll-elsn, e2e-esack); '{name}' runs another sender"),
        ));
    }
    if t.lhp_list_dupacks.is_some() && def.recovery != RecoveryKind::Lhp {
        return Err(Error::invalid(
            "tcp.lhp_list_dupacks",
            format!(
                "belongs to LHP's packet list (ll-elsn-lhp, e2e-lhp); '{name}' runs another sender"
            ),
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

/// `tcp.eln`'s C1 (`resend`) and C4 (`in_recovery`) belong to TCP-ELN's own state machine
/// over Reno; over NewReno or SACK the base recovery decides what is resent, so either knob set
/// is refused rather than ignored.
pub(crate) fn check_eln_knobs(doc: &TcpDoc, def: &SchemeDef, tcp: &str) -> Result<(), Error> {
    use crate::schemes::ElnBase;
    let over = matches!(
        def.recovery,
        RecoveryKind::TcpEln {
            base: ElnBase::NewReno | ElnBase::Sack
        }
    );
    let Some(eln) = doc.eln.as_ref().filter(|_| over) else {
        return Ok(());
    };
    let knob = match (eln.resend.is_some(), eln.in_recovery.is_some()) {
        (true, _) => "resend",
        (_, true) => "in_recovery",
        _ => return Ok(()),
    };
    Err(Error::invalid(
        format!("{tcp}.eln.{knob}"),
        format!(
            "applies to the scheme tcp-eln only; '{}' resends what its base recovery finds: drop it",
            def.info.name
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::super::{tcp_settings, DelackSettings, TimerSettings};
    use super::*;
    use crate::cc::CcKind;
    use crate::schema::Profile;
    use crate::schemes::lookup;
    use engine::SimDuration;

    /// C1 and C4 are TCP-ELN-on-Reno's; over NewReno or SACK they are refused, naming the knob.
    #[test]
    fn c1_and_c4_are_refused_over_newreno_and_sack() {
        use crate::schema::{ElnModeDoc, ElnResendDoc, TcpElnDoc};
        let with = |eln: TcpElnDoc| TcpDoc {
            eln: Some(eln),
            ..TcpDoc::default()
        };
        let resend = with(TcpElnDoc {
            resend: Some(ElnResendDoc::First),
            ..TcpElnDoc::default()
        });
        let eager = with(TcpElnDoc {
            in_recovery: Some(ElnModeDoc::Eager),
            ..TcpElnDoc::default()
        });
        let def = |s| lookup(s).expect("scheme").def;
        check_eln_knobs(&resend, def("tcp-eln"), "tcp").expect("tcp-eln takes C1");
        let e = check_eln_knobs(&resend, def("tcp-eln-newreno"), "tcp").unwrap_err();
        assert!(e.to_string().contains("tcp.eln.resend"), "{e}");
        let e = check_eln_knobs(&eager, def("tcp-eln-sack"), "tcp").unwrap_err();
        assert!(e.to_string().contains("tcp.eln.in_recovery"), "{e}");
        let c2 = with(TcpElnDoc {
            inflate_trigger: Some(true),
            ..TcpElnDoc::default()
        });
        check_eln_knobs(&c2, def("tcp-eln-sack"), "tcp").expect("C6 applies");
    }

    fn linux(scheme: &str) -> TcpSettings {
        let r = lookup(scheme).expect("scheme");
        let doc = TcpDoc {
            profile: Profile::Linux,
            ..TcpDoc::default()
        };
        let mut t = tcp_settings(&doc, r.mods).expect("settings");
        fit_profile(&mut t, r.def, &doc, r.mods);
        check_parts(&t, r.def, "scheme").expect("carried");
        t
    }

    /// The linux profile's defaults, and where a scheme cannot carry them.
    #[test]
    fn the_linux_profile_picks_todays_parts_where_the_scheme_carries_them() {
        let ms = SimDuration::from_millis;
        let t = linux("e2e-ietf-sack");
        assert_eq!(t.initial_cwnd, 10 * t.mss);
        assert_eq!(
            t.cc,
            CcKind::Cubic(tcp::cc::Hystart::Linux, tcp::cc::RenoFriendly::Linux)
        );
        assert!(t.rack && t.frto && t.prr == Some(PrrBound::SlowStart));
        assert_eq!(t.timestamps, Some(ms(1)));
        assert_eq!(t.delack, DelackSettings::Linux(ms(200)));
        assert_eq!(
            t.timers,
            TimerSettings::Linux {
                min: ms(200),
                max: SimDuration::from_secs(120),
                initial: SimDuration::from_secs(1)
            }
        );
        assert_eq!(
            linux("e2e-linux"),
            t,
            "e2e-linux is e2e-ietf-sack on the linux profile"
        );
        // NewReno: no SACK, so no RACK; PRR still paces its fast recovery.
        let t = linux("e2e-newreno");
        assert!(!t.rack && t.prr.is_some());
        // BSD Reno's recovery has nothing for either; BBR sets its own recovery window.
        let t = linux("e2e");
        assert!(!t.rack && t.prr.is_none() && t.frto);
        let t = linux("e2e-linux+bbr");
        assert!(t.rack && t.prr.is_none() && t.cc == CcKind::Bbr);
        // Eifel replaces F-RTO.
        assert!(!linux("e2e-linux+eifel").frto);
    }
}
