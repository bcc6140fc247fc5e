// Package harness is the logic of cmd/conform: it runs the project's vector
// sets against any implementation behind testee protocol v1
// (docs/PROTOCOL.md) and reports, and it serves the reference
// implementation as a testee. docs/CONFORM.md is the user's guide.
//
//   - LoadSuites reads the vector indexes (vectorset) and verifies each
//     suite against its manifest and set hash, and with the Verify hook of
//     its vectorset.SuiteDef (the HiveRelay authority hashes, declared by
//     its wing's Spec), before anything runs. The harness knows no spec:
//     the command hands it the specs (Config.Specs, impl/spec) and their
//     suites' definitions.
//   - Selection, Policy and Expectations choose the vectors, say which apply
//     to the testee beyond what it claims in hello, and carry known failures.
//   - Run handshakes, runs every selected vector (Jobs at once: one-shot
//     runs, or the persistent processes of a testee.Pool; the largest
//     inputs first), judges each answer with vectorset.Judge, and returns a
//     Report; it always returns one, also when the testee cannot run or the
//     run is interrupted. It bounds the garbage collector's soft memory
//     limit by the largest input or expected answer while it runs.
//   - Fuzz is `conform fuzz` (issue 27): the wings' generators
//     (internal/fuzzgen.Generator) draw cases for every operation the
//     testee claims; each goes to the testee through the same adapter and
//     to the reference under the testee's declared readings, and
//     vectorset.Judge judges the answer; disagreements are named,
//     deduplicated (FuzzKey), shrunk, and WriteFuzzCandidates writes them
//     as candidate vectors and found-corpus entries.
//   - InputFiles gives inputs by path to a testee that claims
//     testee.CapabilityInputPath (committed files as they are, recipes
//     written once per run to a private directory).
//   - WriteText, WriteJSON and WriteJUnit render a Report, each with the
//     time split (Times, VectorTimes).
//   - Serve and ServeOneShot are the testee's side, for `conform serve`
//     (Serve reads input_path files and decodes base64 in place).
//   - Timeouts gives the first request (hello) its own, longer timeout.
//
// # Decisions
//
//   - Writing to standard error is no testee failure (the protocol says it is
//     only collected): the tail of the last process shows in the report, and
//     with each testee failure.
//   - A testee failure fails the run whatever the vector's level; a
//     SHOULD-level vector that gets a wrong answer only warns.
//   - An expected-failures entry counts as matched by applicable vectors
//     only, so an entry for a vector that did not apply (an unclaimed
//     operation, --mark none) is reported as stale; a rule entry expects
//     every applicable selected vector of that rule to fail.
//   - A vector whose input cannot be read or does not match its index entry
//     is an error of conform's inputs (exit status 2), recorded and passed
//     over so the run still reports the rest.
//   - An interrupted run exits with 130; the vector in flight is not run.
//   - Inputs by path go only to a persistent-mode testee that claims the
//     capability (one-shot mode writes them to standard input anyway); a
//     path in an answer is judged as a value, never opened.
//   - The run is aborted as "the testee could not be run" (exit status 3)
//     when hello fails or when more than testee.DefaultMaxStartFailures
//     vectors in a row fail because the testee does not start.
package harness
