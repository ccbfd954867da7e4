"""The atlas tables (sim/analysis/atlas.py): one row per seat or message, one column per
table size, each cell the run's own estimate; seats a table does not have are "—"."""

from sim.analysis import atlas
from sim.tournament.config import shipped_configs, load_experiment


def rep(players, seats, values=(), tie_rate=0.0):
    return {"provenance": {"config": {"rules": {"players": players}}, "blocks_stored": 100},
            "seat": [{"seat": s, "win_share": w, "low": w - 0.01, "high": w + 0.01}
                     for s, w in enumerate(seats)],
            "tie_rate": tie_rate, "headline": [],
            "counterfactual": [dict(v, phase="all") for v in values]}


def test_seat_table_has_a_column_per_table_size_and_dashes_beyond_it():
    lines = atlas.seat_advantage(rep(2, [0.55, 0.45]), rep(3, [0.4, 0.35, 0.25], tie_rate=0.02))
    table = [line for line in lines if line.startswith("| seat 2")]
    assert table == ["| seat 2 | — | 0.250 [0.240, 0.260] |"]
    assert "| fair share (1/players) | 0.500 | 0.333 |" in lines
    assert "| games with a shared win | 0.000 | 0.020 |" in lines


def test_message_values_table_lines_up_actions_across_table_sizes():
    v = {"edition": "c3.1", "action": "per_knight", "d_margin": 0.5, "d_margin_low": 0.3,
         "d_margin_high": 0.7, "d_win": 0.01, "d_win_low": 0.0, "d_win_high": 0.02}
    lines = atlas.message_values(rep(2, [0.5, 0.5], [v]), rep(3, [0.3, 0.3, 0.4]))
    assert "| c3.1 | per_knight | +0.50 [0.30, 0.70] | — |" in lines
    assert any("±0.200 points (2 players)" in line and "1 margin cell is wider than ±0.1 points" in line
               for line in lines)
    narrow = dict(v, d_margin_low=0.41, d_margin_high=0.59)  # ±0.09
    lines = atlas.message_values(rep(2, [0.5, 0.5], [narrow]), rep(3, [0.3, 0.3, 0.4], [narrow]))
    assert any("every margin cell is within ±0.1 points" in line for line in lines)


def test_every_table_size_has_its_shipped_config():
    names = set(shipped_configs())
    for question in ("seat", "message_values", "figure_forks", "road_forks"):
        for n in atlas.PLAYER_COUNTS:
            exp = load_experiment(shipped_configs()[f"atlas_{question}_{n}p"])
            assert exp.rules.players == n
    assert "atlas_message_values_abbot_2p" in names


def test_findings_only_replaces_its_sections_and_keeps_the_others():
    from sim.analysis.findings import splice
    doc = "# Findings\n\nintro\n\n## A\n\nold a\n\n## B\n\nb\n\n---\nCPU time: 3 minutes.\n"
    out = splice(doc, ["\n## A\n\nnew a\n", "\n## C\n\nc\n"], 120)
    assert out.startswith("# Findings\n\nintro\n\n## A\n\nnew a\n\n## B\n\nb\n\n## C\n\nc\n\n---\n")
    assert "old a" not in out and out.rstrip().endswith("with --only: 2.0 CPU minutes.")
