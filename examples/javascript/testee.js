#!/usr/bin/env node
// A libtracer v1 testee in JavaScript (Node 18 or later, no packages),
// written from docs/PROTOCOL.md and the libtracer-01 data format alone:
// hello, libtracer.decode (datagram and stream, report verdict and frames,
// work_budget, max_tlv_bytes, views, strip, forward) and libtracer.encode
// (exact and smallest, flat and nested input). Other operations are
// answered unsupported, which conform reports as not applicable.
//
//   conform run --suite libtracer --expect-fail examples/javascript/expected-failures.txt -- node examples/javascript/testee.js
//   conform run --one-shot --suite libtracer --expect-fail examples/javascript/expected-failures.txt -- node examples/javascript/testee.js
//
// It keeps one known gap on purpose, to show an expected-failures file at
// work: reserved opt bit 0 is not checked (LT-OPT-02), and
// expected-failures.txt beside it lists that rule. With the environment
// variable CHECK_BIT0=1 the gap is closed and every vector passes.
'use strict';
const CHECK_BIT0 = process.env.CHECK_BIT0 === '1';
const readline = require('readline');

// Opt bits (libtracer-01, Options bitfield).
const R0 = 0x01, TF = 0x02, CW = 0x04, LL = 0x08, CR = 0x10, TS = 0x20, PL = 0x40, R7 = 0x80;
const hdrSize = (opt) => (opt & LL ? 6 : 4);
// (With bit 0 unchecked, a header with it set is read by the other bits.)
const tsSize = (opt) => (opt & TS ? (opt & TF ? 4 : 8) : 0);
const crcSize = (opt) => (opt & CR ? (opt & CW ? 2 : 4) : 0);
// Known types (PROTOCOL.md, libtracer.decode): core 0x01..0x0D except 0x05, user 0x80..0xFF.
const known = (t) => (t >= 0x01 && t <= 0x0d && t !== 0x05) || t >= 0x80;
const U64 = (1n << 64n) - 1n;

const CRC32C = new Int32Array(256);
for (let n = 0; n < 256; n++) {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
  CRC32C[n] = c;
}
function crc32c(b) {
  let c = -1;
  for (let i = 0; i < b.length; i++) c = CRC32C[(c ^ b[i]) & 0xff] ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}
function crc16(b) { // CRC-16-CCITT: poly 0x1021, init 0xFFFF, MSB first, no final XOR
  let c = 0xffff;
  for (let i = 0; i < b.length; i++) {
    c ^= b[i] << 8;
    for (let k = 0; k < 8; k++) c = c & 0x8000 ? ((c << 1) ^ 0x1021) & 0xffff : (c << 1) & 0xffff;
  }
  return c;
}

class Reject extends Error {
  constructor(rule, code, offset, detail) { super(detail); Object.assign(this, { rule, code, offset }); }
}
const INVALID = 'INVALID';

// header checks the header at off as far as the bytes up to end go, in
// byte order; it returns the frame's size, or 0 when the header is cut.
function header(b, off, end, maxTLV) {
  const h = { type: b[off], opt: 0, length: 0, size: 0 };
  if (off >= end) return h;
  if (h.type === 0x00) throw new Reject('LT-TYPE-01', INVALID, off, 'type 0x00');
  if (off + 1 >= end) return h;
  h.opt = b[off + 1];
  if (h.opt & R7) throw new Reject('LT-OPT-01', INVALID, off + 1, 'reserved opt bit 7');
  if (h.opt & R0 && CHECK_BIT0) throw new Reject('LT-OPT-02', INVALID, off + 1, 'reserved opt bit 0');
  if (off + hdrSize(h.opt) > end) return h;
  h.length = h.opt & LL ? b.readUInt32LE(off + 2) : b.readUInt16LE(off + 2);
  if (h.length > maxTLV) throw new Reject('LT-TRUNC-06', INVALID, off + 2, `length ${h.length} above MAX_TLV_BYTES`);
  h.size = hdrSize(h.opt) + h.length + tsSize(h.opt) + crcSize(h.opt);
  return h;
}

