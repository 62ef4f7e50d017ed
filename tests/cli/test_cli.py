"""The command line as a player uses it from a shell.

Each call is ``main(argv)`` in this process (tests/support/cli.py: the exit status, standard output and
standard error a shell sees); the tests about processes (one killed with SIGKILL mid-write, the terminal
table killed) start real ones.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tests.support.cli import companion

POCKET = "pocket-galapagos"


def companion_process(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``companion`` in a process of its own, as a shell starts it."""
    return subprocess.run([sys.executable, "-m", "companion", "--db", str(db), *args],
                          capture_output=True, text=True, timeout=60)


def test_games_lists_ids_names_and_player_counts(db_path: Path) -> None:
    out = companion(db_path, "games")
    assert out.returncode == 0
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    pocket = next(r for r in rows if r["id"] == POCKET)
    assert pocket["min_players"] == 1 and pocket["max_players"] == 1 and pocket["name"]


def test_a_game_played_from_the_shell_survives_kill_9_between_calls(db_path: Path) -> None:
    game_id = companion_process(db_path, "new", POCKET, "--players", "Ann").stdout.strip()
    assert game_id
    moves = [
        {"type": "ocean", "species": "rat", "icons": 2, "mode": "migrate"},
        {"type": "end_turn"},
        {"type": "ocean", "species": "ant", "icons": 1, "mode": "migrate"},
    ]
    for move in moves:
        assert companion_process(db_path, "act", game_id, json.dumps(move)).returncode == 0
        # a process holding the journal open is killed mid-write between the calls
        killer = textwrap.dedent(f"""
            import os, signal, sqlite3
            db = sqlite3.connect({str(db_path)!r}, isolation_level=None)
            db.execute("BEGIN IMMEDIATE")
            db.execute("INSERT INTO actions (game_id, seq, action, source, at) VALUES (?, 999, '{{}}', 'x', 0)", ({game_id!r},))
            os.kill(os.getpid(), signal.SIGKILL)
        """)
        proc = subprocess.run([sys.executable, "-c", killer], timeout=60)
        assert proc.returncode == -signal.SIGKILL
    shown = json.loads(companion_process(db_path, "show", game_id).stdout)
    assert shown["version"] == 3
    assert shown["turn"] == 2


def test_the_terminal_table_keeps_what_was_typed_when_killed(db_path: Path) -> None:
    game_id = companion(db_path, "new", POCKET, "--players", "Ann").stdout.strip()
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "--db", str(db_path), "play", game_id],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    assert proc.stdin is not None
    proc.stdin.write("ocean rat 3 migrate\nend_turn\n")
    proc.stdin.flush()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if json.loads(companion(db_path, "show", game_id).stdout)["version"] == 2:
            break
        time.sleep(0.1)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    shown = json.loads(companion(db_path, "show", game_id).stdout)
    assert shown["version"] == 2


def test_undo_redo_and_list(db_path: Path) -> None:
    game_id = companion(db_path, "new", POCKET, "--players", "Ann").stdout.strip()
    companion(db_path, "act", game_id, '{"type": "end_turn"}')
    undone = companion(db_path, "undo", game_id)
    assert undone.returncode == 0 and json.loads(undone.stdout)["undo"] == {"type": "end_turn"}
    assert json.loads(companion(db_path, "show", game_id).stdout)["version"] == 0
    nothing = companion(db_path, "undo", game_id)
    assert nothing.returncode == 2 and "nothing to undo" in nothing.stderr
    assert companion(db_path, "redo", game_id).returncode == 0
    listed = companion(db_path, "list", "--json")
    assert [json.loads(line)["id"] for line in listed.stdout.splitlines()] == [game_id]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["act", "{id}", "{not json"], "not valid JSON"),
        (["act", "{id}", '{"type": "teleport"}'], "no action \"teleport\""),
        (["act", "{id}", '{"type": "end_turn", "colour": "red"}'], "no field \"colour\""),
        (["act", "nosuchgame", '{"type": "end_turn"}'], "There is no game 'nosuchgame'"),
        (["new", "chess", "--players", "Ann"], "There is no game 'chess'"),
        (["new", POCKET, "--players", "Ann,Bob"], "players"),
        (["new", POCKET, "--players", "Ann", "--option", "oops"], "KEY=VALUE"),
        (["frobnicate"], "invalid choice"),
    ],
)
def test_bad_input_is_one_sentence_and_exit_2(db_path: Path, args: list[str], needle: str) -> None:
    game_id = companion(db_path, "new", POCKET, "--players", "Ann").stdout.strip()
    before = companion(db_path, "show", game_id).stdout
    out = companion(db_path, *[a.replace("{id}", game_id) for a in args])
    assert out.returncode == 2
    assert needle in out.stderr
    assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1
    assert companion(db_path, "show", game_id).stdout == before


def write(tmp_path: Path, *lines: str) -> Path:
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_script_prints_the_public_state(db_path: Path, tmp_path: Path) -> None:
    path = write(tmp_path, json.dumps({"game": POCKET, "players": ["Ann"]}), "", '{"type": "end_turn"}')
    out = companion(db_path, "script", str(path))
    assert out.returncode == 0
    state = json.loads(out.stdout)
    for key in ("game", "round", "over", "players", "scores", "winners"):
        assert key in state
    assert state["players"][0]["name"] == "Ann" and state["over"] is False and state["winners"] == []


@pytest.mark.parametrize(
    ("lines", "line", "needle"),
    [
        (['{"game": "chess", "players": ["Ann"]}'], 1, "no game"),
        (['{"game": "pocket-galapagos", "players": ["Ann"]}', "", "{oops"], 3, "not valid JSON"),
        (['{"game": "pocket-galapagos", "players": ["Ann"]}', '{"type": "end_turn"}', '{"type": "fly"}'], 3,
         "no action"),
        (['{"game": "pocket-galapagos", "players": ["Ann"]}', '{"type": "end_turn", "x": 1}'], 2, "no field"),
    ],
)
def test_script_errors_name_the_line(db_path: Path, tmp_path: Path, lines: list[str], line: int, needle: str) -> None:
    out = companion(db_path, "script", str(write(tmp_path, *lines)))
    assert out.returncode == 2
    result = json.loads(out.stdout)
    assert result["error"]["line"] == line
    assert needle in result["error"]["message"]
    if line > 1:
        assert result["state"]["game"] == POCKET
        # the state is the one *before* the rejected line
        accepted = lines[1:line - 1]
        assert result["state"]["turn"] == 1 + sum('"end_turn"' in a for a in accepted)
    assert "Traceback" not in out.stderr
