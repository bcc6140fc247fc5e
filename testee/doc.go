// Package testee speaks testee protocol v1 (docs/PROTOCOL.md), the contract
// between conform and any implementation under test, and holds the one seam
// between the checks and what they check: Implementation.
//
// # Contents
//
//   - The codec: Request and AppendRequest/ParseRequest (one JSON line,
//     input in standard base64 with padding, or by path for a testee that
//     claims CapabilityInputPath), WriteRequest (a large input's base64
//     streamed as it is written), ParseRequestInPlace (decoded into the
//     line's own memory), Response and
//     AppendResponse/ParseResponse (the three shapes: Accepted, Rejected,
//     Unsupported; Response.ResultChecked says a result was read and
//     checked here), WriteResponse (a compact result written as it is, not
//     copied), Hello and ParseHello, and OpHello. Every other operation,
//     profile, argument struct and value belongs to its spec's wing
//     (impl/spec.Spec.Ops, impl/<spec>/<spec>spec): args are a JSON object
//     here.
//   - Implementation, Handshake and Hello.Applies: what a testee claims and
//     whether a vector applies to it.
//   - Persistent and OneShot (Unix and Windows): the adapters for an
//     external testee in the protocol's two modes; Pool runs several
//     Persistent processes at once (conform run -j N). Killer: end them all
//     at once, for a caller about to exit.
//   - Serve: the testee's side of persistent mode, for `conform serve`.
//   - Timing (WithTiming): how a request's time was spent in an adapter,
//     for the reports' time split.
//
// # Failures
//
// Implementation.Do tells three things apart. A rejection is a Response
// (Outcome Rejected) with a nil error. A testee failure is a *Failure whose
// Kind says what the testee did wrong (Timeout, Exited, InvalidJSON,
// BadShape, WrongID, Flood, StartFailed, BadExit, BadHello) or why the
// request could not finish (Canceled by the caller's context, Closed
// adapter), with the tail of the testee's standard error. An error wrapping
// ErrInvalidRequest is the caller's mistake (args that are not a JSON
// object), and no request is sent. A *ResourceError is conform's own:
// starting the testee failed for want of file descriptors or memory of
// the process that starts it (EMFILE, ENFILE, ENOMEM), which is no failure
// of the testee and does not count towards giving up.
//
// After any testee failure the Persistent adapter kills the testee and its
// whole process group (the testee runs as a group leader, so its
// descendants go with it; the testee itself is signalled too, in case it
// left its group), or on Windows its Job Object (proc_windows.go), and
// starts it again for the next request. It gives up with
// StartFailed after Config.MaxStartFailures consecutive failures to start.
// When the group leader exits at any time, what is left of its group is
// killed at once, and so, on Linux, are its descendants that left the group
// (lifecycle.go, descendants_linux.go: found by TagEnv and parent links,
// conform being a child subreaper). The exit is noticed by its wait status:
// a descendant holding standard output open cannot hide it, since the
// pipes are read for only a moment after it.
//
// # Decisions where docs/PROTOCOL.md is silent
//
// Response lines (ParseResponse):
//   - JSON whitespace around the object is allowed (so is a CR before the
//     LF); an empty line, trailing data, text that is not UTF-8, or nesting
//     deeper than encoding/json's limit (10,000 levels) is InvalidJSON.
//   - "id" must be an integer literal (7, not 7.0 or 7e0) equal to the
//     request's; a smaller id is reported as a late or repeated answer.
//   - A member the protocol names may appear once (a repeat is BadShape);
//     members it does not name are ignored, and so are "result" beside
//     ok:false and "code" or "rule" beside ok:true.
//   - ok:false needs a non-empty string "code" for every operation (for
//     Lace "any non-empty code will do"); "detail" may be omitted and is
//     then empty; "detail" and "rule", when present, must be strings.
//   - "unsupported" must be a bool; true beside "ok" is BadShape; false is
//     as if absent. An unsupported answer may carry a string "detail".
//   - ok:true needs a "result" object, even an empty one ({}).
//   - The read cap bounds a line without its LF: a line of exactly
//     Config.MaxLine bytes is read; one more byte is a Flood. Reading a
//     flood costs at most the cap and a 64 KiB buffer.
//
// Persistent mode:
//   - The per-request timeout covers writing the request too: a testee that
//     stops reading its input fails with Timeout.
//   - hello is not sent again after a restart; a testee must answer any
//     request as its first.
//   - A testee found exited between requests, or found to have written
//     output between requests (a second line that came with an answer), is
//     restarted before the next request without failing it; Stats counts
//     such events (IdleExits, Unsolicited). A repeated answer that arrives
//     later is read as the next request's answer, which then fails with
//     WrongID.
//   - Close closes the testee's standard input, waits up to
//     Config.CloseGrace for it to exit, then kills it (and its group, or
//     job) and reaps it; Endings tells how it ended, and Stderr's tail
//     holds what it wrote meanwhile. Close with a request in flight kills
//     the process first and waits for the request at most closeWait.
//
// One-shot mode:
//   - "id" may be omitted; when present it must be an integer, of any value
//     (the request's id is not passed to the testee).
//   - Standard output must hold exactly one JSON object (it may span lines);
//     none at all is Exited. The response is checked first and the exit
//     status second: 0 for ok:true and unsupported:true, 1 for ok:false,
//     anything else (a signal included) BadExit.
//   - CONFORM_ARGS holds the args compacted ({} when there are none); an
//     inherited CONFORM_ARGS is dropped. A testee that exits without
//     reading all of its input is no failure.
//   - Descendants of the testee are killed when it exits.
package testee
