"""The hiccup experiments of Ludwig (2000): S8a-S8f, S11 and the LAN delay spike (runs,
targets, and the time-sequence and S11 figures in ``report``)."""
