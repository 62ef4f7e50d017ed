"""The tablet's join panel on the table's own hotspot, in Debian's Chromium: the Wi-Fi QR code above the
join QR code, both decoded by ZXing from the page's screenshot as a phone's camera would see them.
"""

from __future__ import annotations

import io
import threading

import pytest
import zxingcpp
from PIL import Image
from werkzeug.serving import make_server

from companion.board import network
from hw import network as nm
from tests.hw import nmcli_recorded as rec
from tests.hw.nmcli_recorded import Recorded
from tests.support.dashboard import Table

pytestmark = pytest.mark.browser

SETTINGS = network.NetworkSettings(hotspot=True, ssid="Galapagos-7F3K", password="abcDEF234xyz")


@pytest.fixture
def served(table: Table):
    server = make_server("127.0.0.1", 0, table.app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield table, f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(5)


def test_the_tablet_shows_the_wifi_code_above_the_join_code_and_both_scan(served, browser, tmp_path):
    table, base = served
    net = network.TableNetwork(SETTINGS, nm.NetworkManager(run=Recorded(rec.HOTSPOT)), hostname="galapagos")
    table.dashboard.wifi = net.wifi
    table.dashboard.base_url = f"http://{net.host()}:8080"
    gid = table.new_game("galapagos-auction", ["Ann", "Bob"])
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.goto(f"{base}/?token={table.token}")
        page.goto(f"{base}/g/{gid}/table")
        box = page.locator(".joinbox")
        box.wait_for()
        assert page.locator("[data-part=wifi-ssid]").inner_text() == "Galapagos-7F3K"
        wifi_top = page.locator("img.wifi-qr").bounding_box()["y"]
        join_top = page.locator(f'img[src="/g/{gid}/qr.svg"]').bounding_box()["y"]
        assert wifi_top < join_top  # the first scan above the second
        shot = box.screenshot(path=str(tmp_path / "joinbox.png"))
    finally:
        page.close()
    image = Image.open(io.BytesIO(shot)).convert("L")
    found = {r.text: r.position.top_left.y for r in zxingcpp.read_barcodes(image)}
    wifi = nm.wifi_qr("Galapagos-7F3K", "abcDEF234xyz")
    join = f"http://10.42.0.1:8080/join?code={table.dashboard.keys.join_code(gid)}"
    assert set(found) == {wifi, join}
    assert found[wifi] < found[join]
