"""Every button at the rulebook's hidden moments, in Debian's Chromium: the most prominent one is the first
``next`` move, and no override (a digital draw included) is reachable without a question.

At each moment (everyone acted with the first player a sick seat the tablet plays, a shortage, a death's
cards, the raft that can leave, the sand running, the end of the bidding, Pocket's turn) the test lists
every enabled button the tablet and each phone show, unfolding what is folded, and compares the page with
the moves the game offers that reader now (``web.forms.page_forms``: the one description). Each game is a
fresh one on the module's ``companion run --sim``. Screenshots go where the other browser tests leave theirs (``SHOTS``).
Galèrapagos' moments are in test_lead_browser_galerapagos.py and the dice game's in
test_lead_browser_dice.py, so that xdist can hand the three modules to different workers.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.table.journal import Journal
from companion.table.session import Session
from tests.web.runner import Server
from tests.web.test_phone_moves import (
    SHOTS,
    TABLET,
    join_phone,
    play,
    synced,
    watch_posts,
)
from web import seat_view
from web.forms import page_forms

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]

#: every enabled button a reader can see, with what it belongs to (folded ones are opened first)
BUTTONS = r"""() => Array.from(document.querySelectorAll('button')).filter(b =>
    !b.disabled && !b.closest('dialog') && !b.closest('.privacy') && b.checkVisibility()).map(b => {
  const r = b.getBoundingClientRect(), f = b.closest('form.act');
  return {area: Math.round(r.width * r.height), y: Math.round(r.y + window.scrollY),
          text: b.textContent.trim().replace(/\s+/g, ' ').slice(0, 60),
          action: f ? f.dataset.action : null, player: f ? (f.dataset.player || null) : null,
          step: f ? f.dataset.step : null, lead: !!(f && f.classList.contains('lead')), big: b.classList.contains('big'),
          hand: b.dataset.privateOpen || null, draw: b.dataset.draw || null, ask: f ? (f.dataset.ask || '') : '',
          filled: !/^rgba?\((255, 255, 255|\d+, \d+, \d+, 0)\b/.test(getComputedStyle(b).backgroundColor)};
})"""


#: an override's form filled with its first legal values (a choice, a list's least, a range's low end), then sent
FILL = r"""f => {
  f.querySelectorAll('select[data-field]').forEach(s => {
    const o = Array.from(s.options).find(o => o.value && !o.disabled); if (o && !s.value) s.value = o.value; });
  f.querySelectorAll('.fld-chips:not(.fixed) input[data-field][data-required]').forEach(i => {
    if (i.value || i.closest('.sub[hidden]')) return;
    const c = i.closest('.fld').querySelector('.chip[data-value]'); if (c) c.click(); });
  if (document.querySelector('dialog#confirm[open]')) return;  /* a tap that completes the move sent it */
  f.querySelectorAll('.items[data-field]').forEach(box => {
    const add = box.querySelector('.palette .chip.add');
    for (let k = Math.max(1, Number(box.dataset.min)); add && k > 0; k--) add.click(); });
  f.querySelectorAll('input[type=number][data-field]').forEach(i => { if (!i.value) i.value = i.min; });
  if (!document.querySelector('dialog#confirm[open]')) f.requestSubmit();
}"""


@pytest.fixture(scope="module")
def server(sim_server: Server) -> Server:
    return sim_server


def script(name: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    lines = [json.loads(x) for x in (ROOT / "tests" / "scenarios" / name).read_text().splitlines() if x.strip()]
    return lines[0], lines[1:]


def tablet(browser, server: Server, gid: str):
    page = browser.new_context(**TABLET).new_page()
    page.goto(f"{server.base}/g/{gid}/table?token={server.token}")
    page.wait_for_selector("#live-status.ok")
    return page


def enter(server: Server, gid: str, phones: set[str], lines: list[dict[str, Any]], pages: dict | None = None) -> None:
    """The script's lines as the table enters them; a phone's secret vote from that phone (the table may not)."""
    for a in lines:
        if a.get("type") == "vote" and a.get("player") in phones and pages:
            pages[a["player"]].evaluate("a => window.companionPost('/api/games/' + document.body.dataset.game + '/actions', a)", a)
            continue
        out = (server.act_for if a.get("player") in phones else server.act)(gid, a)
        assert out.get("state") is not None, (a, out)


def first_next(server: Server, gid: str, seat: str | None, phones: set[str]) -> dict[str, Any] | None:
    """The reader's first ``next`` move as the game describes it now (the tablet: the table's and its seats')."""
    with Journal(server.db) as journal:
        session = Session.open(journal, gid)
        now, _ = page_forms(session, seat, "en", sorted(phones))
    if not now:
        return None
    whose = [f for f in now if f.get("player") == now[0].get("player")]
    return seat_view.split(whose, [])[0][0] if now[0].get("player") is not None else now[0]


def unfold(page) -> None:
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")


def check(page, expected: dict[str, Any] | None, name: str) -> list[dict[str, Any]]:
    """The most prominent enabled button is the first ``next`` move's (or its seat's hand-over); every override
    asks its question before anything is sent. Returns the buttons seen."""
    page.reload()  # the page as it first shows this moment (nothing left unfolded by an earlier look)
    page.wait_for_selector("#live-status.ok")
    page.evaluate("window.scrollTo(0, 0)")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))
    shown = page.evaluate(BUTTONS)
    unfold(page)
    buttons = page.evaluate(BUTTONS)
    # prominence as a player sees it: the big button, then a filled one over an outlined one, then its size
    top = max(shown, key=lambda b: (b["big"], b["filled"], b["area"], -b["y"])) if shown else None
    leads = [b for b in buttons if b["lead"]]
    if expected is None:  # nothing is this reader's to do now: nothing leads, nothing is big
        assert not leads and not any(b["big"] for b in buttons), (name, leads)
        assert top is None or (top["step"] != "override" and not top["hand"]), (name, top)
    else:
        assert top is not None, name
        who = expected.get("player")
        if expected.get("secret"):  # a tablet seat's vote: its hand-over leads
            assert top["hand"] == who and top["big"], (name, top, expected["type"])
        else:
            assert (top["action"], top["player"], top["step"]) == (expected["type"], who, "next"), (name, top, expected["type"], who)
            assert top["lead"] and not top["draw"], (name, top)
            assert all(b["area"] < top["area"] for b in buttons if b["draw"]), name  # a draw is never the biggest
    assert not any(b["big"] for b in buttons if b["draw"]), name  # a draw fills a move: never the big button
    for b in buttons:  # every override says what it corrects: the form carries its question
        if b["step"] == "override":
            assert b["ask"], (name, b)
    asks_first(page, name)
    return buttons


