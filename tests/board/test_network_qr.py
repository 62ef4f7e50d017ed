"""The two scans a phone needs on the table's own hotspot: the Wi-Fi QR code, then the join QR code,
on the OLED (lobby and game) and on the tablet — each decoded from the drawn pixels by ZXing
(zxing-cpp), and the Wi-Fi payload read back by the rules of the format phones read.

The Wi-Fi format (ZXing's « Barcode Contents », which Android and iOS cameras follow):
``WIFI:T:WPA;S:<ssid>;P:<password>;;``, the characters ``\\ ; , : "`` of a value escaped with a
backslash. :func:`read_wifi` below is an independent reading of that rule, not our encoder turned
around.
"""

from __future__ import annotations

import io
import re

import pytest
import zxingcpp
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from companion.board import network, screens
from companion.board.lobby import TableLobby
from companion.drawing.context import ScreenContext
from hw import network as nm
from hw.events import ButtonEvent
from hw.oled import open_oled
from tests.hw import nmcli_recorded as rec
from tests.hw.nmcli_recorded import Recorded
from tests.support.dashboard import Table

SETTINGS = network.NetworkSettings(hotspot=True, ssid="Galapagos-7F3K", password="abcDEF234xyz")
JOIN = "http://10.42.0.1:8080/join"


def read_wifi(payload: str) -> dict[str, str]:
    """The fields of a ``WIFI:`` payload: split on unescaped ``;``, each ``K:value`` unescaped."""
    assert payload.startswith("WIFI:") and payload.endswith(";;"), payload
    fields, current, escaped = {}, "", False
    for ch in payload[5:]:
        if escaped:
            current += ch
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch == ";":
            if current:
                key, _, value = current.partition(":")
                fields[key] = value
            current = ""
        else:
            current += ch
    return fields


def decode(image: Image.Image) -> list[str]:
    """Every QR code ZXing finds in ``image`` (an OLED frame: lit pixels are the light ones)."""
    big = image.convert("L").resize((image.width * 4, image.height * 4), Image.NEAREST)
    return [r.text for r in zxingcpp.read_barcodes(big) if r.format == zxingcpp.BarcodeFormat.QRCode]


