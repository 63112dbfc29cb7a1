"""Headless Chromium driven over the DevTools protocol on a pipe (--remote-debugging-pipe), with
the standard library only: open a page, wait for text, take a screenshot; and a PNG reader for
checking the screenshot's colours."""
import base64
import json
import os
import subprocess
import time
import zlib

import numpy as np


class Chromium:
    def __init__(self, width=1400, height=900):
        commands_read, commands_write = os.pipe()
        replies_read, replies_write = os.pipe()

        def child():
            # Chromium reads commands on fd 3 and writes replies on fd 4.
            a, b = os.dup(commands_read), os.dup(replies_write)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen(
            ["chromium", "--headless=new", "--no-sandbox", "--remote-debugging-pipe",
             "--use-gl=angle", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
             f"--window-size={width},{height}", "about:blank"],
            close_fds=False, preexec_fn=child, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        os.close(commands_read)
        os.close(replies_write)
        self.commands = os.fdopen(commands_write, "wb")
        self.replies = replies_read
        self.buffer = b""
        self.last_id = 0
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.send("Target.attachToTarget",
                                 {"targetId": target, "flatten": True})["sessionId"]
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
                  page=True)

    def send(self, method, params=None, page=False):
        self.last_id += 1
        message = {"id": self.last_id, "method": method, "params": params or {}}
        if page:
            message["sessionId"] = self.session
        self.commands.write(json.dumps(message).encode() + b"\0")
        self.commands.flush()
        while True:
            while b"\0" not in self.buffer:
                chunk = os.read(self.replies, 1 << 20)
                if not chunk:
                    raise RuntimeError("chromium closed its DevTools pipe")
                self.buffer += chunk
            line, self.buffer = self.buffer.split(b"\0", 1)
            reply = json.loads(line)
            if reply.get("id") == self.last_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply["result"]

    def text(self):
        result = self.send("Runtime.evaluate",
                           {"expression": "document.body ? document.body.innerText : ''",
                            "returnByValue": True}, page=True)
        return result["result"].get("value", "")

    def loaded(self):
        result = self.send("Runtime.evaluate", {"expression": "document.readyState",
                                                "returnByValue": True}, page=True)
        return result["result"].get("value") == "complete"

    def open_and_wait(self, url, ready, seconds):
        """Navigates to url and waits until the document is loaded and ready(page text) holds;
        returns the text. Loaded first: a long page's text can show before its end is parsed."""
        self.send("Page.navigate", {"url": url}, page=True)
        deadline = time.time() + seconds
        text = ""
        while time.time() < deadline:
            time.sleep(1)
            if not self.loaded():
                continue
            text = self.text()
            if ready(text):
                return text
        raise TimeoutError(f"the page was not ready in {seconds} s; it shows: {text[:300]!r}")

    def screenshot(self):
        return base64.b64decode(self.send("Page.captureScreenshot", {"format": "png"},
                                          page=True)["data"])

    def close(self):
        self.proc.kill()
        self.proc.wait()


def keep_artifact(name, data):
    """Keeps a screenshot in the build's test-artifacts folder (DUMPCMP_ARTIFACTS), when set."""
    artifacts = os.environ.get("DUMPCMP_ARTIFACTS")
    if artifacts:
        os.makedirs(artifacts, exist_ok=True)
        with open(os.path.join(artifacts, name), "wb") as f:
            f.write(data)


def png_pixels(data):
    """(height, width, 3) uint8 RGB of an 8-bit, non-interlaced RGB or RGBA PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    while pos < len(data):
        n = int.from_bytes(data[pos:pos + 4], "big")
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, height = int.from_bytes(body[:4], "big"), int.from_bytes(body[4:8], "big")
            assert body[8] == 8 and body[12] == 0, "only 8-bit non-interlaced PNGs"
            channels = {2: 3, 6: 4}[body[9]]
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = width * channels
    rows = np.zeros((height, stride), dtype=np.uint8)
    previous = np.zeros(stride, dtype=np.int32)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = np.frombuffer(raw, dtype=np.uint8, count=stride,
                             offset=y * (stride + 1) + 1).astype(np.int32)
        if kind == 0:
            current = line
        elif kind == 2:
            current = (line + previous) & 255
        else:  # Sub, Average, Paeth: each byte depends on the one to its left
            current = np.zeros(stride, dtype=np.int32)
            for x in range(stride):
                a = current[x - channels] if x >= channels else 0
                b = previous[x]
                c = previous[x - channels] if x >= channels else 0
                if kind == 1:
                    p = a
                elif kind == 3:
                    p = (a + b) >> 1
                else:
                    pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                    p = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                current[x] = (line[x] + p) & 255
        rows[y] = current
        previous = current
    return rows.reshape(height, width, channels)[:, :, :3]


def count_colour(pixels, hex_colour, tolerance=12):
    rgb = [int(hex_colour[k:k + 2], 16) for k in (1, 3, 5)]
    return int((np.abs(pixels.astype(np.int32) - rgb).sum(axis=2) < tolerance).sum())