// walk walks the top-level frame at off (of size h.size) with an explicit
// work stack, and returns its frames in pre-order.
function walk(b, off, h0, a) {
  const out = [], stack = [];
  let pos = off, h = h0;
  for (;;) {
    const start = pos + hdrSize(h.opt), end = start + h.length, tsEnd = end + tsSize(h.opt);
    const f = { depth: stack.length, offset: pos, type: h.type, opt: h.opt, length: h.length };
    if (h.opt & CR) {
      const want = h.opt & CW ? b.readUInt16LE(tsEnd) : b.readUInt32LE(tsEnd);
      const got = h.opt & CW ? crc16(b.subarray(start, tsEnd)) : crc32c(b.subarray(start, tsEnd));
      if (got !== want) throw new Reject(h.opt & CW ? 'LT-CRC-10' : 'LT-CRC-09', 'tr::frame::crc_fail', tsEnd, 'CRC mismatch');
      f.crc = { width: h.opt & CW ? 16 : 32, value: want.toString(16).padStart(h.opt & CW ? 4 : 8, '0') };
    }
    const top = stack[stack.length - 1];
    let anchor = top ? top.anchor : null;
    if (h.opt & TS) {
      if (h.opt & TF) {
        if (anchor === null) throw new Reject('LT-TS-04', 'tr::path::invalid', end, 'relative stamp without a stamped ancestor');
        const rel = b.readInt32LE(end);
        anchor = (anchor + BigInt(rel)) & U64; // modulo 2^64 (PROTOCOL.md: a project decision)
        f.ts = { form: 'rel', raw: String(rel), resolved: String(anchor) };
      } else {
        anchor = b.readBigUInt64LE(end);
        f.ts = { form: 'abs', raw: String(anchor), resolved: String(anchor) };
      }
    }
    if (!top && !known(h.type)) throw new Reject('LT-UNK-05', 'tr::schema::type_mismatch', pos, `unknown outer type ${h.type}`);
    if (top) out[top.entry].children++;
    if (h.opt & PL && known(h.type)) {
      if (stack.length >= a.budget) throw new Reject('LT-NEST-03', 'tr::tlv::nesting_too_deep', pos, 'work budget exceeded');
      f.children = 0;
      out.push(f);
      stack.push({ end, frameEnd: pos + h.size, anchor, entry: out.length - 1 });
      pos = start;
    } else {
      f.payload = b.toString('hex', start, end);
      out.push(f);
      pos += h.size;
    }
    while (stack.length && pos === stack[stack.length - 1].end) pos = stack.pop().frameEnd;
    if (!stack.length) return out;
    const pend = stack[stack.length - 1].end;
    h = header(b, pos, pend, a.maxTLV);
    if (h.size === 0 || h.size > pend - pos) throw new Reject('LT-NEST-05', INVALID, pos, 'child does not fit its parent');
  }
}

// decode returns the top-level frames (each with its list), the first
// error of a frame whose extent is known, and the error that broke framing.
function decode(b, a) {
  const frames = [];
  let first = null;
  if (b.length === 0 && !a.stream) return { frames, framing: new Reject('LT-TRUNC-08', 'tr::frame::truncated', 0, 'empty datagram') };
  for (let off = 0; off < b.length;) {
    let h;
    try {
      h = header(b, off, b.length, a.maxTLV);
      if (h.size === 0 || h.size > b.length - off) {
        throw a.stream ? new Reject('LT-TRUNC-02', 'tr::transport::down', off, 'stream closed inside a frame')
          : new Reject('LT-TRUNC-03', 'tr::frame::truncated', off, 'frame cut');
      }
    } catch (e) { return { frames, first, framing: e }; }
    try { frames.push({ off, size: h.size, list: walk(b, off, h, a) }); } catch (e) {
      if (!(e instanceof Reject)) throw e;
      first = first || e;
      frames.push({ off, size: h.size, list: [{ depth: 0, offset: off, type: h.type, opt: h.opt, length: h.length, error: { rule: e.rule, code: e.code, offset: e.offset, detail: e.message } }], err: e });
    }
    off += h.size;
  }
  return { frames, first, framing: null };
}