#: every visible override pressed in turn as completely as a player would (its draw's button, then the form
#: filled with its first legal values); each must open the page's question, which is answered « no », and the
#: page's close handler must have run before the next. Returns, per press, its question and what was posted.
PRESS_EVERY_OVERRIDE = """async ([fill, limit]) => {
  const press = new Function('f', 'return (' + fill + ')(f)');
  const until = async (ok, what) => {
    const end = performance.now() + limit;
    while (!ok()) {
      if (performance.now() > end) throw new Error('waited ' + limit + ' ms for ' + what);
      await new Promise(r => setTimeout(r, 20));
    }
  };
  const dialog = document.getElementById('confirm'), seen = [];
  const forms = Array.from(document.querySelectorAll("form.act[data-step='override']"));
  for (const [i, form] of forms.entries()) {
    document.querySelectorAll('details').forEach(d => d.open = true);
    if (!form.checkVisibility()) continue;
    const draw = form.querySelector('button[data-draw]');
    for (const target of draw ? [draw, null] : [null]) {
      window.__posted = [];
      if (target) target.click(); else press(form);
      await until(() => dialog.open, 'the question of override ' + i + ' (' + form.dataset.action + ')');
      const question = dialog.querySelector('.q').innerText.trim();
      dialog.querySelector("button[value='cancel']").click();
      await until(() => !dialog.open && dialog.querySelector('.q').textContent === '', 'its close handler');
      seen.push({action: form.dataset.action, draw: !!target, question, posted: window.__posted.slice()});
    }
  }
  return seen;
}"""


