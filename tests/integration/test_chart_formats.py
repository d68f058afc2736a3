"""Charts in every format a paper needs: the SVG parses and keeps its labels as text, the PDF
renders to a page (pdftoppm), the PNG has the pixels per inch asked for; --format and --dpi
from the commands, experiment files and the API."""

from __future__ import annotations

import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from matplotlib.image import imread

from arena.cli.report import report_command
from arena.competitions.experiments import ExperimentError, load_experiment
from arena.protocol.labels import short_name
from arena.report.run_page import write_report
from arena.runs.planning.charts import ChartOptions
from arena.runs.planning.plan import MatchSetupError
from arena.runs.planning.request import RunRequest
from tests.helpers.cli import invoke
from tests.integration.test_report import match_run, shown_kinds

SVG = "{http://www.w3.org/2000/svg}"
STRONG = "negamax:depth=6,heuristic=threats+positional"


def svg_text(path: Path) -> str:
    """Every text element's text of an SVG file (which must parse)."""
    root = ET.parse(path).getroot()
    assert root.tag == f"{SVG}svg"
    return "\n".join("".join(node.itertext()) for node in root.iter(f"{SVG}text"))


@pytest.mark.slow
def test_svg_charts_parse_and_keep_their_labels_as_text(tmp_path: Path) -> None:
    run = match_run(tmp_path / "match")
    page = write_report(run, ChartOptions(("svg",))).read_text()
    for chart in shown_kinds(run):
        assert f"]({chart}.svg)" in page and not (run / f"{chart}.png").exists()
        text = svg_text(run / f"{chart}.svg")
        assert short_name(STRONG).split()[0] in text and "random" in text
    assert "Wins, draws and losses per pairing" in svg_text(run / "wtl.svg")


@pytest.mark.slow
@pytest.mark.pdftoppm
def test_pdf_charts_render_to_a_page(tmp_path: Path) -> None:
    run = match_run(tmp_path / "match")
    page = write_report(run, ChartOptions(("png", "pdf"))).read_text()
    assert "[PDF](wtl.pdf)" in page and "](wtl.png)" in page
    subprocess.run(["pdftoppm", "-png", "-r", "40", "-singlefile", str(run / "wtl.pdf"),
                    str(tmp_path / "page")], check=True, capture_output=True)
    image = imread(tmp_path / "page.png")
    assert image.shape[1] == pytest.approx(7.0 * 40, abs=2)  # a two-column figure, 7 in
    assert (image[..., :3] < 0.5).mean() > 0.002  # ink: bars, text


@pytest.mark.slow
def test_dpi_sets_the_png_size_and_the_command_takes_both(tmp_path: Path) -> None:
    run = match_run(tmp_path / "match")
    result = invoke(str(run), "--format", "png,svg", "--dpi", "50", command=report_command)
    assert result.exit_code == 0, result.output
    assert imread(run / "wtl.png").shape[1] == pytest.approx(7.0 * 50, abs=2)
    assert (run / "wtl.svg").is_file()


@pytest.mark.parametrize("options", [["--format", "gif"], ["--format", "png,png"],
                                     ["--format", ""], ["--dpi", "0"]])
def test_bad_formats_are_one_line_and_exit_2(tmp_path: Path, options: list[str]) -> None:
    run = match_run(tmp_path / "match")
    result = invoke(str(run), *options, command=report_command)
    assert result.exit_code == 2
    assert not (run / "report.md").exists()


def test_the_api_and_experiment_files_take_formats(tmp_path: Path) -> None:
    assert RunRequest().with_options(formats="svg,pdf", dpi=300).charts() == ChartOptions(
        ("svg", "pdf"), 300)
    assert RunRequest(formats=["PDF"]).formats == ("pdf",)  # type: ignore[arg-type]
    with pytest.raises(MatchSetupError, match="chart format 'eps'"):
        RunRequest(formats=("eps",))
    path = tmp_path / "e.toml"
    path.write_text('[defaults]\nformats = ["svg", "pdf"]\ndpi = 300\n'
                    '[[match]]\nname = "m"\na = "random"\nb = "random"\ngames = 2\n'
                    'formats = "png"\n')
    experiment = load_experiment(path)
    assert experiment.charts == ChartOptions(("svg", "pdf"), 300)
    assert experiment.entries[0].request.charts() == ChartOptions(("png",), 300)
    path.write_text('[defaults]\nformats = "png,tiff"\n'
                    '[[match]]\nname = "m"\na = "random"\nb = "random"\ngames = 2\n')
    with pytest.raises(ExperimentError, match="tiff"):
        load_experiment(path)


@pytest.mark.slow
def test_a_label_names_the_agent_in_the_directory_report_charts_and_replay(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from arena.cli import main
    from arena.report.replay_page import write_replay_page

    monkeypatch.chdir(tmp_path)
    result = invoke("match", "random", "immediate-win", "-n", "4", "-j", "1", "-q",
                    "--label", "B=Blocker bot", "--format", "svg", command=main)
    assert result.exit_code == 0, result.output
    [run] = (tmp_path / "results" / "matches").iterdir()
    assert run.name.startswith("random-vs-Blocker-bot_seed42_")
    page = (run / "report.md").read_text()
    assert "| random | Blocker bot |" in page
    assert "Blocker bot" in svg_text(run / "wtl.svg")
    path, _ = write_replay_page(run)
    assert "<title>Replays: random vs Blocker bot</title>" in path.read_text()
    assert '"o":"Blocker bot"' in path.read_text() or '"x":"Blocker bot"' in path.read_text()
    bad = invoke("match", "random", "random", "-n", "2", "--label", "C=x", command=main)
    assert bad.exit_code == 2 and "--label" in bad.output
