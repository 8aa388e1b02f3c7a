//! The DCF's side of A-MPDU aggregation (crate::medium::dcf::ampdu has the aggregate and the
//! Block Ack session): an aggregating member's aggregate built and put on the air after its
//! contention, the Block Ack's outcome, and what it contends with next.

use super::super::{Frame, MacAir};
use super::ampdu::{
    Aggregate, Fate, Session, BLOCK_ACK_BYTES, BLOCK_ACK_REQ_BYTES, DELIMITER_BYTES,
};
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
    agg.sent_bar = s.bar.is_some();
    if agg.sent_bar {
        return Some(send_bar(
            &mut m.stats,
            mode,
            cfg,
            (now, collision),
            (k, port),
            air,
        ));
    }
    let mut lim = lim;
    if wifi.adapts {
        // The rate control's mode for the aggregate, by its first MPDU (crate::medium::dcf::snr).
        if let Some(m) = air.select_mode(now, port, s.head().unwrap_or((1500, 0))) {
            (mode, ba_time) = (m, m.response(0).txtime(BLOCK_ACK_BYTES));
        }
        // Minstrel-HT's sample goes alone (crate::medium::dcf::minstrel).
        if air.probing(port) {
            lim.max_frames = 1;
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
        // An MPDU waits for a retry only while the recipient does not have it.
        let Some(item) = mpdu.item.as_ref() else {
            continue;
        };
        if mpdu.attempts == 1 {
            air.first_retry(start, port, item);
        }
        let bad = air.attempt_mpdu(
            (start, end.saturating_since(start)),
            port,
            item,
            (sent == 1, mpdu.attempts > 0),
        );
        if bad && !collision && cfg.header_protection {
            air.header_up(end, port, item);
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
    st.count_ampdu(sent);
    st.count_ppdu(super::wifi::mcs_key(mode));
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

/// The mode of a BlockAckReq after data in `mode`: the lowest rate of the basic rate set.
/// mac80211 sends every frame that is not data at the lowest rate the station supports
/// (`rate_control_send_low` in net/mac80211/rate.c: `rc_no_data_or_no_ack_use_min`, then
/// `rate_lowest_index`), and a BlockAckReq is a control frame (ath9k's `ath_send_bar` hands it
/// to `ieee80211_send_bar`): OFDM 6 Mb/s after HT/VHT/OFDM data. The Block Ack answers it in
/// its control response mode (§10.6.6.5.2), 6 Mb/s too.
pub(super) fn bar_mode(mode: Mode) -> Mode {
    match mode {
        Mode::Ofdm { ext, .. } => Mode::Ofdm { n_dbps: 24, ext },
        Mode::Ht { .. } | Mode::Vht { .. } => Mode::Ofdm {
            n_dbps: 24,
            ext: SimDuration::ZERO,
        },
        Mode::Dsss { .. } => mode.response(0),
    }
}

/// Member `m`'s BlockAckReq for its session `k` on `port` goes on the air at `now` (with
/// others' if `collision`): a single control frame at the lowest basic rate ([`bar_mode`]),
/// which the forward channel may corrupt; the recipient answers after SIFS with a Block Ack in
/// that mode's control response, which the reverse one may.
fn send_bar<A: MacAir>(
    st: &mut super::DcfStats,
    mode: Mode,
    cfg: &DcfConfig,
    (now, collision): (SimTime, bool),
    (k, port): (usize, PortId),
    air: &mut A,
) -> Sent {
    let bar = bar_mode(mode);
    let ba_time = bar.response(0).txtime(BLOCK_ACK_BYTES);
    let airtime = bar.txtime(BLOCK_ACK_REQ_BYTES);
    let bar_end = now + airtime;
    let heard = !collision && !air.control_lost(now, port, BLOCK_ACK_REQ_BYTES * 8, bar);
    air.control_sent(now, port, bar, !heard);
    let ok = heard && !air.control_answer_lost(bar_end, port, BLOCK_ACK_BYTES * 8, bar);
    st.block_ack_requests += 1;
    st.block_ack_requests_missed += u64::from(!ok);
    st.airtime_ns += airtime.as_nanos();
    st.airtime_until_ns = st.airtime_until_ns.max(bar_end.as_nanos());
    let sifs_ba = cfg.sifs + ba_time;
    Sent {
        k,
        airtime,
        ok,
        any_intact: heard,
        until: bar_end + sifs_ba + if ok { SimDuration::ZERO } else { cfg.slot },
        busy_end: if heard { bar_end + sifs_ba } else { bar_end },
    }
}

/// The outcome of member `m`'s exchange at `now` (`ok`: a Block Ack came back): after an
/// aggregate the recipient takes the MPDUs that arrived into its reorder buffer; a Block Ack
/// acknowledges what it shows, a missed one calls for a BlockAckReq; the MPDUs released,
/// dropped or given up reach IP or the drop counters; the contention window resets after a
/// Block Ack or a BlockAckReq given up, doubles otherwise (§10.3.4.3). A reorder timeout due
/// is asked for with the wake-up `tag`.
pub(super) fn outcome<A: MacAir>(
    m: &mut Member,
    cfg: &DcfConfig,
    (now, ok): (SimTime, bool),
    air: &mut A,
    tag: u32,
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
    let lim = cfg.retry_limit;
    let reset = {
        let st = &mut m.stats;
        let mut fate = |f: Fate<Frame>| settle(st, now, port, f, air);
        if agg.sent_bar {
            if ok {
                s.block_ack(lim, &mut fate);
            }
            ok || s.bar_failed(lim, &mut fate)
        } else {
            s.receive(now, &mut fate);
            if ok {
                s.block_ack(lim, &mut fate);
            } else {
                s.missed();
            }
            ok
        }
    };
    m.cw = if reset || !s.wants_access() {
        cfg.cw_min
    } else {
        (2 * m.cw + 1).min(cfg.cw_max)
    };
    if let Some(t) = s.rx.next_expiry() {
        if agg.reorder_wake.is_none_or(|w| t < w) {
            agg.reorder_wake = Some(t);
            air.wake(t, tag);
        }
    }
}

/// What an MPDU's fate means at `now` for the network and the counters `st`.
fn settle<A: MacAir>(
    st: &mut super::DcfStats,
    now: SimTime,
    port: PortId,
    f: Fate<Frame>,
    air: &mut A,
) {
    match f {
        Fate::Released(f) => air.deliver(now, port, f),
        Fate::Acked { head } => {
            let d = now.saturating_since(head).as_nanos();
            st.successes += 1;
            st.access_delay_ns += d;
            st.delays_ns.push(d);
        }
        Fate::Dropped(f) => {
            st.drops += 1;
            air.discard(now, port, f);
        }
        Fate::Late(f) => air.discard(now, port, f),
        Fate::GaveUp => st.given_up += 1,
    }
}

/// Member `m`'s reorder timeout wake-up (`tag`) at `now`: each of its sessions' recipients
/// releases what has waited 100 ms (crate::medium::dcf::reorder), and the next one due is
/// asked for.
pub(super) fn reorder_timeout<A: MacAir>(m: &mut Member, now: SimTime, air: &mut A, tag: u32) {
    let Some(agg) = m.agg.as_deref_mut() else {
        return;
    };
    if agg.reorder_wake.is_some_and(|w| w > now) {
        return; // a wake-up an earlier one replaced
    }
    let mut next: Option<SimTime> = None;
    for (s, &port) in agg.sessions.iter_mut().zip(&m.ports) {
        s.rx.expire(now, &mut |f| match f {
            super::reorder::RxFate::Released(f) => air.deliver(now, port, f),
            super::reorder::RxFate::Late(f) => air.discard(now, port, f),
        });
        if let Some(t) = s.rx.next_expiry() {
            next = Some(next.map_or(t, |n: SimTime| n.min(t)));
        }
    }
    agg.reorder_wake = next;
    if let Some(t) = next {
        air.wake(t, tag);
    }
}

/// Member `m`, aggregating, has MPDUs to resend, or a BlockAckReq to send, to one of its
/// receivers: the first such port
/// from its turn on becomes its current session. Returns whether there was one.
pub(super) fn resume_retries(m: &mut Member) -> bool {
    let Some(agg) = m.agg.as_deref_mut() else {
        return false;
    };
    let n = agg.sessions.len();
    for off in 0..n {
        let k = (m.next_port + off) % n;
        if agg.sessions[k].wants_access() {
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

/// Member `m`'s counters with its sessions' reorder buffers' (crate::medium::dcf::reorder).
pub(super) fn stats(m: &Member) -> super::DcfStats {
    let mut st = m.stats.clone();
    for s in m.agg.iter().flat_map(|a| &a.sessions) {
        st.reorder_held += s.rx.held_total;
        st.reorder_timed_out += s.rx.timed_out;
        st.reorder_late += s.rx.late;
    }
    st
}
