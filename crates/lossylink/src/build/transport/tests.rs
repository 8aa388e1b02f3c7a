//! Unit tests of the TCP settings built from a scenario's `[tcp]` table and its profile.

#![allow(clippy::unwrap_used)]
use super::*;
use crate::units::Size;

fn settings(profile: Profile, edit: impl FnOnce(&mut TcpDoc)) -> TcpSettings {
    let mut doc = TcpDoc {
        profile,
        ..TcpDoc::default()
    };
    edit(&mut doc);
    tcp_settings(&doc, Modifiers::default()).unwrap()
}

#[test]
fn modern_follows_todays_rfcs_and_bsd_keeps_1997() {
    // RFC 5681 §3.2 (RFC 3042), RFC 6582, RFC 6675.
    let m = settings(Profile::Modern, |_| {});
    assert!(m.limited_transmit);
    assert_eq!(m.newreno, NewRenoFlavor::Rfc6582);
    assert_eq!(m.sack_sender, SackFlavor::Rfc6675);
    let b = settings(Profile::Bsd, |_| {});
    assert!(!b.limited_transmit);
    assert_eq!(b.newreno, NewRenoFlavor::Paper);
    assert_eq!(b.sack_sender, SackFlavor::FallFloyd);
    assert_eq!(b.exit_retraction, ExitRetraction::Net3);
    assert_eq!(m.exit_retraction, ExitRetraction::Always);
    let always = settings(Profile::Bsd, |d| {
        d.exit_retraction = Some(ExitRetractionDoc::Always)
    });
    assert_eq!(always.exit_retraction, ExitRetraction::Always);
    // Net/3 tcp_mss(): 8 KiB of 1400-byte segments is 8400 bytes on bsd, as given on modern.
    let r = settings(Profile::Bsd, |d| d.buffer = Size(8192));
    assert_eq!((r.buffer, r.socket_buffer), (8192, 8400));
    let m8 = settings(Profile::Modern, |d| d.buffer = Size(8192));
    assert_eq!(m8.socket_buffer, 8192);
    let none = settings(Profile::Bsd, |d| {
        d.buffer = Size(8192);
        d.buffer_rounding = Some(BufferRoundingDoc::None);
    });
    assert_eq!(none.socket_buffer, 8192);
    // Each default can be turned back for ablation.
    let old = settings(Profile::Modern, |d| {
        d.limited_transmit = Some(false);
        d.newreno = Some(NewRenoDoc::Paper);
        d.sack_sender = Some(SackSenderDoc::FallFloyd);
    });
    assert!(!old.limited_transmit);
    assert_eq!(old.newreno, NewRenoFlavor::Paper);
    assert_eq!(old.sack_sender, SackFlavor::FallFloyd);
}

#[test]
fn smart_rtt_ticks_on_bsd_fine_on_modern_and_tick_needs_the_slow_timer() {
    // Balakrishnan97 spec §2.4 (a knob); BSD/OS 2.1 kept its RTT in slow ticks.
    assert!(settings(Profile::Bsd, |_| {}).smart_tick);
    assert!(!settings(Profile::Modern, |_| {}).smart_tick);
    let fine = settings(Profile::Bsd, |d| d.smart_rtt = Some(SmartRttDoc::Fine));
    assert!(!fine.smart_tick);
    let doc = TcpDoc {
        profile: Profile::Modern,
        smart_rtt: Some(SmartRttDoc::Tick),
        ..TcpDoc::default()
    };
    let err = tcp_settings(&doc, Modifiers::default()).err().unwrap();
    assert!(err.to_string().contains("tcp.smart_rtt"), "{err}");
}

#[test]
fn an_unbounded_window_lifts_the_16_bit_field_and_the_cwnd_cap() {
    // ns-2's one-way TCP: nothing but cwnd limits the sender.
    let field = settings(Profile::Modern, |d| d.buffer = Size(65535));
    assert_eq!((field.window_cap, field.socket_buffer), (65535, 65535));
    let open = settings(Profile::Modern, |d| {
        d.buffer = Size(65535);
        d.window = Some(WindowDoc::Unbounded);
    });
    assert_eq!((open.window_cap, open.socket_buffer), (1 << 30, 1 << 30));
    assert_eq!(open.buffer, 65535, "tcp.buffer is still reported as given");
    // The other ERSN reading is a knob of its own.
    let oldest = settings(Profile::Modern, |d| {
        d.ersn_restart = Some(ErsnRestartDoc::Oldest)
    });
    assert!(oldest.ersn_oldest_only && !open.ersn_oldest_only);
}

/// `tcp.slow_start_after_idle`: on by default only on the linux profile (Linux's sysctl is 1;
/// on `modern` it would change the golden row `eln5-split-per-flow`), with Linux's rule there
/// and RFC 5681's restart window elsewhere (RFC 5681 §4.1), IW from the profile.
#[test]
fn slow_start_after_idle_defaults_per_profile() {
    let mss = settings(Profile::Linux, |_| {}).mss;
    assert_eq!(
        settings(Profile::Linux, |_| {}).idle_restart,
        Some(IdleRestart::Linux { iw: 10 * mss })
    );
    assert_eq!(settings(Profile::Modern, |_| {}).idle_restart, None);
    assert_eq!(settings(Profile::Bsd, |_| {}).idle_restart, None);
    let on = |p| settings(p, |d| d.slow_start_after_idle = Some(true)).idle_restart;
    assert_eq!(
        on(Profile::Modern),
        Some(IdleRestart::Rfc5681 { iw: 3 * mss })
    );
    assert_eq!(on(Profile::Bsd), Some(IdleRestart::Rfc5681 { iw: mss }));
    let off = settings(Profile::Linux, |d| d.slow_start_after_idle = Some(false));
    assert_eq!(off.idle_restart, None);
}

