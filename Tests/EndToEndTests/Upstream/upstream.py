#!/usr/bin/env python3
"""A small real API for the proxy and record tests: an HTTP/1.1 server on 127.0.0.1 (never another address)
that keeps connections alive. It prints `upstream listening on PORT` once it is ready, then serves until
killed or until its standard input (a pipe from the test process) ends, so it never outlives its test; `upstream.py PORT CERT KEY` serves HTTPS with that certificate. Routes:

  GET  /json              a JSON object
  GET  /png               a PNG image (binary bytes)
  GET  /gzip, /deflate    a JSON text sent with Content-Encoding gzip, deflate
  GET  /br                a JSON text sent with Content-Encoding br (bytes made by libbrotlienc)
  GET  /counter           {"count": N}, N counting this path's calls
  GET  /slow?seconds=S    waits S seconds, then answers
  GET  /big?size=N        N bytes of a repeating pattern (Content-Length; ?chunked=1 sends them chunked)
  GET  /noise?size=N      N bytes that do not compress (noise(N) below), sent with Content-Encoding gzip
  GET  /stall             announces 1000 bytes, sends 10, then waits a minute
  GET  /cookie            a Set-Cookie header
  GET  /empty             204
  ANY  /echo/...          the request as JSON: method, path, query, headers (a list of pairs), body size and text
  POST /upload            reads the body as it comes; {"size": N, "crc32": C}
  GET  /hop               hop-by-hop headers (Connection: X-Hop, X-Hop, Keep-Alive, Proxy-Note) and X-Kept
  GET  /__upstream/hits   {"PATH": calls} for every path asked, and "connections": TCP connections accepted
  GET  /unframed          a text without Content-Length or chunks, ended by closing the connection
  GET  /trailers          a chunked text with a chunk extension and a trailer
  GET  /hints             103 Early Hints, then a JSON object
  GET  /then-close        a JSON object (with Content-Length, no Connection: close), then, 0.3 s later, the
                          connection closed unread: a request sent on it meanwhile gets no answer
  GET  /garbage           bytes that are no HTTP answer, then the connection closed
  GET  /etag              a JSON object with ETag "v1"; 304 without a body to If-None-Match: "v1"
  GET  /range             "0123456789" (text/plain, Accept-Ranges: bytes); 206 with the bytes a Range:
                          bytes=A-B header asks for and its Content-Range
  GET  /abc               "A" to this path's first two calls, "B" to the later ones
  GET  /get, POST /post   the request as JSON, as /echo (httpbin's routes, whose names are methods')
  GET  /raw/...           heads written byte for byte: untyped (no Content-Type), latin1 (a header byte that is
                          not UTF-8), odd-status (999), not-a-header (a line without a colon), big-head (17 000
                          bytes of headers), not-modified (304 without a length), not-modified-with-length (304
                          with Content-Length: 1234), redirect (Location and Link naming this server's URL)
Any other path: 404 with a JSON body naming it.
"""
import gzip
import json
import os
import ssl
import sys
import threading
import time
import urllib.parse
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360f8cfc0f01f0005000201e2b2b0"
    "ba0000000049454e44ae426082"
)
TEXT = b'{"encoding": "%s", "text": "espresso martini, shaken hard, served cold"}'
BROTLI = bytes.fromhex(
    "1b47000044b779bd63b7c7e5f7194a4a605067040e3901ff9e50201a061339e1a07b7b1e9fd7edea4905c7a18029862a1897e9c6ce6e096eda8a46da714170008734f801"
)

def noise(size):
    """`size` bytes from a linear congruential generator (x = x * 1103515245 + 12345 mod 2**31 from 1, each
    byte bits 16-23 of the next x): they hardly compress, and a test computes the same."""
    x, out = 1, bytearray(size)
    for i in range(size):
        x = (x * 1103515245 + 12345) % 2147483648
        out[i] = (x >> 16) & 0xFF
    return bytes(out)


