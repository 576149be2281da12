"""`dsim optimize --jobs`: a generation's weight vectors are played in parallel, each on the same training games,
so the search finds the same weights with the same history for any number of processes."""

import numpy as np

from sim.analysis.optimize import optimize
from sim.cli.common import build_spec
from sim.cli.main import main


def test_optimize_gives_the_same_answer_for_any_jobs():
    spec = build_spec("drachensachen", 300, 3, None, None, 5, None, None, None)
    one, two = (optimize(spec.game, spec, "weighted", "seat0", iters=2, popsize=3, jobs=jobs) for jobs in (1, 2))
    assert np.array_equal(one.table().to_numpy(), two.table().to_numpy())
    assert np.array_equal(one.best, two.best) and one.best_score == two.best_score
    assert one.gain == two.gain


def test_optimize_takes_jobs(tmp_path, capsys):
    assert main(["optimize", "--game", "drachensachen", "--strategy", "weighted", "--role", "seat0", "--n", "100",
                 "--iters", "1", "--jobs", "2", "--out", str(tmp_path)]) == 0
    assert main(["optimize", "--game", "drachensachen", "--strategy", "weighted", "--role", "seat0",
                 "--jobs", "0", "--out", str(tmp_path / "none")]) == 2
    assert "--jobs must be" in capsys.readouterr().err and not (tmp_path / "none").exists()
