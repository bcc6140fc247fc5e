#!/usr/bin/env python3
"""A minimal testee in Python (docs/PROTOCOL.md): hello, and hiverelay.decode
for three of the six HiveRelay BCC v1 schemas (section 3): ReadCellCapV1,
WriteCellCapV1 and CellBlobV1. Other schemas are answered unsupported, which
conform reports as not applicable.

It reads one open sentence otherwise than the project's default and says so
in hello (docs/READINGS.md, HR-READ-16): a CellBlobV1 decoded with no class
argument takes the class of its exact length ("class-from-length"), so conform
judges it by that branch's vector, not by the default's. With
TESTEE_UNDECLARED=1 it takes the reading without declaring it, and conform
reports the vector under "Readings taken but not declared".

    conform run --suite hiverelay --op hiverelay.decode -- python3 examples/python/testee.py
    conform run --one-shot --suite hiverelay -- python3 examples/python/testee.py
"""
import base64, json, os, platform, sys

BLOB_LENGTHS = {1: 4096, 2: 16384, 3: 65536, 4: 262144, 5: 1048576}
READINGS = {"HR-READ-16": "class-from-length"}  # the alternatives this testee takes

class BadEncoding(Exception):
    pass

class Reader:
    def __init__(self, b): self.b, self.i = b, 0
    def take(self, n, what):
        if self.i + n > len(self.b): raise BadEncoding(f"{what}: truncated at byte {self.i}")
        self.i += n
        return self.b[self.i - n:self.i]
    def u8(self, what): return self.take(1, what)[0]
    def nonzero(self, what):
        v = self.take(32, what)
        if not any(v): raise BadEncoding(f"{what}: 32 zero bytes")
        return v
    def end(self):
        if self.i != len(self.b): raise BadEncoding(f"{len(self.b) - self.i} trailing bytes")

def read_cell_cap(r):
    start = r.i
    if r.u8("version") != 1: raise BadEncoding("version is not 1")
    for f in ("relayPublicKey", "storageSlot", "cellKey"): r.nonzero(f)
    if not 1 <= r.u8("sizeClass") <= 5: raise BadEncoding("sizeClass outside 1..5")
    tag = r.u8("expectedBlobHash tag")
    if tag == 1: r.nonzero("expectedBlobHash")
    elif tag != 0: raise BadEncoding(f"optional tag {tag}")
    return r.b[start:r.i]  # every field is fixed or checked canonical: the bytes re-encode as read

def decode(schema, cls, b):
    r = Reader(b)
    if schema == "ReadCellCapV1":
        out = read_cell_cap(r)
    elif schema == "WriteCellCapV1":
        out = read_cell_cap(r) + r.take(4, "allocationEpoch")
        keys = [r.nonzero(k) for k in ("createPrivateKey", "renewPrivateKey", "dropPrivateKey")]
        if len(set(keys)) != 3: raise BadEncoding("private keys not pairwise distinct")
        out += b"".join(keys)
    elif schema == "CellBlobV1":
        if cls is None:  # HR-READ-16 class-from-length: the class whose exact length the blob has
            cls = next((c for c, n in BLOB_LENGTHS.items() if n == len(b)), None)
        if len(b) != BLOB_LENGTHS.get(cls, -1): raise BadEncoding(f"{len(b)} bytes for size class {cls}")
        if r.u8("version") != 1: raise BadEncoding("version is not 1")
        out = b[:1] + r.take(12, "nonce") + r.take(len(b) - 13, "sealed")
    else:
        return None
    r.end()
    return out

def answer(op, args, data):
    if op == "hello":
        result = {"protocol": 1,
                  "implementation": {"name": "python example", "version": "1",
                                     "language": "Python " + platform.python_version(),
                                     "source": "examples/python/testee.py"},
                  "ops": ["hiverelay.decode"], "profiles": [], "limits": {},
                  "capabilities": ["input-path"]}  # persistent requests may name a file: "input_path"
        if os.environ.get("TESTEE_UNDECLARED") != "1":
            result["readings"] = READINGS
        return {"ok": True, "result": result}
    if op != "hiverelay.decode":
        return {"unsupported": True}
    try:
        out = decode(args.get("schema"), args.get("class"), data)
    except BadEncoding as e:
        return {"ok": False, "code": "BAD_ENCODING", "detail": str(e)}
    if out is None:
        return {"unsupported": True, "detail": "schema not implemented"}
    return {"ok": True, "result": {"reencoded": base64.b64encode(out).decode()}}

if len(sys.argv) > 1:  # one-shot mode: OP as argument, raw input on stdin, args in CONFORM_ARGS
    resp = answer(sys.argv[1], json.loads(os.environ.get("CONFORM_ARGS") or "{}"), sys.stdin.buffer.read())
    print(json.dumps(resp))
    sys.exit(1 if resp.get("ok") is False else 0)
for line in sys.stdin.buffer:  # persistent mode; a binary line iterator has no length limit
    try:
        req = json.loads(line)
        if "input_path" in req:  # input-path: a read-only file holding exactly the input bytes
            with open(req["input_path"], "rb") as f: data = f.read()
        else:
            data = base64.b64decode(req["input"], validate=True)
        resp = answer(req["op"], req["args"], data)
    except (ValueError, KeyError, TypeError, OSError) as e:
        req, resp = {}, {"ok": False, "code": "BAD_REQUEST", "detail": str(e)}
    resp["id"] = req.get("id", -1) if isinstance(req, dict) else -1
    sys.stdout.write(json.dumps(resp) + "\n")
    sys.stdout.flush()