hits = {}
connections = [0]
lock = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *arguments):
        pass

    def setup(self):
        super().setup()
        with lock:
            connections[0] += 1

    def send(self, status, body, content_type="application/json", headers=()):
        self.send_response(status)
        if content_type:
            self.send_header("Content-Type", content_type)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def read_body(self):
        if "chunked" in (self.headers.get("Transfer-Encoding") or ""):
            data = b""
            while True:
                size = int(self.rfile.readline().split(b";")[0], 16)
                if size == 0:
                    self.rfile.readline()
                    return data
                data += self.rfile.read(size)
                self.rfile.readline()
        return self.rfile.read(int(self.headers.get("Content-Length") or 0))

    def handle_any(self):
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query)
        with lock:
            hits[url.path] = hits.get(url.path, 0) + 1
            count = hits[url.path]
        if url.path == "/upload":
            size, crc, left = 0, 0, int(self.headers.get("Content-Length") or 0)
            chunked = "chunked" in (self.headers.get("Transfer-Encoding") or "")
            data = self.read_body() if chunked else None
            if data is not None:
                size, crc = len(data), zlib.crc32(data)
            while left > 0:
                piece = self.rfile.read(min(left, 1 << 20))
                if not piece:
                    break
                size += len(piece)
                crc = zlib.crc32(piece, crc)
                left -= len(piece)
            return self.send(200, json.dumps({"size": size, "crc32": crc}).encode())
        body = self.read_body()
        if url.path.startswith("/echo") or url.path in ("/get", "/post"):
            return self.send(200, json.dumps({
                "method": self.command, "path": url.path, "query": url.query,
                "headers": [[name, value] for name, value in self.headers.items()],
                "body_size": len(body), "body": body.decode("utf-8", "replace"),
            }).encode())
        if url.path == "/__upstream/hits":
            with lock:
                return self.send(200, json.dumps({"hits": hits, "connections": connections[0]}).encode())
        if url.path == "/json":
            return self.send(200, b'{"id": 1, "name": "espresso"}', headers=[("X-Upstream", "json")])
        if url.path == "/png":
            return self.send(200, PNG, "image/png")
        if url.path == "/gzip":
            return self.send(200, gzip.compress(TEXT % b"gzip", mtime=0), headers=[("Content-Encoding", "gzip")])
        if url.path == "/deflate":
            return self.send(200, zlib.compress(TEXT % b"deflate"), headers=[("Content-Encoding", "deflate")])
        if url.path == "/br":
            return self.send(200, BROTLI, headers=[("Content-Encoding", "br")])
        if url.path == "/counter":
            return self.send(200, json.dumps({"count": count}).encode())
        if url.path == "/noise":
            body = gzip.compress(noise(int(query.get("size", ["0"])[0])), mtime=0)
            return self.send(200, body, "application/octet-stream", headers=[("Content-Encoding", "gzip")])
        if url.path == "/slow":
            time.sleep(float(query.get("seconds", ["1"])[0]))
            return self.send(200, b'{"slow": true}')
        if url.path == "/stall":
            self.send_response(200)
            self.send_header("Content-Length", "1000")
            self.end_headers()
            self.wfile.write(b"0123456789")
            self.wfile.flush()
            time.sleep(60)
            return
        if url.path == "/hop":
            return self.send(200, b'{"hop": true}', headers=[
                ("Connection", "X-Hop"), ("X-Hop", "1"), ("Keep-Alive", "timeout=5"), ("Proxy-Note", "x"), ("X-Kept", "yes")])
        if url.path == "/cookie":
            return self.send(200, b'{"cookie": "set"}', headers=[("Set-Cookie", "session=upstream-secret; Path=/")])
        if url.path == "/unframed":
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.end_headers()
            self.wfile.write(b"unframed: the end of the connection ends me")
            self.close_connection = True
            return
        if url.path == "/trailers":
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            self.wfile.write(b"9;kind=first\r\nespresso \r\n7\r\nmartini\r\n0\r\nX-Checksum: 42\r\n\r\n")
            return
        if url.path == "/hints":
            self.wfile.write(b"HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n")
            return self.send(200, b'{"hints": "before me"}')
        if url.path == "/then-close":
            self.send(200, json.dumps({"then": "close", "count": count}).encode())
            self.wfile.flush()
            time.sleep(0.3)
            self.close_connection = True
            return
        if url.path == "/garbage":
            self.wfile.write(b"SSH-2.0-NotHTTP\r\n\r\n")
            self.close_connection = True
            return
        if url.path == "/empty":
            self.send_response(204)
            self.end_headers()
            return
        if url.path == "/big":
            size = int(query.get("size", ["0"])[0])
            block = bytes(range(256)) * 4096
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            chunked = query.get("chunked", ["0"])[0] == "1"
            self.send_header("Transfer-Encoding" if chunked else "Content-Length", "chunked" if chunked else str(size))
            self.end_headers()
            if self.command == "HEAD":
                return
            left = size
            while left > 0:
                piece = block[: min(left, len(block))]
                self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece) if chunked else piece)
                left -= len(piece)
            if chunked:
                self.wfile.write(b"0\r\n\r\n")
            return
        if url.path == "/etag":
            if self.headers.get("If-None-Match") == '"v1"':
                self.send_response(304)
                self.send_header("ETag", '"v1"')
                self.end_headers()
                return
            return self.send(200, b'{"version": 1}', headers=[("ETag", '"v1"')])
        if url.path == "/range":
            text = b"0123456789"
            asked = self.headers.get("Range") or ""
            if asked.startswith("bytes=") and "-" in asked:
                first, last = (int(n) for n in asked[len("bytes="):].split("-"))
                return self.send(206, text[first:last + 1], "text/plain", headers=[
                    ("Accept-Ranges", "bytes"), ("Content-Range", "bytes %d-%d/%d" % (first, last, len(text)))])
            return self.send(200, text, "text/plain", headers=[("Accept-Ranges", "bytes")])
        if url.path == "/abc":
            return self.send(200, b"A" if count <= 2 else b"B", "text/plain")
        if url.path.startswith("/raw/"):
            # Heads written byte for byte: what http.server would not send.
            port = self.server.server_address[1]
            heads = {
                "/raw/untyped": b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
                "/raw/latin1": b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nX-Name: caf\xe9\r\nContent-Length: 2\r\n\r\nok",
                "/raw/odd-status": b"HTTP/1.1 999 Odd\r\nContent-Type: text/plain\r\nContent-Length: 3\r\n\r\nodd",
                "/raw/not-a-header": b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nthis is not a header\r\nContent-Length: 2\r\n\r\nok",
                "/raw/big-head": b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nX-Big: " + b"a" * 17000 + b"\r\nContent-Length: 2\r\n\r\nok",
                "/raw/not-modified": b"HTTP/1.1 304 Not Modified\r\nETag: \"r1\"\r\n\r\n",
                "/raw/not-modified-with-length": b"HTTP/1.1 304 Not Modified\r\nETag: \"r2\"\r\nContent-Length: 1234\r\n\r\n",
                "/raw/redirect": b"HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:%d/json\r\nLink: <http://127.0.0.1:%d/raw/redirect?page=2>; rel=next\r\nContent-Length: 0\r\n\r\n" % (port, port),
            }
            if url.path in heads:
                self.wfile.write(heads[url.path])
                return
        return self.send(404, json.dumps({"error": "no route " + url.path}).encode())

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = handle_any


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128


server = Server(("127.0.0.1", int(sys.argv[1]) if len(sys.argv) > 1 else 0), Handler)
if len(sys.argv) > 3:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(sys.argv[2], sys.argv[3])
    server.socket = context.wrap_socket(server.socket, server_side=True)


def exit_when_input_ends():
    sys.stdin.buffer.read()
    os._exit(0)


if not sys.stdin.isatty():
    threading.Thread(target=exit_when_input_ends, daemon=True).start()
print("upstream listening on %d" % server.server_address[1], flush=True)
server.serve_forever()
