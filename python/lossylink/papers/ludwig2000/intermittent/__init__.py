"""S13 of Ludwig (2000), intermittent connectivity: Reno against Eifel under repeated
link-stage holds (runs, targets, and the throughput by hold length in ``report``)."""
