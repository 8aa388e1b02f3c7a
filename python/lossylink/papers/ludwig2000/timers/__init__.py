"""S9 and S10 of Ludwig (2000), the timers: the steady-state model and the timer testbed (runs,
targets, and the timer plots in ``report``)."""
