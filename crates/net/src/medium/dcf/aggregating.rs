//! The DCF's side of A-MPDU aggregation (crate::medium::dcf::ampdu has the aggregate and the
//! Block Ack session): an aggregating member's aggregate built and put on the air after its
//! contention, the Block Ack's outcome, and what it contends with next.

use super::super::MacAir;
use super::ampdu::{Aggregate, Fate, Session, BLOCK_ACK_BYTES, DELIMITER_BYTES};
use super::config::DcfConfig;
use super::member::Member;
use super::phy::{Gi, Mode, Width};
use super::wifi::CellWifi;
use engine::{PortId, SimDuration, SimTime};

/// An aggregate put on the air (crate::medium::dcf's countdown).
pub(super) struct Sent {
    /// Its port index among the member's.
    pub(super) k: usize,
    /// The PPDU's duration.
    pub(super) airtime: SimDuration,
    /// Whether a Block Ack came back.
    pub(super) ok: bool,
    /// Whether the receiver got any MPDU (it then answers).
    pub(super) any_intact: bool,
    /// When the sender knows the outcome: the Block Ack's end, or its timeout.
    pub(super) until: SimTime,
    /// When the medium is idle again.
    pub(super) busy_end: SimTime,
}

impl CellWifi {
    /// The PHY mode of `port`'s frames and the Block Ack time after them (the ACK's mode).
    /// A cell with aggregation has an HT or VHT mode on every port (the schema refuses the
    /// others); a port without one is timed as HT MCS 0, 20 MHz, one stream.
    fn mode_of(&self, port: PortId) -> (Mode, SimDuration) {
        match self.port_mode.get(port.index()).copied().flatten() {
            Some(m) => m,
            None => {
                let m = Mode::Ht {
                    mcs: 0,
                    nss: 1,
                    width: Width::W20,
                    gi: Gi::Long,
                };
                (m, m.response(0).txtime(BLOCK_ACK_BYTES))
            }
        }
    }
}

/// Member `m`'s aggregate goes on the air at `now` (with others' if `collision`): it is built
/// (retries first, then new frames from the port), each MPDU drawn by the channel, and the
/// Block Ack decided.
pub(super) fn send<A: MacAir>(
    m: &mut Member,
    wifi: &CellWifi,
    cfg: &DcfConfig,
    (now, collision): (SimTime, bool),
    air: &mut A,
) -> Option<Sent> {
    let lim = wifi.ampdu?;
    let agg = m.agg.as_deref_mut()?;
    let k = agg.cur;
    let port = *m.ports.get(k)?;
    let (mut mode, mut ba_time) = wifi.mode_of(port);
    let s = agg.sessions.get_mut(k)?;
    if wifi.adapts {
        // The rate control's mode for the aggregate, by its first MPDU (crate::medium::dcf::snr).
        if let Some(m) = air.select_mode(now, port, s.head().unwrap_or((1500, 0))) {
            (mode, ba_time) = (m, m.response(0).txtime(BLOCK_ACK_BYTES));
        }
    }
    let mut a = Aggregate::default();
    let mut room = s.choose(&mut a, &mode, &lim);
    while room && s.can_grow() {
        let Some(f) = air.take(now, port) else {
            break;
        };
        let bytes = air.mpdu_bytes(port, &f);
        s.push(f, bytes, now);
        room = s.choose(&mut a, &mode, &lim);
    }
    // The PPDU and each MPDU's part of it: the preamble with the first, then the data
    // symbols in proportion to the subframes' octets.
    let psdu = a.psdu_bytes().max(1);
    let airtime = mode.txtime(a.psdu_bytes());
    let pre = mode.preamble().min(airtime);
    let data = airtime.as_nanos() - pre.as_nanos();
    let at = |off: u64| {
        now + pre + SimDuration((u128::from(data) * u128::from(off) / u128::from(psdu)) as u64)
    };
    let (mut off, mut sent, mut intact) = (0u64, 0u64, 0u64);
    let n = u64::from(a.frames);
    for mpdu in s.on_air() {
        let sub = (DELIMITER_BYTES + mpdu.bytes).next_multiple_of(4);
        let start = if sent == 0 { now } else { at(off) };
        let end = if sent + 1 == n {
            now + airtime
        } else {
            at(off + sub)
        };
        off += sub;
        sent += 1;
        if mpdu.attempts == 1 {
            air.first_retry(start, port, &mpdu.item);
        }
        let bad = air.attempt_mpdu(
            (start, end.saturating_since(start)),
            port,
            &mpdu.item,
            (sent == 1, mpdu.attempts > 0),
        );
        if bad && !collision && cfg.header_protection {
            air.header_up(end, port, &mpdu.item);
        }
        Session::set_intact(mpdu, !bad && !collision);
        intact += u64::from(!bad && !collision);
        if mpdu.attempts > 0 {
            m.stats.retries += 1;
        }
        mpdu.attempts += 1;
    }
    let st = &mut m.stats;
    st.attempts += sent;
    st.ampdus += 1;
    st.ampdu_mpdus += sent;
    st.airtime_ns += airtime.as_nanos();
    st.airtime_until_ns = st.airtime_until_ns.max((now + airtime).as_nanos());
    let data_end = now + airtime;
    // The Block Ack answers an A-MPDU with an MPDU received (§10.24.7.5); the reverse
    // direction's channel may corrupt it.
    let any_intact = intact > 0;
    let ok = any_intact && !air.ack_lost(data_end, port, BLOCK_ACK_BYTES * 8);
    if collision {
        st.collisions += sent;
    } else if ok {
        st.errors += sent - intact;
    } else {
        st.errors += sent;
    }
    if !ok {
        st.block_acks_missed += 1;
    }
    if wifi.adapts {
        let acked = if ok { intact } else { 0 };
        air.rate_report(now, port, (sent as u32, acked as u32));
    }
    let sifs_ba = cfg.sifs + ba_time;
    Some(Sent {
        k,
        airtime,
        ok,
        any_intact,
        until: if ok {
            data_end + sifs_ba
        } else {
            data_end + sifs_ba + cfg.slot
        },
        busy_end: if any_intact {
            data_end + sifs_ba
        } else {
            data_end
        },
    })
}