function stamp(stored, ts, crc) { // attach a fresh trailer to at-rest bytes
  let opt = stored[1] & ~(TS | TF | CR | CW);
  if (ts !== undefined) opt |= TS;
  if (crc) opt |= crc === 16 ? CR | CW : CR;
  const head = Buffer.from(stored); head[1] = opt;
  const parts = [head];
  if (ts !== undefined) { const t = Buffer.alloc(8); t.writeBigUInt64LE(BigInt(ts)); parts.push(t); }
  if (crc) {
    const covered = Buffer.concat(parts).subarray(hdrSize(opt));
    const c = Buffer.alloc(crc === 16 ? 2 : 4);
    if (crc === 16) c.writeUInt16LE(crc16(covered)); else c.writeUInt32LE(crc32c(covered));
    parts.push(c);
  }
  return Buffer.concat(parts);
}

function libtracerDecode(args, b) {
  const a = { stream: args.transport === 'stream', maxTLV: args.max_tlv_bytes ?? 16777216, budget: Math.max(5, args.work_budget ?? 1024) };
  if (args.transport && !['datagram', 'stream'].includes(args.transport)) return { unsupported: true };
  if (args.views && a.stream) return { unsupported: true }; // views cut a datagram; the answer is the datagram's
  const frames = args.report === 'frames';
  if (frames && (args.strip || args.forward)) return { unsupported: true };
  const d = decode(b, a);
  if (!frames && (d.first || d.framing)) throw d.first || d.framing;
  if (d.framing) throw d.framing;
  const result = { frames: d.frames.flatMap((f) => f.list) };
  const rest = (f) => { // at-rest bytes: header with TS and CR cleared, payload
    const h = hdrSize(b[f.off + 1]), len = f.list[0].length;
    const s = Buffer.from(b.subarray(f.off, f.off + h + len)); s[1] &= ~(TS | CR);
    return s;
  };
  if (args.strip) result.stored = Buffer.concat(d.frames.map(rest)).toString('base64');
  if (args.forward) {
    result.forwarded = Buffer.concat(d.frames.map((f) => stamp(rest(f), args.forward.ts, args.forward.crc || 0))).toString('base64');
  }
  return { result };
}

// libtracerEncode writes a frame tree: flat (frames with depth) or nested.
function libtracerEncode(args, input) {
  const mode = args.mode || 'exact';
  if (!['exact', 'smallest'].includes(mode)) return { unsupported: true };
  let list = JSON.parse(input.toString('utf8'));
  if (list.length && list[0].depth !== undefined) list = nest(list);
  const refuse = (rule, detail) => { throw new Reject(rule, INVALID, 0, detail); };
  // enc returns the bytes of frame f; anchor is the nearest stamped ancestor's wanted time.
  const enc = (f, anchor) => {
    let opt = f.opt;
    if (f.type === 0x00) refuse('LT-TYPE-01', 'type 0x00');
    if (f.type === 0x05) refuse('LT-TYPE-06', 'type 0x05');
    if (opt & (R0 | R7)) refuse('LT-OPT-03', 'reserved opt bit');
    if (opt & TS && !f.ts) refuse('LT-OPT-05', 'TS=1 without ts');
    let want = null; // the frame's wire-time: resolved (smallest), or from raw (exact)
    if (opt & TS && mode === 'smallest') want = BigInt(f.ts.resolved ?? f.ts.raw);
    else if (opt & TS && opt & TF) {
      if (anchor === null) refuse('LT-TS-04', 'relative stamp without a stamped ancestor');
      want = (anchor + BigInt(f.ts.raw)) & U64;
    } else if (opt & TS) want = BigInt(f.ts.raw);
    if (mode === 'smallest') {
      opt &= ~(TF | CW);
      if (opt & CR) opt |= CW;
      if (f.children) opt |= PL;
      if (opt & TS && anchor !== null) {
        const d = BigInt.asIntN(64, (want - anchor) & U64);
        if (d >= -(2n ** 31n) && d < 2n ** 31n) opt |= TF;
      }
    } else if (f.children && !(opt & PL)) refuse('LT-OPT-04', 'children under PL=0');
    const next = opt & TS ? want : anchor;
    const payload = f.children ? Buffer.concat(f.children.map((c) => enc(c, next))) : Buffer.from(f.payload || '', 'hex');
    if (payload.length > 0xffffffff) refuse('LT-LEN-03', 'payload over 2^32-1 bytes');
    if (mode === 'smallest') opt = payload.length > 0xffff ? opt | LL : opt & ~LL;
    else if (!(opt & LL) && payload.length > 0xffff) refuse('LT-LEN-01', 'LL=0 over 65535 bytes');
    const head = Buffer.alloc(hdrSize(opt));
    head[0] = f.type; head[1] = opt;
    if (opt & LL) head.writeUInt32LE(payload.length, 2); else head.writeUInt16LE(payload.length, 2);
    const parts = [head, payload];
    if (opt & TS) {
      const t = Buffer.alloc(tsSize(opt));
      if (opt & TF) t.writeInt32LE(Number(BigInt.asIntN(64, (want - anchor) & U64)));
      else t.writeBigUInt64LE(want);
      parts.push(t);
    }
    if (opt & CR) {
      const covered = Buffer.concat(parts.slice(1));
      const c = Buffer.alloc(crcSize(opt));
      if (opt & CW) c.writeUInt16LE(crc16(covered)); else c.writeUInt32LE(crc32c(covered));
      parts.push(c);
    }
    return Buffer.concat(parts);
  };
  return { result: { bytes: Buffer.concat(list.map((f) => enc(f, null))).toString('base64') } };
}