/// `tcp.hystart`: on by default on the linux profile (with its timestamps), off elsewhere;
/// "rfc9406" builds CUBIC with HyStart++ (RFC 9406) and needs timestamps; on another
/// controller it is an error naming CUBIC.
#[test]
fn hystart_is_a_cubic_knob_that_needs_timestamps() {
    use tcp::cc::{Hystart, RenoFriendly};
    assert_eq!(
        settings(Profile::Linux, |_| {}).cc,
        CcKind::Cubic(Hystart::Linux, RenoFriendly::Linux)
    );
    let off = settings(Profile::Linux, |d| d.hystart = Some(HystartDoc::Off));
    assert_eq!(off.cc, CcKind::Cubic(Hystart::Off, RenoFriendly::Linux));
    let no_ts = settings(Profile::Linux, |d| d.timestamps = Some(false));
    assert_eq!(
        no_ts.cc,
        CcKind::Cubic(Hystart::Off, RenoFriendly::Linux),
        "the default gives way"
    );
    let doc = |profile| TcpDoc {
        profile,
        hystart: Some(HystartDoc::Rfc9406),
        ..TcpDoc::default()
    };
    let e = tcp_settings(&doc(Profile::Modern), Modifiers::default()).unwrap_err();
    assert!(e.to_string().contains("tcp.hystart"), "{e}");
    let no_ts = TcpDoc {
        timestamps: Some(false),
        ..doc(Profile::Linux)
    };
    let e = tcp_settings(&no_ts, Modifiers::default()).unwrap_err();
    assert!(e.to_string().contains("timestamps"), "{e}");
}

#[test]
fn abe_is_an_ecn_knob_of_reno_and_cubic_with_rfc_8511s_betas() {
    let err = |profile, edit: &dyn Fn(&mut TcpDoc)| {
        let mut d = TcpDoc {
            profile,
            ..TcpDoc::default()
        };
        edit(&mut d);
        tcp_settings(&d, Modifiers::default())
            .unwrap_err()
            .to_string()
    };
    // Off everywhere by default, the linux profile included (Linux mainline has no ABE).
    for p in [Profile::Bsd, Profile::Modern, Profile::Linux] {
        assert_eq!(settings(p, |d| d.ecn = Some(true)).abe, None);
    }
    let on = |d: &mut TcpDoc| {
        d.ecn = Some(true);
        d.abe = Some(true);
    };
    // RFC 8511 §3.1: 0.8 for Reno, 0.85 for CUBIC.
    assert_eq!(settings(Profile::Modern, on).abe, Some(800));
    assert_eq!(settings(Profile::Linux, on).abe, Some(850));
    let beta = settings(Profile::Modern, |d| {
        d.ecn = Some(true);
        d.beta_ecn = Some(0.7);
    });
    assert_eq!(beta.abe, Some(700), "beta_ecn alone turns ABE on");
    let e = err(Profile::Modern, &|d| d.abe = Some(true));
    assert!(e.contains("tcp.abe") && e.contains("tcp.ecn"), "{e}");
    let e = err(Profile::Modern, &|d| {
        d.ecn = Some(true);
        d.beta_ecn = Some(1.0);
    });
    assert!(e.contains("tcp.beta_ecn"), "{e}");
    let e = err(Profile::Modern, &|d| {
        d.ecn = Some(true);
        d.abe = Some(false);
        d.beta_ecn = Some(0.8);
    });
    assert!(e.contains("tcp.beta_ecn"), "{e}");
    let bbr = TcpDoc {
        profile: Profile::Linux,
        ecn: Some(true),
        abe: Some(true),
        ..TcpDoc::default()
    };
    let mods = Modifiers {
        cc: Some(CcKind::Bbr),
        ..Modifiers::default()
    };
    let e = tcp_settings(&bbr, mods).unwrap_err().to_string();
    assert!(e.contains("tcp.abe") && e.contains("Reno and CUBIC"), "{e}");
}

#[test]
fn the_linux_profile_autotunes_with_linuxs_sizes_and_window_scaling() {
    let l = settings(Profile::Linux, |_| {});
    assert!(l.window_scaling);
    let a = l.autotune.unwrap();
    assert_eq!(
        (a.rx.rmem_default, a.rx.rmem_max, a.wmem_max),
        (131_072, 32 << 20, 4 << 20)
    );
    assert_eq!(l.window_shift(a.rx.rmem_max), Some(10));
    let m = settings(Profile::Modern, |_| {});
    assert!(!m.window_scaling && m.autotune.is_none());
    let off = settings(Profile::Linux, |d| d.autotune = Some(AutotuneDoc::Off));
    assert!(off.autotune.is_none());
    let six = settings(Profile::Modern, |d| {
        d.autotune = Some(AutotuneDoc::Linux);
        d.rmem_max = Some(Size(6 << 20));
    });
    assert_eq!(six.autotune.unwrap().rx.rmem_max, 6 << 20);
    let e = tcp_settings(
        &TcpDoc {
            profile: Profile::Modern,
            wmem_max: Some(Size(1 << 20)),
            ..TcpDoc::default()
        },
        Modifiers::default(),
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("tcp.wmem_max") && e.contains("tcp.autotune"),
        "{e}"
    );
    let e = tcp_settings(
        &TcpDoc {
            profile: Profile::Linux,
            rmem_default: Some(Size(64 << 20)),
            ..TcpDoc::default()
        },
        Modifiers::default(),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("tcp.rmem_default"), "{e}");
}
