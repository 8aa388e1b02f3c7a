"""The Eifel refinements of Ludwig (2000): the late third DUPACK, the burst pacer and RTO_AGG
(runs, targets, and Fig 5-18 in ``report``)."""
