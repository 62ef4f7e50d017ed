"""The dump tool end to end, as the issue will check it: the simulator CLI plays an event script
on a pty, ``python -m firmware_bridge --port PATH --dump`` prints what it decodes, and every
event arrives once, in order, in the docs/design.md vocabulary."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_bridge.events import read_script

ROOT = Path(__file__).resolve().parents[2]


def make_script(path: Path, count: int = 60, seed: int = 4) -> list[dict]:
    rng = random.Random(seed)
    lines, on, at = [], {}, 0.0
    for i in range(count):
        at += rng.choice((0.0, 0.005, 0.01, 0.02))
        kind = i % 3
        if kind == 0:
            reader = rng.randrange(8)
            if reader in on:
                lines.append({"at": round(at, 3), "tag": on.pop(reader), "reader": reader, "present": False})
            else:
                uid = "".join(f"{rng.randrange(256):02X}" for _ in range(rng.choice((4, 7, 10))))
                on[reader] = uid
                lines.append({"at": round(at, 3), "tag": uid, "reader": reader, "present": True})
        elif kind == 1:
            lines.append({"at": round(at, 3), "button": rng.randrange(6), "pressed": i % 2 == 0})
        else:
            lines.append({"at": round(at, 3), "dice": {"slot": rng.randrange(4), "face": rng.randrange(1, 7)}})
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    return lines


def event_key(obj: dict) -> tuple:
    if "tag" in obj:
        return ("tag", obj["tag"], obj["reader"], obj["present"])
    if "button" in obj:
        return ("button", obj["button"], obj["pressed"])
    return ("dice", obj["dice"]["slot"], obj["dice"]["face"])


def run_dump(script: Path, seconds: float, faults: str = "") -> tuple[list[dict], dict]:
    sim = subprocess.Popen(
        [sys.executable, "-m", "firmware_bridge.simulator", "--script", str(script), "--seed", "9"]
        + (["--faults", faults, "--reboot-every", "0.7", "--fault-rate", "0.05"] if faults else []),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        port = sim.stdout.readline().strip()  # type: ignore[union-attr]
        assert port.startswith("/dev/"), port
        dump = subprocess.run(
            [sys.executable, "-m", "firmware_bridge", "--port", port, "--dump", "--seconds", str(seconds)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=seconds + 20,
        )
    finally:
        sim.terminate()
        sim.wait(5)
    assert dump.returncode == 0, dump.stderr
    lines = [json.loads(line) for line in dump.stdout.splitlines()]
    summary = json.loads(dump.stderr.strip().splitlines()[-1])
    return lines, summary


def test_every_scripted_event_arrives_once_in_order(tmp_path: Path) -> None:
    script = tmp_path / "events.jsonl"
    expected = make_script(script)
    lines, summary = run_dump(script, seconds=1.5)
    events = [line for line in lines if "link" not in line]
    assert [event_key(e) for e in events] == [event_key(e) for e in expected]
    assert [line["link"] for line in lines if "link" in line][:2] == ["hello", "resync"]
    assert all(isinstance(e["at"], float | int) and "seq" in e and "boot_id" in e for e in events)
    ats = [e["at"] for e in events]
    assert ats == sorted(ats)
    # the dump's clock starts before the script's, so each event is seen at or after its time
    assert all(got >= want["at"] - 0.005 for got, want in zip(ats, expected, strict=True))
    assert summary["counters"]["bad_frames"] == 0 and summary["counters"]["gaps"] == 0


def test_a_dump_can_be_replayed_as_a_script(tmp_path: Path) -> None:
    """docs/design.md: the two share one vocabulary 'so that a recorded session can be replayed'."""
    script = tmp_path / "events.jsonl"
    expected = make_script(script, count=20, seed=8)
    lines, _ = run_dump(script, seconds=1.0)
    replayed = read_script(json.dumps(line) for line in lines)
    assert [e for _, e in replayed] == [e for _, e in read_script(json.dumps(x) for x in expected)]


def test_with_faults_the_dump_survives_and_its_final_view_matches(tmp_path: Path) -> None:
    """Faults on: the host survives, counts what it dropped, and after resync its view of which
    tags sit on which readers is right (resync lines report the snapshot)."""
    script = tmp_path / "events.jsonl"
    expected = make_script(script, count=150, seed=12)
    truth: dict[str, str] = {}
    for e in expected:
        if "tag" in e:
            if e["present"]:
                truth[str(e["reader"])] = e["tag"]
            elif truth.get(str(e["reader"])) == e["tag"]:
                del truth[str(e["reader"])]
    lines, summary = run_dump(script, seconds=4.0, faults="drop,corrupt,reboot")
    view: dict[str, str] = {}
    for line in lines:
        if "tag" in line:
            if line["present"]:
                view[str(line["reader"])] = line["tag"]
            elif view.get(str(line["reader"])) == line["tag"]:
                del view[str(line["reader"])]
    assert view == truth
    resyncs = [line for line in lines if line.get("link") == "resync"]
    assert resyncs[-1]["tags"] == truth
    counters = summary["counters"]
    assert counters["bad_frames"] > 0 and counters["gaps"] > 0 and counters["reboots"] > 0


@pytest.mark.parametrize("bad", ['{"at": 0, "tag": "XYZ", "reader": 1, "present": true}', '{"at": 0, "smoke": 1}'])
def test_the_simulator_refuses_a_bad_script(tmp_path: Path, bad: str) -> None:
    script = tmp_path / "bad.jsonl"
    script.write_text(bad + "\n")
    done = subprocess.run(
        [sys.executable, "-m", "firmware_bridge.simulator", "--script", str(script)],
        cwd=ROOT, capture_output=True, text=True, timeout=20,
    )
    assert done.returncode == 2 and "line 1" in done.stderr and done.stdout == ""
