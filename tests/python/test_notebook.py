"""A new user's notebook, executed in a real Jupyter kernel (nbclient + ipykernel): a run, a
saved run's sequence plot shown inline, a small sweep with its summary. Every figure cell must
produce an image, no repr may exceed 2,000 characters, and importing lossylink must leave the
notebook's matplotlib backend alone."""

from __future__ import annotations

import json

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

LIMIT = 2000

CELLS = [
    # 0: the backend before and after importing everything that draws.
    "import matplotlib\n"
    "before = matplotlib.rcParams._get_backend_or_none()\n"
    "import lossylink as ll\n"
    "from lossylink import plots, report\n"
    "from lossylink.saved import load_run, save_run\n"
    "print('BACKEND', before == matplotlib.rcParams._get_backend_or_none())",
    # 1: a run, shown by its repr.
    "r = ll.run('lan', seed=1, error_every='64KiB', transfer='512KiB', trace=True)\nr",
    # 2: save and load it; its sequence plot inline.
    "save_run(r, RUN_DIR)\n"
    "saved = load_run(RUN_DIR)\n"
    "plots.seq_figure([('lan, seed 1', saved.trace)])",
    # 3: a scenario.
    "ll.Scenario.preset('wan')",
    # 4: a small sweep with the progress bar asked for (no ipywidgets here: text lines).
    "sw = ll.sweep(ll.Scenario.preset('lan', transfer='256KiB'),\n"
    "              {'scheme': ['e2e', 'e2e-newreno'], 'error_every': ['32KiB', '64KiB']},\n"
    "              seeds=2, executor='seq', cache=False, progress=True)\n"
    "sw",
    # 5: its summary.
    "sw.summary_frame()[['scheme', 'error_every', 'runs', 'throughput_mbps_mean']]",
]
FIGURE_CELLS = (2,)


@pytest.fixture(scope="module")
def executed(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, object]]:
    tmp = tmp_path_factory.mktemp("nb")
    setup = f"RUN_DIR = {json.dumps(str(tmp / 'run'))}\n"
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(setup + CELLS[0])] + [
        nbformat.v4.new_code_cell(src) for src in CELLS[1:]
    ]
    client = nbclient.NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp)}}
    )
    client.execute()
    return [cell["outputs"] for cell in nb.cells]


def _texts(outputs: list[dict[str, object]]) -> list[str]:
    texts = []
    for out in outputs:
        data = out.get("data", {})
        assert isinstance(data, dict)
        for mime in ("text/plain", "text/html"):
            if mime in data:
                texts.append(str(data[mime]))
    return texts


def test_no_cell_fails(executed: list[list[dict[str, object]]]) -> None:
    for i, outputs in enumerate(executed):
        errors = [o for o in outputs if o.get("output_type") == "error"]
        assert not errors, (i, errors)


def test_importing_lossylink_keeps_the_backend(executed: list[list[dict[str, object]]]) -> None:
    streams = "".join(str(o.get("text", "")) for o in executed[0])
    assert "BACKEND True" in streams


def test_figure_cells_show_an_image(executed: list[list[dict[str, object]]]) -> None:
    for i in FIGURE_CELLS:
        images = [o for o in executed[i] if "image/png" in o.get("data", {})]  # type: ignore[operator]
        assert len(images) == 1, (i, executed[i])


def test_reprs_are_short(executed: list[list[dict[str, object]]]) -> None:
    for i in (1, 3, 4, 5):
        texts = _texts(executed[i])
        assert texts, (i, executed[i])
        for text in texts:
            assert len(text) < LIMIT, (i, len(text))
    # The run, the scenario and the sweep render as HTML tables.
    for i in (1, 3, 4):
        assert any(
            o.get("data", {}).get("text/html", "").startswith("<table>") for o in executed[i]
        )  # type: ignore[union-attr]


def test_progress_falls_back_to_text(executed: list[list[dict[str, object]]]) -> None:
    import importlib.util

    if importlib.util.find_spec("ipywidgets") is not None:
        pytest.skip("ipywidgets is installed: rich draws its widget instead of text lines")
    stderr = "".join(str(o.get("text", "")) for o in executed[4] if o.get("name") == "stderr")
    assert "sweep: 8/8 runs" in stderr
    assert "ipywidgets" not in stderr
