"""Reports: pages and charts made from run directories.

- ``run_page``: a run's report.md and its PNG charts (``write_report``);
- ``experiment_page``: an experiment's page, its results beside their references;
- ``replay_page``: one self-contained HTML page that replays games;
- ``charts``: the matplotlib charts, in one style.
"""
