# SPDX-License-Identifier: GPL-2.0
"""ssdload_report: the renderer of ssdload's result files.

Its entry script is userspace/ssdload-report.py (its docstring: what each
report holds; `ssdload report DIR` runs it).  Its modules, each importing
only those listed before it:

  common.py      what every kind shares: the checks of JSON values, the
                 formatting, the plots' figures (Plotter, deterministic
                 SVG), the CSV tables, atomic writes, the HTML page
  pts.py         pts.json: its checks, the run (Run), its CSV tables;
  pts_plots.py   its plots;
  pts_report.py  its page
  sweep.py       sweep.json: a queue-depth sweep
  curve.py       curve.json: an iorate curve
  run.py         run.json: a plain run and its latency study
  scale.py       scale.json: drive and RAID scaling
  latgrid.py     latency-grid.json: the QD 1 latency grid
  documents.py   which checker reads which result file; compare.json's
                 check of the documents it holds; load()
  compare.py     compare.json: runs of one kind side by side
  render.py      the report of a result directory: render()

Each kind's module holds its result (what the pages and plots derive from
the document), its plotter, its CSV writer and its report.  matplotlib is
imported when a plotter is made, never at the top level.
"""