def asks_first(page, name: str) -> None:
    """Press every override (a digital draw inside one included) as completely as a player would: each asks
    its question in the page's own dialog; answered « no », nothing was sent. One pass in the page (the
    presses, the question's text and the posts each made are returned and checked here)."""
    page.wait_for_function("() => document.body.dataset.version !== undefined", timeout=5000)
    version = page.evaluate("document.body.dataset.version")
    watch_posts(page)
    presses = page.evaluate(PRESS_EVERY_OVERRIDE, [FILL, 3000])
    for press in presses:
        assert press["question"], (name, press)
        assert [url for url in press["posted"] if not url.endswith("/draft")] == [], (name, press)  # « no »: nothing sent
    assert page.evaluate("document.body.dataset.version") == version, f"{name}: an override was sent unasked"


def look(server: Server, gid: str, pages: dict[str | None, Any], phones: set[str], name: str) -> dict[str | None, list]:
    """Every page at this moment checked against its reader's moves (None: the tablet)."""
    synced(server, gid, *pages.values())
    seen = {}
    for seat, page in pages.items():
        expected = first_next(server, gid, seat, phones)
        seen[seat] = check(page, expected, f"{name}-{seat or 'tablet'}")
    return seen


def to_the_end(server: Server, gid: str, pages: dict[str | None, Any], phones: set[str], lines: list[dict[str, Any]],
               name: str) -> None:
    """The script's lines up to its last, checked once more; the last entered as a player does on the screen
    that plays its seat (the tablet for the table and its seats); then the game is over on every screen."""
    enter(server, gid, phones, lines[:-1], pages)
    look(server, gid, pages, phones, f"{name}-last")
    last = dict(lines[-1])
    kind, who = last.pop("type"), last.pop("player", None)
    page = pages[who] if who in phones else pages[None]
    with Journal(server.db) as journal:
        now, _ = page_forms(Session.open(journal, gid), who if who in phones else None, "en", sorted(phones))
    mover = next((f for f in now if f["type"] == kind and f.get("player") in (who, None)
                  or f["type"] == kind and who is None), None)
    assert mover is not None, (name, kind, [f["type"] for f in now])  # the last move is one the rulebook expects
    play(page, kind, last, player=mover.get("player"), table=mover.get("player") is None)
    synced(server, gid, *pages.values())
    assert server.api("GET", f"/api/games/{gid}")["state"]["over"]
    for seat, p in pages.items():
        p.wait_for_selector(".banner.over", timeout=5000)
        p.evaluate("window.scrollTo(0, 0)")
        p.screenshot(path=str(SHOTS / f"{name}-over-{seat or 'tablet'}.png"), full_page=True)


def close(*pages) -> None:
    for p in pages:
        p.context.close()


# -- the auction: the end of the bidding ----------------------------------------------------------------
@pytest.mark.slow(reason="an auction played to its end on the tablet and a phone, every enabled button of both "
                         "listed and compared with the moves at the tiles, the bidding and its end")
def test_auction_end_of_the_bidding_leads_with_the_direction(browser, server: Server) -> None:
    head, lines = script("auction_review_two_players.jsonl")
    phones = {"Fay"}
    gid, code = server.new_game("galapagos-auction", head["players"])
    tab = tablet(browser, server, gid)
    pages = {None: tab, "Fay": join_phone(browser, server, code, "Fay")}
    try:
        look(server, gid, pages, phones, "tile")  # the table lays the tiles: a draw fills it, never the big one
        enter(server, gid, phones, lines[:4])
        look(server, gid, pages, phones, "bidding")
        enter(server, gid, phones, lines[4:6])  # both pass: Eve, played on the tablet, chooses the direction
        look(server, gid, pages, phones, "bidding-over")
        assert tab.locator(".seat-turn[data-seat='Eve'] form.act.lead").count() == 1
        to_the_end(server, gid, pages, phones, lines[6:], "auction")
    finally:
        close(*pages.values())


# -- Pocket: a turn on the tablet alone -------------------------------------------------------------------
def test_pocket_turn_leads_with_its_next_move(browser, server: Server) -> None:
    head, lines = script("pocket_complete_win_advanced.jsonl")
    gid, _ = server.new_game("pocket-galapagos", head["players"], head.get("options"))
    tab = tablet(browser, server, gid)
    try:
        look(server, gid, {None: tab}, set(), "pocket-start")
        enter(server, gid, set(), lines[:3])
        look(server, gid, {None: tab}, set(), "pocket-turn")
        to_the_end(server, gid, {None: tab}, set(), lines[3:], "pocket")
    finally:
        close(tab)