// nest turns the flat pre-order list (children as counts) into a tree.
function nest(flat) {
  const top = [], stack = [{ list: top, want: Infinity }];
  for (const f of flat) {
    while (stack.length > 1 && stack[stack.length - 1].want === 0) stack.pop();
    const parent = stack[stack.length - 1];
    const node = { ...f, children: f.children === undefined ? undefined : [] };
    parent.list.push(node); parent.want--;
    if (f.children > 0) stack.push({ list: node.children, want: f.children });
  }
  return top;
}

const OPS = { 'libtracer.decode': libtracerDecode, 'libtracer.encode': libtracerEncode };

function answer(req) {
  if (req.op === 'hello') {
    return { ok: true, result: { protocol: 1, implementation: { name: 'javascript example', version: '1', language: 'JavaScript (Node ' + process.versions.node + ')', source: 'examples/javascript/testee.js' }, ops: Object.keys(OPS), profiles: [], limits: {} } };
  }
  const op = OPS[req.op];
  if (!op) return { unsupported: true, detail: `${req.op} is not implemented` };
  try {
    const r = op(req.args || {}, Buffer.from(req.input || '', 'base64'));
    return r.unsupported ? { unsupported: true } : { ok: true, result: r.result };
  } catch (e) {
    if (e instanceof Reject) return { ok: false, code: e.code, rule: e.rule, detail: `at byte ${e.offset}: ${e.message}` };
    return { ok: false, code: 'BAD_REQUEST', detail: String(e && e.message) };
  }
}

if (process.argv.length > 2) {
  // One-shot mode (PROTOCOL.md): the operation as the argument, the raw input
  // on standard input, the arguments in CONFORM_ARGS; exit 1 on rejection.
  const chunks = [];
  process.stdin.on('data', (c) => chunks.push(c));
  process.stdin.on('end', () => {
    const input = Buffer.concat(chunks).toString('base64');
    const res = answer({ op: process.argv[2], args: JSON.parse(process.env.CONFORM_ARGS || '{}'), input });
    process.stdout.write(JSON.stringify(res) + '\n');
    process.exitCode = res.ok === false ? 1 : 0;
  });
} else {
  // Persistent mode: one JSON request a line, one answer a line, in order.
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  rl.on('line', (line) => {
    let req;
    try { req = JSON.parse(line); } catch (e) { req = { id: -1, op: '' }; }
    process.stdout.write(JSON.stringify({ id: req.id, ...answer(req) }) + '\n');
  });
}
