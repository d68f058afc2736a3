"""Short labels for agent specs: readable, bounded, and distinct within a chart."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from arena.protocol.labels import (
    WIDTH,
    depth_family,
    plain_spec,
    plain_specs,
    short_name,
    short_names,
)
from arena.runs.planning.plan import default_out_dir
from connect_four_agents.net import MODEL as NET
from tests.helpers.runs import plan_of

# No registered agent of this name exists, so these labels come from the text alone.
UNKNOWN = "nosuchagent:depth=6,heuristic=threats+positional"


def test_spec_text_is_shortened() -> None:
    assert short_name(UNKNOWN) == "nosuchagent d6 threats+positional"[: WIDTH - 1] + "…"
    assert short_name(UNKNOWN, width=40) == "nosuchagent d6 threats+positional"
    assert short_name("nosuch:depth=3,c=1.5,greedy=true,book=no") == "nosuch d3 c=1.5 greedy no"
    assert short_name("nosuch:depth=3,cache=false") == "nosuch d3 no-cache"
    assert short_name("random") == "random"


def test_own_agents_are_named_by_their_file_and_class() -> None:
    assert short_name("my/agents/bot.py:Bot:depth=3,c=1.5") == "bot.py:Bot d3 c=1.5"
    assert short_name("my.agents:Bot") == "my.agents:Bot"


def test_default_values_are_dropped_when_the_spec_resolves() -> None:
    assert short_name("immediate-win:block=false") == "immediate-win"
    assert short_name("immediate-win:block=true") == "immediate-win block"
    assert short_name("minimax:depth=4,pruning=false") == "minimax d4 no-pruning"
    assert short_name("minimax:depth=6") == "minimax d6"


def test_the_depth_shows_even_at_its_default() -> None:
    assert short_name("negamax") == "negamax d4"
    assert short_name("negamax:heuristic=threats") == "negamax d4 threats"


def test_a_language_model_is_named_without_its_server_key_or_price() -> None:
    spec = ("llm:gpt-4o-mini,base_url=http://127.0.0.1:8000/v1,key_env=none,price=0.15/0.6,"
            "backoff=2,prompt=moves")
    assert short_name(spec) == "gpt-4o-mini moves"
    other = spec.replace("8000", "8001")
    assert len(set(short_names([spec, other]).values())) == 2  # two servers: told apart
    assert plain_spec(spec + "@time=5") == "llm:gpt-4o-mini,prompt=moves@time=5"
    assert plain_specs([spec, other]) == {spec: spec, other: other}
    assert plain_spec("negamax:depth=3") == "negamax:depth=3"


def test_a_model_name_with_colons_and_dashes_reads_whole() -> None:
    """Ollama's tags (``llama3.1:8b``) and dashed names are the model's name, whether the
    spec loads or is read from its text alone."""
    server = "base_url=http://localhost:11434/v1,key_env=none"
    assert short_name(f"llm:llama3.1:8b,{server},prompt=moves") == "llama3.1:8b moves"
    assert short_name("llm:qwen2.5-coder:7b-q4_K_M") == "qwen2.5-coder:7b-q4_K_M"
    assert short_name(f"llm:fake-model,{server}") == "fake-model"
    assert short_name(f"llm:fake-model,{server}@time=5") == "fake-model@time=5"
    assert short_name("llm:llama3.1:8b@time=5") == "llama3.1:8b@time=5"
    assert short_name("nosuch:llama3.1:8b,prompt=moves") == "llama3.1:8b moves"
    assert short_name("nosuch:fake-model,temperature=0.5") == "fake-model temperature=0.5"
    assert short_name("nosuch:llama3.1:8b") == "llama3.1:8b"
    assert default_out_dir(plan_of(f"llm:llama3.1:8b,{server},prompt=moves", "random", 2),
                           Path("r")).name.startswith("llama3.1-8b-moves-vs-random_seed5_")


def test_a_file_agent_is_named_once(tmp_path: Path) -> None:
    """A kaggle: or onnx: agent is named after its file; the file is not said twice."""
    submission = tmp_path / "main.py"
    submission.write_text("def agent(observation, configuration):\n    return 3\n")
    assert short_name(f"kaggle:{submission}", width=80) == "main.py"
    assert short_name(f"onnx:{NET},sims=20", width=80) == f"{NET.name} sims=20"


def test_every_form_of_a_file_s_agent_is_named_by_one_rule(tmp_path: Path) -> None:
    """The file's name without its folders, then the function or class the spec names: the
    same whether the file still loads or not (a stored spec read from its text)."""
    folder = tmp_path / "subs"
    folder.mkdir()
    (folder / "main.py").write_text("def my_agent(observation, configuration):\n"
                                    "    return 3\n")
    forms = {f"kaggle:{folder}/main.py": "main.py",
             f"{folder}/main.py:my_agent": "main.py:my_agent",
             f"engine:{folder}/main.py": "main.py",
             f"{tmp_path}/gone.py:Bot:depth=3": "gone.py:Bot d3",
             f"kaggle:{tmp_path}/gone.py": "gone.py"}
    assert {spec: short_name(spec, width=80) for spec in forms} == forms


def test_long_labels_are_truncated_with_an_ellipsis() -> None:
    label = short_name("nosuch:depth=2,heuristic=live-threats+stacked-threats+positional")
    assert label == "nosuch d2 live-threats+stacke…"
    assert len(label) == WIDTH


def test_labels_that_would_clash_are_told_apart() -> None:
    heuristic = "live-threats+stacked-threats+number-threats"
    specs = [f"nosuch:depth=4,heuristic={heuristic}",
             f"nosuch:depth=4,heuristic={heuristic}+positional",
             "immediate-win", "immediate-win:block=false", "random"]
    labels = short_names(specs)
    assert labels == {
        specs[0]: "nosuch d4 live…+number-threats",
        specs[1]: "nosuch d4 live…eats+positional",
        "immediate-win": "immediate-win",  # same agent as the next: both shown as written
        "immediate-win:block=false": "immediate-win:block=false",
        "random": "random",
    }


SPEC_TEXT = st.text(alphabet="ab=,:+-d0123456789", min_size=1, max_size=60)


@given(st.lists(SPEC_TEXT, min_size=1, max_size=12), st.integers(8, 40))
def test_labels_are_distinct_and_bounded(specs: list[str], width: int) -> None:
    labels = short_names(["nosuch:" + s for s in specs], width)
    assert set(labels) == {"nosuch:" + s for s in specs}
    assert len(set(labels.values())) == len(labels)
    assert all(len(label) <= width for label in labels.values())


def test_depth_families() -> None:
    default, shallow = depth_family("minimax"), depth_family("minimax:depth=2")
    assert default is not None and shallow is not None
    assert (default.value, shallow.value) == (4, 2) and default.key == shallow.key
    assert default.label == "minimax"
    no_pruning = depth_family("minimax:pruning=false,depth=2")
    assert no_pruning is not None and no_pruning.key != shallow.key
    assert no_pruning.label == "minimax no-pruning"
    assert depth_family("random") is None
    unknown = depth_family(UNKNOWN)
    assert unknown is not None and unknown.value == 6
    assert unknown.label == "nosuchagent threats+positional"
