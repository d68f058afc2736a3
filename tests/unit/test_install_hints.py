"""The hint for a missing optional extra: one form everywhere, from ``arena.system.install``,
right for how the arena was installed (an editable checkout installs the extra from the
checkout, a regular install by the package's name)."""

from __future__ import annotations

import importlib
import importlib.metadata
import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from arena.system import install
from tests.helpers.paths import ROOT

EDITABLE = {"dir_info": {"editable": True}, "url": "file:///home/me/connect%20four"}
REGULAR_FROM_FOLDER = {"dir_info": {}, "url": "file:///home/me/connect-four"}


def dist_info(folder: Path, direct_url: dict[str, object] | None, installer: bool = True
              ) -> importlib.metadata.Distribution:
    """The metadata of an arena installed in ``folder``: a record of ``direct_url`` (None:
    none, as for a wheel of the index) and of its installer (none: a checkout's egg-info)."""
    folder.mkdir(parents=True)
    (folder / "METADATA").write_text("Metadata-Version: 2.1\nName: connect-four-arena\n"
                                     "Version: 1.0\n\nThe README.\n")
    (folder / "RECORD").write_text(f"{folder.name}/METADATA,,\n")
    if installer:
        (folder / "INSTALLER").write_text("pip\n")
    if direct_url is not None:
        (folder / "direct_url.json").write_text(json.dumps(direct_url))
    return importlib.metadata.PathDistribution(folder)


def installed_as(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                 direct_url: dict[str, object] | None) -> None:
    """Make the arena's distributions a checkout's egg-info (found first, as when Python runs
    in the checkout), then the install that records ``direct_url``."""
    found = [dist_info(tmp_path / "connect_four_arena.egg-info", None, installer=False),
             dist_info(tmp_path / "site" / "connect_four_arena-1.0.dist-info", direct_url)]
    every = importlib.metadata.distributions
    monkeypatch.setattr(install.importlib.metadata, "distributions", lambda **query: (
        iter(found) if query == {"name": install.DISTRIBUTION} else every(**query)))


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


def test_the_readme_is_the_installed_metadata(monkeypatch: pytest.MonkeyPatch,
                                              tmp_path: Path) -> None:
    installed_as(monkeypatch, tmp_path, None)
    readme = install.readme_file()
    assert readme == tmp_path / "site" / "connect_four_arena-1.0.dist-info" / "METADATA"
    assert readme.read_text().endswith("The README.\n")


def test_the_hint_is_the_same_in_the_checkout_as_elsewhere(tmp_path: Path) -> None:
    """Python run in the checkout finds its egg-info first, which records no install."""
    probe = ("from arena.system.install import install_command, readme_file; "
             "print(install_command('llm'), readme_file())")
    told = {folder: subprocess.run([sys.executable, "-c", probe], cwd=folder, text=True,
                                   capture_output=True, check=True).stdout
            for folder in (ROOT, tmp_path)}
    assert told[ROOT] == told[tmp_path]


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