/// The outcome of member `m`'s aggregate at `now` (`ok`: a Block Ack came back): the MPDUs
/// released in order or dropped, the contention window reset or doubled.
pub(super) fn outcome<A: MacAir>(
    m: &mut Member,
    cfg: &DcfConfig,
    now: SimTime,
    ok: bool,
    air: &mut A,
) {
    let Some(agg) = m.agg.as_deref_mut() else {
        return;
    };
    let k = agg.cur;
    let Some(&port) = m.ports.get(k) else {
        return;
    };
    let Some(s) = agg.sessions.get_mut(k) else {
        return;
    };
    let st = &mut m.stats;
    s.settle(ok, cfg.retry_limit, |fate, mpdu| match fate {
        Fate::Delivered => {
            let d = now.saturating_since(mpdu.head).as_nanos();
            st.successes += 1;
            st.access_delay_ns += d;
            st.delays_ns.push(d);
            air.deliver(now, port, mpdu.item);
        }
        Fate::Dropped => {
            st.drops += 1;
            air.discard(now, port, mpdu.item);
        }
    });
    // §10.3.4.3: CW resets after a success (here a Block Ack) and after the last retry of
    // what was sent; it doubles after a failure.
    m.cw = if ok || !s.has_queued() {
        cfg.cw_min
    } else {
        (2 * m.cw + 1).min(cfg.cw_max)
    };
}

/// Member `m`, aggregating, has MPDUs to resend to one of its receivers: the first such port
/// from its turn on becomes its current session. Returns whether there was one.
pub(super) fn resume_retries(m: &mut Member) -> bool {
    let Some(agg) = m.agg.as_deref_mut() else {
        return false;
    };
    let n = agg.sessions.len();
    for off in 0..n {
        let k = (m.next_port + off) % n;
        if agg.sessions[k].has_queued() {
            agg.cur = k;
            m.next_port = if k + 1 == n { 0 } else { k + 1 };
            return true;
        }
    }
    false
}

/// Member `m`, aggregating, took its frame (`m.frame`) to contend with: the frame opens its
/// port's session's next aggregate. (Every port of an aggregating member has its session,
/// made with the port; a frame without one would stay in `m.frame`.)
pub(super) fn open<A: MacAir>(m: &mut Member, air: &A) {
    let Some((port, f, head)) = m.frame.take() else {
        return;
    };
    let k = m.next_port_of(port);
    match m.agg.as_deref_mut() {
        Some(agg) if k < agg.sessions.len() => {
            let bytes = air.mpdu_bytes(port, &f);
            agg.sessions[k].push(f, bytes, head);
            agg.cur = k;
        }
        _ => m.frame = Some((port, f, head)),
    }
}