def raster_svg(svg: bytes, scale: float = 12.0) -> Image.Image:
    """qrcode's SVG path (one ``M x,y H x2 V y2 H x z`` square a module) drawn dark on white."""
    text = svg.decode()
    size = float(re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', text).group(1))
    image = Image.new("L", (int(size * scale) + 1,) * 2, 255)
    draw = ImageDraw.Draw(image)
    for x, y, x2, y2 in re.findall(r"M([\d.]+),([\d.]+)H([\d.]+)V([\d.]+)", text):
        draw.rectangle((float(x) * scale, float(y) * scale, float(x2) * scale - 1, float(y2) * scale - 1), fill=0)
    return image


# -- the payload ------------------------------------------------------------------------------
def test_the_wifi_payload_escapes_the_format_s_special_characters():
    payload = nm.wifi_qr('Caf\u00e9; "Table": 4, back\\room', "pa;ss:wo,rd\"\\x")
    assert payload == ('WIFI:T:WPA;S:Caf\u00e9\\; \\"Table\\"\\: 4\\, back\\\\room;'
                       'P:pa\\;ss\\:wo\\,rd\\"\\\\x;;')
    assert read_wifi(payload) == {"T": "WPA", "S": 'Caf\u00e9; "Table": 4, back\\room', "P": "pa;ss:wo,rd\"\\x"}


SSIDS = st.text(st.characters(min_codepoint=32, max_codepoint=0x2FF), min_size=1, max_size=16)
PASSWORDS = st.text(st.characters(min_codepoint=32, max_codepoint=126), min_size=8, max_size=63)


@settings(max_examples=200, deadline=None)
@given(SSIDS, PASSWORDS)
def test_any_name_and_password_read_back_from_the_payload(ssid, password):
    assert read_wifi(nm.wifi_qr(ssid, password)) == {"T": "WPA", "S": ssid, "P": password}


@settings(max_examples=25, deadline=None)
@given(SSIDS, PASSWORDS)
def test_the_oled_s_wifi_code_decodes_to_the_same_network(ssid, password):
    payload = nm.wifi_qr(ssid, password)
    image = screens.render("wifi", {}, ScreenContext(data={"wifi": {"qr": payload, "ssid": ssid}}))
    (found,) = decode(image)
    assert found == payload and read_wifi(found)["S"] == ssid and read_wifi(found)["P"] == password


# -- the OLED: the lobby's two scans ----------------------------------------------------------
def hotspot_network() -> network.TableNetwork:
    return network.TableNetwork(SETTINGS, nm.NetworkManager(run=Recorded(rec.HOTSPOT)), hostname="galapagos")


def test_the_table_on_its_hotspot_gives_phones_the_hotspot_address_and_its_wifi_code():
    net = hotspot_network()
    assert net.host() == "10.42.0.1"
    assert net.wifi() == {"qr": "WIFI:T:WPA;S:Galapagos-7F3K;P:abcDEF234xyz;;", "ssid": "Galapagos-7F3K"}
    assert net.sentence() == "on its own Wi-Fi hotspot Galapagos-7F3K at 10.42.0.1"


@pytest.mark.parametrize("answers", [rec.KNOWN_WIFI, rec.WIRED])
def test_on_a_known_wifi_or_a_wire_there_is_no_wifi_code_and_phones_get_the_lan_address(answers):
    net = network.TableNetwork(SETTINGS, nm.NetworkManager(run=Recorded(answers)), hostname="galapagos")
    assert net.wifi() is None
    assert net.host() == "192.168.1.12"


def test_with_no_network_manager_phones_get_an_address_or_the_mdns_name_never_a_bare_host_name(monkeypatch):
    dead = nm.NetworkManager(run=lambda args: nm.Answer(1, "", "Error: Could not create NMClient object: "
                                                              "Could not connect: No such file or directory."))
    net = network.TableNetwork(SETTINGS, dead, hostname="galapagos")
    monkeypatch.setattr(nm, "lan_address", lambda: None)
    assert net.host() == "galapagos.local" and net.wifi() is None
    assert "NetworkManager is not running" in net.error


def test_the_lobby_shows_the_wifi_code_then_the_join_code():
    oled = open_oled("dummy")
    net = hotspot_network()
    lobby = TableLobby(oled, lambda *a: None, url=lambda: JOIN, wifi=net.wifi)
    lobby.handle(ButtonEvent("back"))
    assert lobby.stage == "wifi"
    assert decode(oled.frame) == [nm.wifi_qr("Galapagos-7F3K", "abcDEF234xyz")]
    lobby.handle(ButtonEvent("ok"))  # any button: the second scan
    assert lobby.stage == "qr" and decode(oled.frame) == [JOIN]
    lobby.handle(ButtonEvent("ok"))
    assert lobby.stage == "game"


def test_the_lobby_says_which_network_the_table_is_on():
    lobby = TableLobby(open_oled("dummy"), lambda *a: None, network=hotspot_network().sentence)
    assert lobby.hint().endswith("Back: the phones' QR code — Table on its own Wi-Fi hotspot Galapagos-7F3K at 10.42.0.1")
    wired = network.TableNetwork(SETTINGS, nm.NetworkManager(run=Recorded(rec.WIRED)), hostname="galapagos")
    lobby = TableLobby(open_oled("dummy"), lambda *a: None, network=wired.sentence)
    assert lobby.hint().endswith("Table on wired network Wired connection 1 at 192.168.1.12")


def test_off_the_hotspot_back_goes_straight_to_the_join_code():
    oled = open_oled("dummy")
    lobby = TableLobby(oled, lambda *a: None, url="http://192.168.1.12:8080/join", wifi=lambda: None)
    lobby.handle(ButtonEvent("back"))
    assert lobby.stage == "qr" and decode(oled.frame) == ["http://192.168.1.12:8080/join"]


def test_during_a_game_the_screens_offer_the_wifi_code_just_before_the_join_code(tmp_path):
    from companion.board.controller import TableController
    from companion.table.journal import Journal
    from companion.table.session import Session

    session = Session.new(Journal(tmp_path / "j.db"), "galapagos-auction", ["Ann", "Bob"], {})
    oled = open_oled("dummy")
    controller = TableController(session, oled, url=JOIN + "?code=X", wifi=hotspot_network().wifi)
    seen = []
    for _ in range(len(screens.cycle("galapagos-auction")) + 2):
        controller._cycle_screen(1)
        controller.refresh()
        seen.append((controller.screen, decode(oled.frame)))
    names = [name for name, _ in seen]
    assert names.index("wifi") + 1 == names.index("qr")
    assert dict(seen)["wifi"] == [nm.wifi_qr("Galapagos-7F3K", "abcDEF234xyz")]
    assert dict(seen)["qr"] == [JOIN + "?code=X"]
    controller.close()


# -- the tablet -------------------------------------------------------------------------------
def tablet(table: Table):
    c = table.client()
    assert c.get(f"/?token={table.token}").status_code == 302
    return c


def test_the_tablet_shows_the_wifi_code_then_the_join_code_on_the_hotspot(table: Table):
    table.dashboard.wifi = hotspot_network().wifi
    table.dashboard.base_url = "http://10.42.0.1:8080"
    gid = table.new_game("galapagos-auction", ["Ann", "Bob"])
    c = tablet(table)
    page = c.get(f"/g/{gid}/table").data.decode()
    assert page.index('src="/wifi.svg"') < page.index(f'src="/g/{gid}/qr.svg"')
    assert "Galapagos-7F3K" in page and "abcDEF234xyz" not in page  # the password is in the code only
    wifi = c.get("/wifi.svg")
    assert wifi.status_code == 200 and wifi.headers["Cache-Control"] == "no-store"
    assert decode_svg(wifi.data) == nm.wifi_qr("Galapagos-7F3K", "abcDEF234xyz")
    join = decode_svg(c.get(f"/g/{gid}/qr.svg").data)
    assert join == f"http://10.42.0.1:8080/join?code={table.dashboard.keys.join_code(gid)}"


def decode_svg(svg: bytes) -> str:
    (found,) = [r.text for r in zxingcpp.read_barcodes(raster_svg(svg))]
    return found


def test_the_wifi_code_is_the_table_s_alone(table: Table):
    """A phone (a seat's pass) or a stranger never gets the hotspot's password, by page or by picture."""
    table.dashboard.wifi = hotspot_network().wifi
    gid = table.new_game("galapagos-auction", ["Ann", "Bob"])
    stranger = table.client()
    assert stranger.get("/wifi.svg").status_code == 401
    phone = table.client()
    table.join(phone, gid, "Ann")
    assert phone.get("/wifi.svg").status_code in (401, 403)  # a pass is for its game, never for the table
    for path in (f"/g/{gid}/table", f"/g/{gid}/seat/Ann"):
        body = phone.get(path).data
        assert b"wifi.svg" not in body and b"abcDEF234xyz" not in body


def test_off_the_hotspot_the_tablet_has_no_wifi_code(table: Table):
    gid = table.new_game("galapagos-auction", ["Ann", "Bob"])
    c = tablet(table)
    assert b"wifi.svg" not in c.get(f"/g/{gid}/table").data
    r = c.get("/wifi.svg")
    assert r.status_code == 404 and b"not on its own hotspot" in r.data


def test_the_svg_rasteriser_reads_a_known_code():
    """The test's own SVG reader, checked on a code of known content."""
    import qrcode
    import qrcode.image.svg

    buf = io.BytesIO()
    qrcode.make("hello table", image_factory=qrcode.image.svg.SvgPathImage, box_size=8, border=2).save(buf)
    assert decode_svg(buf.getvalue()) == "hello table"



# -- the running table's join address -------------------------------------------------------------
def companion_on(tmp_path, manager):
    import dataclasses

    from companion.board.config import Config
    from companion.cli.app import build

    cfg = dataclasses.replace(Config(), pin_factory="lgpio", web_host="0.0.0.0", web_port=9000, network=SETTINGS)
    companion = build(cfg, tmp_path / "j.db", sim=False)
    companion.network = network.TableNetwork(SETTINGS, manager, hostname="galapagos")
    return companion


def test_the_running_table_on_its_hotspot_gives_its_address_and_wifi_code(tmp_path):
    companion = companion_on(tmp_path, nm.NetworkManager(run=Recorded(rec.HOTSPOT)))
    try:
        assert companion.base_url() == "http://10.42.0.1:9000"
        assert companion.wifi()["ssid"] == "Galapagos-7F3K"
    finally:
        companion.close()


def test_the_running_table_without_network_manager_never_gives_a_bare_host_name(tmp_path, monkeypatch):
    dead = nm.NetworkManager(run=lambda args: nm.Answer(1, "", "Error: Could not create NMClient object."))
    monkeypatch.setattr(nm, "lan_address", lambda: None)
    companion = companion_on(tmp_path, dead)
    try:
        assert companion.base_url() == "http://galapagos.local:9000"
        assert companion.wifi() is None
    finally:
        companion.close()


def test_a_game_s_join_code_follows_the_network_when_the_hotspot_comes_up_later(tmp_path):
    """A game resumed at start, before the boot check started the hotspot: its QR code changes with it."""
    from companion.board.controller import TableController
    from companion.table.journal import Journal
    from companion.table.session import Session

    answers = {"now": rec.WIRED}
    clock = {"t": 0.0}
    net = network.TableNetwork(SETTINGS, nm.NetworkManager(run=lambda args: Recorded(answers["now"])(args)),
                               clock=lambda: clock["t"], hostname="galapagos")
    session = Session.new(Journal(tmp_path / "j.db"), "galapagos-auction", ["Ann", "Bob"], {})
    oled = open_oled("dummy")
    controller = TableController(session, oled, url=lambda: f"http://{net.host()}:8080/join?code=X", wifi=net.wifi)
    controller.screen = "qr"
    controller.refresh()
    assert decode(oled.frame) == ["http://192.168.1.12:8080/join?code=X"]
    answers["now"], clock["t"] = rec.HOTSPOT, network.FRESH_SECONDS
    controller.refresh()
    assert decode(oled.frame) == ["http://10.42.0.1:8080/join?code=X"]
    controller.close()
