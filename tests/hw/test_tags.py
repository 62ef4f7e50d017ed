"""The tag registry: per-game components, die faces, enrolment, JSON export/import."""

from __future__ import annotations

import pytest

from hw.tags import Component, Enrolment, TagError, TagRegistry, make_component, opposite_face


@pytest.fixture
def registry(tmp_path):
    reg = TagRegistry(tmp_path / "companion.db")
    yield reg
    reg.close()


def test_a_game_specific_entry_beats_an_every_game_entry(registry):
    registry.enrol("04aa", "*", Component("ball", {"fish": 1}))
    registry.enrol("04AA", "galerapagos", Component("ball", {"fish": 3}))
    assert registry.lookup("04AA", "galerapagos").value["fish"] == 3
    assert registry.lookup("04aa", "pocket-galapagos").value["fish"] == 1
    assert registry.lookup("0BAD", "galerapagos") is None


def test_die_tag_under_a_face_reads_the_opposite_face_up():
    """A tagged die is read through its bottom face: the face up is the opposite one."""
    assert make_component("die", {"die": "d1", "bottom": 2}).value["up"] == 5
    assert opposite_face(6) == 1
    with pytest.raises(TagError, match="say which face is up"):
        make_component("die", {"die": "green", "bottom": "red"})
    assert make_component("die", {"die": "c", "bottom": "red", "up": "blue"}).value["up"] == "blue"


def test_components_are_validated_with_a_sentence():
    with pytest.raises(TagError, match="exactly two animals"):
        make_component("tile", {"animals": ["crab"]})
    with pytest.raises(TagError, match="not 'spoon'"):
        make_component("spoon", {})


def test_enrolment_is_scan_then_say_what_it_is(registry):
    flow = Enrolment(registry, "galapagos-auction")
    with pytest.raises(TagError, match="Scan the tag first"):
        flow.name("animal", {"animal": "crab"})
    flow.scanned("04:01")
    flow.name("tile", {"animals": ["crab", "iguana"]})
    assert registry.lookup("0401", "galapagos-auction") == Component("tile", {"animals": ["crab", "iguana"]})
    assert flow.pending is None


def test_a_queued_series_takes_the_next_scans(registry):
    flow = Enrolment(registry, "galapagos-dice")
    flow.queue(Component("turtle", {"number": n}) for n in (1, 2, 3))
    for uid in ("A1", "A2", "A3"):
        flow.scanned(uid)
    assert [registry.lookup(u, "galapagos-dice").value["number"] for u in ("A1", "A2", "A3")] == [1, 2, 3]
    assert flow.waiting == 0


def test_export_then_import_restores_every_tag(registry, tmp_path):
    registry.enrol("01", "galerapagos", Component("weather", {"water": 2}, "sunny"))
    registry.enrol("02", "*", Component("animal", {"animal": "crab"}))
    data = registry.export_json()
    other = TagRegistry(tmp_path / "other.db")
    assert other.import_json(data) == 2
    assert other.export_json() == data
    other.close()


def test_a_bad_import_writes_nothing(registry):
    registry.enrol("01", "*", Component("animal", {"animal": "crab"}))
    bad = {"format": "galapagos-tags", "version": 1, "tags": [
        {"uid": "02", "game": "*", "kind": "animal", "value": {"animal": "booby"}},
        {"uid": "03", "game": "*", "kind": "tile", "value": {"animals": []}},
    ]}
    with pytest.raises(TagError, match="Tag 2 of the export"):
        registry.import_json(bad, replace=True)
    assert [e["uid"] for e in registry.entries()] == ["01"]


def test_the_registry_shares_the_companion_database_file(tmp_path):
    """Its own table in the same file as the journal: other tables are left alone."""
    import sqlite3

    path = tmp_path / "companion.db"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE games (id TEXT)")
    con.commit()
    con.close()
    reg = TagRegistry(path)
    reg.enrol("01", "*", Component("turtle", {"number": 4}))
    reg.close()
    names = {r[0] for r in sqlite3.connect(path).execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert names == {"games", "hw_tags"}


def test_tags_cli_exports_and_imports(tmp_path, capsys, monkeypatch):
    from companion.cli.main import main

    db = tmp_path / "companion.db"
    reg = TagRegistry(db)
    reg.enrol("0401", "galapagos-dice", Component("turtle", {"number": 7}))
    reg.close()
    out = tmp_path / "tags.json"
    assert main(["--db", str(db), "tags", "export", str(out)]) == 0
    other = tmp_path / "other.db"
    assert main(["--db", str(other), "tags", "import", str(out)]) == 0
    assert '"imported": 1' in capsys.readouterr().out
    assert TagRegistry(other).lookup("0401", "galapagos-dice") == Component("turtle", {"number": 7})
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something-else"}')
    assert main(["--db", str(other), "tags", "import", str(bad)]) == 2
    assert "not a tag export" in capsys.readouterr().err
