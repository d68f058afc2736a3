"""Reports: pages and charts made from run directories.

- ``run_page``: a run's report.md, report.html and its charts (``write_report``), put
  together from ``loading`` (a run directory read into a ``RunContents``), ``run_tables`` (the
  tables computed from it) and ``run_sections`` (their Markdown);
- ``experiment_page``: an experiment's page, its results beside their references;
- ``replay_page``: one self-contained HTML page that replays games;
- ``charts``: the matplotlib charts, in one style.
"""
