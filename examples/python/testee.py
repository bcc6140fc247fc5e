#!/usr/bin/env python3
"""A minimal testee in Python (docs/PROTOCOL.md): hello, and hiverelay.decode
for four of the six HiveRelay BCC v1 schemas (section 3): ReadCellCapV1,
WriteCellCapV1, CellBlobV1 and BlindCoreReadCapV1. Other schemas are
answered unsupported, which conform reports as not applicable.

It reads one open sentence otherwise than the project's default and says so
in hello (docs/READINGS.md, HR-READ-12): the safe-integer bound of section 2
binds the fixed u64 fields too, so a BlindCoreReadCapV1 whose witnessed fork
or length is above 2^53-1 fails ("fixed-u64-within-safe-range"), and conform
judges it by that branch's vectors, not by the default's. With
TESTEE_UNDECLARED=1 it takes the reading without declaring it, and conform
reports the vectors under "Readings taken but not declared".

    conform run --suite hiverelay --op hiverelay.decode -- python3 examples/python/testee.py
    conform run --one-shot --suite hiverelay -- python3 examples/python/testee.py
"""
import base64, json, os, platform, sys

BLOB_LENGTHS = {1: 4096, 2: 16384, 3: 65536, 4: 262144, 5: 1048576}
READINGS = {"HR-READ-12": "fixed-u64-within-safe-range"}  # the alternatives this testee takes
SAFE = 2**53 - 1

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
    def compact(self, what):  # section 2: shortest form, at most 2^53-1
        m = self.u8(what)
        if m < 0xfd: return m
        n = {0xfd: 2, 0xfe: 4, 0xff: 8}[m]
        v = int.from_bytes(self.take(n, what), "little")
        if v < {2: 0xfd, 4: 0x10000, 8: 0x100000000}[n]: raise BadEncoding(f"{what}: overlong compact uint")
        if v > SAFE: raise BadEncoding(f"{what}: above 2^53-1")
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
        if len(b) != BLOB_LENGTHS.get(cls, -1): raise BadEncoding(f"{len(b)} bytes for size class {cls}")
        if r.u8("version") != 1: raise BadEncoding("version is not 1")
        out = b[:1] + r.take(12, "nonce") + r.take(len(b) - 13, "sealed")
    elif schema == "BlindCoreReadCapV1":
        if r.u8("version") != 1: raise BadEncoding("version is not 1")
        r.nonzero("corePublicKey"); r.nonzero("blockEncryptionKey")
        for f in ("witnessedFork", "witnessedLength"):  # HR-READ-12 fixed-u64-within-safe-range
            if int.from_bytes(r.take(8, f), "big") > SAFE: raise BadEncoding(f"{f}: above 2^53-1")
        n = r.compact("witnessedSignedHead length")
        if not 1 <= n <= 4096: raise BadEncoding(f"witnessedSignedHead of {n} bytes, not 1..4096")
        r.take(n, "witnessedSignedHead")
        out = b  # fixed fields and a checked canonical length: the bytes re-encode as read
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
