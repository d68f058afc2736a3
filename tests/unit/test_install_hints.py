"""The hint for a missing optional extra: one form everywhere, from ``arena.system.install``,
right for how the arena was installed (an editable checkout installs the extra from the
checkout, a regular install by the package's name)."""

from __future__ import annotations

import importlib
import importlib.metadata
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from arena.system import install
from tests.helpers.paths import ROOT

EDITABLE = {"dir_info": {"editable": True}, "url": "file:///home/me/connect%20four"}
REGULAR_FROM_FOLDER = {"dir_info": {}, "url": "file:///home/me/connect-four"}


def installed_as(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                 direct_url: dict[str, object] | None) -> None:
    """Make the arena's distribution one whose metadata records ``direct_url`` (None: none,
    as for an install from a wheel of the index)."""
    dist_info = tmp_path / "connect_four_arena-1.0.dist-info"
    dist_info.mkdir()
    (dist_info / "METADATA").write_text("Metadata-Version: 2.1\nName: connect-four-arena\n"
                                        "Version: 1.0\n")
    if direct_url is not None:
        (dist_info / "direct_url.json").write_text(json.dumps(direct_url))
    found = importlib.metadata.distribution
    monkeypatch.setattr(install.importlib.metadata, "distribution", lambda name: (
        importlib.metadata.PathDistribution(dist_info) if name == install.DISTRIBUTION
        else found(name)))


def test_an_editable_install_installs_the_extra_from_its_checkout(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    installed_as(monkeypatch, tmp_path, EDITABLE)
    assert install.editable_checkout() == Path("/home/me/connect four")
    assert install.install_command("llm") == (
        "python3 -m pip install -e '.[llm]' in /home/me/connect four")


@pytest.mark.parametrize("direct_url", [None, REGULAR_FROM_FOLDER])
def test_a_regular_install_installs_the_extra_by_name(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        direct_url: dict[str, object] | None) -> None:
    installed_as(monkeypatch, tmp_path, direct_url)
    assert install.editable_checkout() is None
    assert install.install_command("llm") == "python3 -m pip install 'connect-four-arena[llm]'"


def test_this_checkout_is_seen_as_editable_or_not_by_pip_s_own_record() -> None:
    recorded = importlib.metadata.distribution(install.DISTRIBUTION).read_text(
        "direct_url.json")
    editable = bool(recorded and json.loads(recorded).get("dir_info", {}).get("editable"))
    assert (install.editable_checkout() == ROOT) is editable


def kaggle_builtin() -> None:
    from arena.kaggle.agent import kaggle_builtin
    kaggle_builtin("random")


def llm_agent() -> None:
    from connect_four_agents.llm import LlmAgent
    LlmAgent("m", base_url="http://127.0.0.1:9/v1", key_env="none")


def onnx_network() -> None:
    from connect_four_agents.onnx_agent import Network
    Network(Path("net.onnx"))


def parquet_file() -> None:
    from arena.analysis.dataset_files import check_out
    check_out(Path("x.parquet"))


def window() -> None:
    from arena.play.gui import require_pygame
    require_pygame()


def dask_backend() -> None:
    from arena.runs.planning.request import RunRequest
    RunRequest(backend="dask")


def environment(module: str) -> Callable[[], None]:
    def load() -> None:
        sys.modules.pop(module, None)
        importlib.import_module(module)
    return load


NEEDS: list[tuple[str, str, Callable[[], None]]] = [
    ("kaggle", "kaggle_environments", kaggle_builtin),
    ("llm", "openai", llm_agent),
    ("onnx", "onnxruntime", onnx_network),
    ("datasets", "pyarrow", parquet_file),
    ("gui", "pygame", window),
    ("dask", "distributed", dask_backend),
    ("rl", "gymnasium", environment("arena.envs.gymnasium_env")),
    ("rl", "pettingzoo", environment("arena.envs.pettingzoo_env")),
]


@pytest.mark.parametrize("direct_url", [EDITABLE, None], ids=["editable", "regular"])
@pytest.mark.parametrize(("extra", "module", "use"), NEEDS, ids=[
    f"{extra}-{module}" for extra, module, _ in NEEDS])
def test_every_missing_extra_gives_the_one_hint(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, direct_url: dict[str, object] | None,
        extra: str, module: str, use: Callable[[], None]) -> None:
    installed_as(monkeypatch, tmp_path, direct_url)
    for name in [name for name in sys.modules if name == module or name.startswith(
            f"{module}.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, module, None)  # importing it fails, find_spec is None
    for loaded in ("arena.envs.gymnasium_env", "arena.envs.pettingzoo_env"):
        if loaded in sys.modules:  # put back as it was after the test
            monkeypatch.setitem(sys.modules, loaded, sys.modules[loaded])
    with pytest.raises(Exception) as raised:  # each use raises an error class of its own
        use()
    message = str(raised.value)
    assert "\n" not in message
    assert message.endswith(f"(the {extra} extra): {install.install_command(extra)}"), message


def test_no_other_module_spells_an_install_command_of_an_extra() -> None:
    sources = [*sorted((ROOT / "arena").rglob("*.py")), *sorted((ROOT / "agents").rglob("*.py"))]
    spelled = [path.relative_to(ROOT) for path in sources
               if path != Path(install.__file__)
               and re.search(r"pip install[^\n]*\[", path.read_text(encoding="utf-8"))]
    assert spelled == []
