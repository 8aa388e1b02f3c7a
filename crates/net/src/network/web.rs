//! Web sessions in the network (crate::web): each session's connections are ordinary flows,
//! opened while the run goes on, so agents, proxies' absence, pcap and packet accounting treat
//! them like any other connection. A session drives them through its [`WebSession`]: the
//! request connection (client to server) and the response connection (server to client) of
//! the current object or page; the bytes an application writes are raised on the sender's
//! application limit, and a byte count delivered in order at a receiver is what completes a
//! request or an object.

use super::{Event, Flow, Network};
use crate::web::{Action, WebSession};
use engine::{FlowId, NodeId, SimTime};
use tcp::{Receiver, Sender};

/// Which end of a session a connection serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum WebEnd {
    /// Client to server: requests.
    Request,
    /// Server to client: objects.
    Response,
}

/// Makes the endpoints of a session's connections (the builder knows the scheme, TCP settings
/// and the session's random-stream keys; the network does not).
pub trait Connector {
    /// Endpoints of connection `n` of the session (numbered from 0 in opening order), opened at
    /// `now`; `upstream` for a request connection (client to server), else a response
    /// connection.
    /// The sender must accept more bytes through its application limit (start it at 0) and
    /// both ends must be built for more bytes than a run can move.
    fn open(&mut self, now: SimTime, n: u32, upstream: bool) -> (Sender, Receiver);
}

/// A web session with its client, server and current connections.
pub struct WebFlow {
    /// The session.
    pub session: WebSession,
    /// The server's node (objects come from it).
    pub server: NodeId,
    /// The client's node (the user).
    pub client: NodeId,
    connector: Box<dyn Connector>,
    /// The current request and response connections.
    current: Option<(FlowId, FlowId)>,
    /// Bytes delivered in order on the current request (response) connection when the pending
    /// request (object) is complete.
    request_done_at: u64,
    object_done_at: u64,
    /// Every connection it opened, request and response, in order.
    pub connections: Vec<FlowId>,
    /// Its pending wake-up.
    wake: Option<SimTime>,
}

impl Network {
    /// Add a web session between `server` and `client` (its first page at the session's start).
    pub fn add_web(
        &mut self,
        server: NodeId,
        client: NodeId,
        session: WebSession,
        connector: Box<dyn Connector>,
    ) -> u32 {
        let id = self.web.len() as u32;
        self.web.push(WebFlow {
            session,
            server,
            client,
            connector,
            current: None,
            request_done_at: 0,
            object_done_at: 0,
            connections: Vec::new(),
            wake: None,
        });
        id
    }

    /// The web sessions.
    pub fn web_flows(&self) -> &[WebFlow] {
        &self.web
    }

    /// Schedule each session's first page.
    pub(super) fn start_web(&mut self) {
        for w in 0..self.web.len() {
            if let Some(at) = self.web[w].session.first_wake() {
                self.wake_web(w, at);
            }
        }
    }

    fn wake_web(&mut self, w: usize, at: SimTime) {
        self.web[w].wake = Some(at);
        self.queue
            .schedule(at, Event::WebWake { session: w as u32 });
    }

    /// A session's wake-up is due.
    pub(super) fn web_wake(&mut self, now: SimTime, w: usize) {
        if self.web[w].wake != Some(now) {
            return;
        }
        self.web[w].wake = None;
        let a = self.web[w].session.on_wake(now);
        self.web_act(now, w, a);
    }

    /// In-order bytes reached a web connection's receiver: a request or an object may be whole.
    pub(super) fn web_progress(&mut self, now: SimTime, f: usize, w: u32, end: WebEnd) {
        let w = w as usize;
        let id = FlowId(f as u32);
        let delivered = self.flows[f].receiver.delivered();
        let slot = &mut self.web[w];
        let Some((req, resp)) = slot.current else {
            return;
        };
        let a = match end {
            WebEnd::Request if id == req && delivered == slot.request_done_at => {
                slot.session.on_request_delivered()
            }
            WebEnd::Response if id == resp && delivered == slot.object_done_at => {
                slot.session.on_object_delivered(now)
            }
            _ => return,
        };
        self.web_act(now, w, a);
    }

    fn web_act(&mut self, now: SimTime, w: usize, a: Action) {
        match a {
            Action::None => {}
            Action::Wake(at) => self.wake_web(w, at),
            Action::Request {
                request,
                new_connection,
                ..
            } => {
                if new_connection || self.web[w].current.is_none() {
                    let req = self.open_web_connection(now, w, true);
                    let resp = self.open_web_connection(now, w, false);
                    let slot = &mut self.web[w];
                    slot.current = Some((req, resp));
                    slot.request_done_at = 0;
                    slot.object_done_at = 0;
                }
                let slot = &mut self.web[w];
                let Some((req, _)) = slot.current else { return };
                slot.request_done_at += u64::from(request);
                let limit = slot.request_done_at;
                self.flows[req.index()].sender.set_app_limit(limit);
                self.pump_sender(req.index(), now);
            }
            Action::Respond { size } => {
                let slot = &mut self.web[w];
                let Some((_, resp)) = slot.current else {
                    return;
                };
                slot.object_done_at += size;
                let limit = slot.object_done_at;
                self.flows[resp.index()].sender.set_app_limit(limit);
                self.pump_sender(resp.index(), now);
            }
        }
    }

    /// Open a connection of session `w`: a flow like any other, long-lived (it never
    /// completes), tagged with the session so that its deliveries reach it.
    fn open_web_connection(&mut self, now: SimTime, w: usize, upstream: bool) -> FlowId {
        let slot = &mut self.web[w];
        let n = slot.connections.len() as u32;
        let (sender, receiver) = slot.connector.open(now, n, upstream);
        let (src, dst) = if upstream {
            (slot.client, slot.server)
        } else {
            (slot.server, slot.client)
        };
        let id = FlowId(self.flows.len() as u32);
        slot.connections.push(id);
        let end = if upstream {
            WebEnd::Request
        } else {
            WebEnd::Response
        };
        self.flows.push(Flow::new(
            (id, src, dst),
            (sender, receiver),
            (now, false),
            false,
            Some((w as u32, end)),
        ));
        id
    }
}