# -- taps where the table waits --------------------------------------------------------------------------
def test_a_tablet_seats_vote_and_a_phones_gift_take_two_taps(browser, server: Server) -> None:
    """After the hand-over (« Pass the tablet to Bob », « I am Bob »), Bob's vote is his choice and its
    confirmation; a gift from a phone is « More moves » and whom to: how many cards sits beside the name."""
    from tests.support.dashboard import TO_THE_VOTE

    gid, code = server.new_game("galerapagos", ["Ann", "Bob", "Cleo"])
    ann = join_phone(browser, server, code, "Ann")
    tab = tablet(browser, server, gid)
    try:
        enter(server, gid, {"Ann"}, TO_THE_VOTE[:1])
        synced(server, gid, ann)
        cards = {p["name"]: p["cards"] for p in server.api("GET", f"/api/games/{gid}")["state"]["players"]}
        taps = 0
        ann.click("details.more > summary")  # the gift is not what the rulebook waits for: folded
        taps += 1
        give = ann.locator("form.act[data-action='give'][data-player='Ann']")
        assert give.get_attribute("data-tap") is not None and give.locator("button.send").count() == 0
        give.locator(f".fld-chips:not(.minor) .chip[data-value='{json.dumps('Cleo')}']").click()
        taps += 1
        ann.wait_for_selector(".toast.good:not([hidden])", timeout=5000)
        after = {p["name"]: p["cards"] for p in server.api("GET", f"/api/games/{gid}")["state"]["players"]}
        assert (after["Ann"], after["Cleo"]) == (cards["Ann"] - 1, cards["Cleo"] + 1) and taps == 2
        enter(server, gid, {"Ann"}, TO_THE_VOTE[1:])
        enter(server, gid, {"Ann"}, [{"type": "survival"}, {"type": "debate"}])  # no card played: the vote
        synced(server, gid, tab)
        first = tab.locator("[data-private-open].big")
        assert first.count() == 1  # one big hand-over: the first seat the vote waits for
        seat = first.get_attribute("data-private-open")
        first.click()  # the hand-over
        tab.locator(".privacy button.show").click()
        taps = 0
        target = next(p for p in ("Ann", "Bob", "Cleo") if p != seat)
        tab.locator(f".privacy form.act[data-action='vote'] .chip[data-value='{json.dumps(target)}']").click()
        taps += 1
        tab.wait_for_selector("dialog#confirm[open]", timeout=3000)
        tab.click("dialog#confirm button[value='ok']")
        taps += 1
        tab.wait_for_selector(".privacy", state="detached", timeout=5000)
        votes = [e["action"] for e in server.api("GET", f"/api/games/{gid}")["last_actions"] if e["action"]["type"] == "vote"]
        assert votes and votes[0]["player"] == seat and taps == 2
    finally:
        close(ann, tab)


# -- joining closed ----------------------------------------------------------------------------------------
def test_after_close_joining_the_tablet_shows_no_dead_code(browser, server: Server) -> None:
    gid, code = server.new_game("pocket-galapagos", ["Ann"])
    tab = tablet(browser, server, gid)
    try:
        box = tab.locator(".joinbox")
        assert box.locator("img.qr").is_visible() and code[:3] in box.inner_text()
        tab.click("form.joining button[name='open'][value='0']")  # « Close joining »
        tab.wait_for_selector(".joinbox .join-closed:not([hidden])", timeout=5000)
        assert not box.locator("img.qr").is_visible()
        said = box.inner_text()
        assert code[:3] not in said and "join?code" not in said and "Joining is closed" in said
        tab.click("form.joining button[name='open'][value='1']")  # a new code, shown again
        tab.wait_for_selector(".joinbox img.qr", state="visible", timeout=5000)
        server.api("POST", f"/api/games/{gid}/joining", {"open": False})  # closed elsewhere: this page follows live
        tab.wait_for_selector(".joinbox .join-open", state="hidden", timeout=10_000)  # the reloaded page's stream
        assert tab.locator(".joinbox .join-closed").is_visible()
        tab.screenshot(path=str(SHOTS / "joining-closed.png"))
    finally:
        close(tab)
