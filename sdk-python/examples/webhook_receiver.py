"""Webhook receiver on the standard library's http.server: read the raw body, verify it, answer
204 or 400.

    SVC_WEBHOOK_SECRET=whsec_... PORT=3000 python3 examples/webhook_receiver.py
"""

from __future__ import annotations

import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from svc_sdk import WebhookVerificationError, webhooks

secret = os.environ.get("SVC_WEBHOOK_SECRET", "")
# Deliveries are handled on threads: one line at a time, so that two never interleave.
_output = threading.Lock()


def say(line: str) -> None:
    with _output:
        print(line, flush=True)


class Handler(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        if self.path != "/hooks/svc":
            self.send_response(404)
            self.end_headers()
            return
        # The body exactly as sent: verification signs these bytes, not a re-serialised copy.
        raw = self.rfile.read(int(self.headers.get("content-length") or 0))
        try:
            event = webhooks.verify(raw, self.headers.get("x-svc-signature"), secret)
        except WebhookVerificationError as err:
            say(f"refused {err.reason}")
            body = json.dumps({"error": err.reason}).encode()
            self.send_response(400)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        # Acknowledge first: slow processing would make the dispatcher retry the delivery.
        self.send_response(204)
        self.end_headers()
        say(f"received {event['type']} {event['id']}")

    def log_message(self, format: str, *args: object) -> None:
        pass  # one line per delivery above is enough


server = ThreadingHTTPServer(("127.0.0.1", int(os.environ.get("PORT", "3000"))), Handler)
say(f"listening {server.server_address[1]}")
server.serve_forever()
