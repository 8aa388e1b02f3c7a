"""The report sections and figures of each paper, one module per name of
:data:`lossylink.papers.PAPERS` (found by :func:`lossylink.report.paper_report`)."""
