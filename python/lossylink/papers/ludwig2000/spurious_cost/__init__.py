"""S12 of Ludwig (2000), the cost of a spurious retransmission: the squares model of Fig 5-7
(``model``, analytical) and its packet-level version (runs, targets, ``report``)."""
