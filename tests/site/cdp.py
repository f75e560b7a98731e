"""cdp.py: a small driver for headless Chromium over the DevTools protocol (--remote-debugging-pipe), with
Python's standard library only: open a tab, go to a URL, evaluate JavaScript, send commands (input
events among them) one at a time or in a batch, click where an element is, take a screenshot. Used by
site_check.py.
Left out: everything else the protocol offers; one browser, tabs driven one command at a time (or a batch
of input events sent at once, send_all).
"""
import base64
import fcntl
import json
import os
import subprocess
import threading
import time

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--mute-audio",
         "--disable-extensions", "--remote-debugging-pipe"]


class Error(Exception):
    pass


class Browser:
    """Chromium with a fresh profile in user_data_dir; its stderr goes to log_path."""

    def __init__(self, chromium, user_data_dir, log_path, width=1280, height=1000, extra=()):
        to_child, self._w = os.pipe()        # the browser reads commands on its fd 3
        self._r, from_child = os.pipe()      # and writes replies on its fd 4
        self._log = open(log_path, "wb")
        high = [fcntl.fcntl(fd, fcntl.F_DUPFD, 100) for fd in (to_child, from_child)]   # clear of 3 and 4

        def fds():
            os.dup2(high[0], 3)
            os.dup2(high[1], 4)
        self.proc = subprocess.Popen(
            [chromium] + FLAGS + [f"--user-data-dir={user_data_dir}", f"--window-size={width},{height}",
                                  *extra, "about:blank"],
            stdin=subprocess.DEVNULL, stdout=self._log, stderr=self._log, pass_fds=(3, 4), preexec_fn=fds)
        for fd in [to_child, from_child] + high:
            os.close(fd)
        self._next, self._replies, self._events, self._closed = 0, {}, [], False
        self._cv = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        buf = b""
        with os.fdopen(self._r, "rb", buffering=0) as f:
            while True:
                chunk = f.read(1 << 16)
                if not chunk:
                    break
                buf += chunk
                *msgs, buf = buf.split(b"\0")
                with self._cv:
                    for m in msgs:
                        msg = json.loads(m)
                        if "id" in msg:
                            self._replies[msg["id"]] = msg
                        else:
                            self._events.append(msg)
                    self._cv.notify_all()
        with self._cv:
            self._closed = True
            self._cv.notify_all()

    def send(self, method, params=None, session=None, timeout=30):
        return self._reply(self._post(method, params, session), method, timeout)

    def send_all(self, commands, session=None, timeout=30):
        """Sends every (method, params) at once, in order, then waits for every reply: one round trip for
        many commands (the browser handles a session's input events in the order they come)."""
        ids = [(self._post(method, params, session), method) for method, params in commands]
        return [self._reply(i, method, timeout) for i, method in ids]

    def _post(self, method, params, session):
        with self._cv:
            self._next += 1
            i = self._next
        msg = {"id": i, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self._w, json.dumps(msg).encode() + b"\0")
        return i

    def _reply(self, i, method, timeout):
        end = time.time() + timeout
        with self._cv:
            while i not in self._replies:
                if self._closed:
                    raise Error(f"{method}: the browser closed")
                if not self._cv.wait(timeout=max(0.0, end - time.time())) and time.time() >= end:
                    raise Error(f"{method}: no reply in {timeout} s")
            reply = self._replies.pop(i)
        if "error" in reply:
            raise Error(f"{method}: {reply['error'].get('message')}")
        return reply.get("result", {})

    def wait_event(self, method, session, timeout=30, since=0):
        """The first event `method` of `session` after index `since` of the event list."""
        end = time.time() + timeout
        with self._cv:
            while True:
                for e in self._events[since:]:
                    if e.get("method") == method and e.get("sessionId") == session:
                        return e
                if not self._cv.wait(timeout=max(0.0, end - time.time())) and time.time() >= end:
                    raise Error(f"no {method} in {timeout} s")

    def events(self):
        with self._cv:
            return len(self._events)

    def tab(self):
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        return Tab(self, session)

    def close(self):
        try:
            self.send("Browser.close", timeout=5)
        except Error:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._log.close()


class Tab:
    def __init__(self, browser, session):
        self.b, self.s = browser, session
        for domain in ("Page", "Runtime"):
            self.send(domain + ".enable")
        self.errors = []                     # uncaught exceptions on the page (filled by check_errors)

    def send(self, method, params=None, timeout=30):
        return self.b.send(method, params, self.s, timeout)

    def send_all(self, commands, timeout=30):
        return self.b.send_all(commands, self.s, timeout)

    def goto(self, url, timeout=30):
        """Navigates and waits for the load event."""
        since = self.b.events()
        self.send("Page.navigate", {"url": url})
        self.b.wait_event("Page.loadEventFired", self.s, timeout, since)

    def eval(self, expression, timeout=30):
        r = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                           "awaitPromise": True}, timeout)
        if "exceptionDetails" in r:
            raise Error(f"{expression[:80]}: {r['exceptionDetails'].get('exception', {}).get('description')}")
        return r["result"].get("value")

    def click(self, selector):
        """A mouse click in the middle of the first element matching selector (scrolled into view)."""
        box = self.eval(f"""(() => {{ const e = document.querySelector({json.dumps(selector)});
            if (!e) return null; e.scrollIntoView({{block: "center"}}); const r = e.getBoundingClientRect();
            return [r.left + r.width / 2, r.top + r.height / 2]; }})()""")
        if not box:
            raise Error(f"nothing to click: {selector}")
        for t in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", {"type": t, "x": box[0], "y": box[1], "button": "left",
                                                   "clickCount": 1})

    def screenshot(self, path):
        data = self.send("Page.captureScreenshot", {"format": "png"})["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))
