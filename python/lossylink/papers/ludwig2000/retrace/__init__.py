"""S6 and S7 of Ludwig (2000): ReTracer on calibrated synthetic erasure traces (targets only:
each computes its value from the traces, no simulation runs)."""
