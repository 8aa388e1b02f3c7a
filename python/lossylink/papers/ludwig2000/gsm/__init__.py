"""S1-S5 of Ludwig (2000), TCP over GSM-CSD with RLP (runs, targets, and the multi-layer and
utilization figures in ``report``)."""
