//! Delivery of LL-ELSN's link-status notifications (crate::agent::elsn; eln-llelsn spec §4.1
//! (c) "Notification path"): as a control packet routed from the agent's node to the segment's
//! sender, or, as an oracle, straight to the sender.

use super::Network;
use crate::agent::{Notice, NoticePath};
use crate::packet::{LinkTag, Packet, Proto};
use engine::{FlowId, SimTime};
use tcp::{LinkNotice, SegOptions, Segment, SeqNum};

impl Network {
    /// The notifications raised at `now`, in the order the agents raised them.
    pub(super) fn send_notices(&mut self, now: SimTime) {
        let notices = std::mem::take(&mut self.notices);
        for (
            from,
            Notice {
                flow,
                to,
                notice,
                path,
            },
        ) in notices.iter().copied()
        {
            match path {
                NoticePath::Oracle => self.notice_arrived(now, flow, notice),
                NoticePath::ControlPacket => {
                    let r = self.pool.insert(Packet {
                        uid: self.next_uid,
                        flow,
                        src: from,
                        dst: to,
                        seg: Segment {
                            seq: notice.seq,
                            ack: SeqNum(0),
                            len: 0,
                            wnd: 0,
                            ack_flag: false,
                            opts: SegOptions::default(),
                        },
                        link: LinkTag::None,
                        proto: Proto::Notice(notice.kind),
                    });
                    self.next_uid += 1;
                    if from == to {
                        // The sender's own link layer: an in-host call (§4.1 (a) uplink).
                        self.receive(now, to, r);
                    } else {
                        self.send_from(now, from, r);
                    }
                }
            }
        }
        // Keep the buffer's allocation for the next batch.
        let mut notices = notices;
        notices.clear();
        if self.notices.is_empty() {
            self.notices = notices;
        }
    }

    /// Protected headers of corrupted frames that are due reach their receivers (LHP's link-layer
    /// header protection, eln-llelsn spec §4.11): each is the ELN oracle's corrupted-segment
    /// signal, which a NACK receiver (HACK, LHP) answers at once.
    pub(super) fn headers_arrive(&mut self, now: SimTime) {
        let mut i = 0;
        while i < self.headers.len() {
            let (at, flow, seg) = self.headers[i];
            if at > now {
                i += 1;
                continue;
            }
            self.headers.remove(i);
            let f = flow.index();
            if self.flows.get(f).is_some() && self.flows[f].receiver.on_corrupted(&seg) {
                self.pump_receiver(f, now);
            }
        }
    }

    /// A notification reached the sender of `flow`.
    pub(super) fn notice_arrived(&mut self, now: SimTime, flow: FlowId, notice: LinkNotice) {
        let f = flow.index();
        let Some(fl) = self.flows.get_mut(f) else {
            return;
        };
        let (sender, sink) = fl.sender_and_sink();
        sender.on_link_notice(now, notice, sink);
        self.pump_sender(f, now);
    }
}
