"""What Ludwig (2000) proposes for the GSM link beyond its measurements (group ``gsm-ext``):
the flow-adaptive link layer, RFC 2507 header compression and handovers (runs, targets)."""
