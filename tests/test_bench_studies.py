"""`make bench` reads the published studies' solve times against their targets."""

from __future__ import annotations

import json


def test_the_benchmark_reads_each_study_time_against_its_target(tmp_path):
    from sim.tooling.bench_studies import rows, studies_section
    (tmp_path / "drako").mkdir()
    (tmp_path / "drako" / "equilibrium_drako_2p.json").write_text(json.dumps({"seconds": 600}))
    (tmp_path / "drako" / "compare_drako_equilibrium.json").write_text(json.dumps({"seconds": 1300, "arms": [{}]}))
    (tmp_path / "drako" / "tune_drako_equilibrium_dwarf_spaces_0.json").write_text(json.dumps({"seconds": 1500}))
    found = {r["kind"]: (r["seconds"], r["target"]) for r in rows(tmp_path)}
    assert found == {"equilibrium": (600, 900), "compare at equilibrium (2 arms)": (1300, 1200),
                     "tune at equilibrium": (1500, 1200)}
    text = "\n".join(studies_section(tmp_path))
    assert "| drako/equilibrium_drako_2p.json | equilibrium | 10.0 | 15 | yes |" in text
    assert "| drako/compare_drako_equilibrium.json | compare at equilibrium (2 arms) | 21.7 | 20 | NO |" in text


def test_a_skipped_bench_section_is_kept_as_it_was_and_said_so(tmp_path):
    from sim.tooling.bench import kept_section
    path = tmp_path / "bench.md"
    path.write_text("# Benchmark\n\n## Design commands (2 cores)\n\n| a | 1 |\n\n## Scale\n\nother\n")
    kept = kept_section(path, "## Design commands")
    assert kept[1] == "## Design commands (2 cores)" and "| a | 1 |" in kept and "other" not in kept
    assert any("Not rerun" in line for line in kept)
    assert kept_section(path, "## Nothing") == [] and kept_section(tmp_path / "none.md", "## Scale") == []
