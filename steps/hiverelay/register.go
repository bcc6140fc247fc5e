package hiverelay

import (
	"fmt"
	"slices"

	"github.com/cucumber/godog"
	"golang.org/x/crypto/blake2b"

	"github.com/threespec/conformance/impl/hiverelay/hivespec"
	"github.com/threespec/conformance/steps"
)

// The step registrations, one function per feature file of
// features/hiverelay/: each registers the steps its feature uses most, and
// the other features use them too. The six schema features
// (blind-core-read-cap, read-cell-cap, write-cell-cap, checkpoint, frame,
// cell-blob) share schemaSteps, and add their own where they have any.

// register registers every HiveRelay step for one scenario, whose
// HiveRelay state is a new scenario.
func register(sc *godog.ScenarioContext, w *steps.World) {
	s := &scenario{w: w}
	steps.Register(sc,
		s.schemaSteps(), s.cellBlobSteps(), s.frameSteps(), s.checkpointSteps(), s.primitivesSteps(),
		s.catalogSteps(), s.formatArtifactSteps(), s.manifestSteps(), s.vectorSetSteps(), s.authoritySteps())
}

// schemaSteps are the records, vectors and decoding of the six schema
// features (blind-core-read-cap.feature, read-cell-cap.feature,
// write-cell-cap.feature, checkpoint.feature, frame.feature,
// cell-blob.feature).
func (s *scenario) schemaSteps() []steps.Def {
	return []steps.Def{
		steps.Given(`^an? `+schemaPattern+`$`, s.record),
		steps.Given(`(?s)^an? `+schemaPattern+` with (.+)$`, s.recordWith),
		steps.Given(`^the (?:positive |negative |registry )?vector "([^"]+)"$`, s.vector),
		steps.Given(`^the (?:positive |negative |registry )?vector "([^"]+)" with byte (\d+) set to ([0-9a-f]{2})$`, func(p string, at int, h string) error {
			if err := s.vector(p); err != nil {
				return err
			}
			return s.setByte(at, h)
		}),
		steps.When(`^it is decoded as `+schemaPattern+`$`, func(schema string) error {
			return s.decode(hivespec.DecodeArgs{Schema: schema})
		}),
		steps.Then(`^the re-encoding equals the input$`, func() error { return s.reencodingIs(s.sent, "the input") }),
		steps.Then(`^the re-encoding equals the vector "([^"]+)"$`, func(p string) error {
			b, err := vectorFile(p)
			if err != nil {
				return err
			}
			return s.reencodingIs(b, "the vector "+p)
		}),
	}
}

// cellBlobSteps are cell-blob.feature's: blobs of a class, decoded with or
// without one.
func (s *scenario) cellBlobSteps() []steps.Def {
	return []steps.Def{
		steps.Given(`^a CellBlobV1 of class (\d+)$`, s.blobOfClass),
		steps.When(`^it is decoded as CellBlobV1 of class (-?\d+)$`, func(class int) error {
			return s.decode(hivespec.DecodeArgs{Schema: "CellBlobV1", Class: class})
		}),
		steps.When(`^it is decoded as CellBlobV1 without a class$`, func() error {
			return s.decode(hivespec.DecodeArgs{Schema: "CellBlobV1"})
		}),
	}
}

// frameSteps are frame.feature's: a genesis or successor frame.
func (s *scenario) frameSteps() []steps.Def {
	return []steps.Def{steps.Given(`^a (genesis|successor) OpaqueChainFrameV1$`, s.frame)}
}

// checkpointSteps are checkpoint.feature's: arrays resized and reordered.
func (s *scenario) checkpointSteps() []steps.Def {
	return []steps.Def{
		steps.Given(`^its `+pathArg+` (?:has|have) (\d+) (?:entries|elements|payloads|capabilities|rows)$`, s.resize),
		steps.Given(`^the elements (\d+) and (\d+) of its `+pathArg+` are swapped$`, s.swap),
	}
}

// primitivesSteps are primitives.feature's: raw bytes, fields set or
// written with other counts, the bytes edited, and checks of what the
// steps built.
func (s *scenario) primitivesSteps() []steps.Def {
	return []steps.Def{
		steps.Given(`^the input bytes `+hexArg+`$`, s.inputBytes),
		steps.Given(`^the concatenation of:$`, s.concatenation),
		steps.Given(`(?s)^its `+pathArg+` (?:is|are) (.+)$`, s.setField),
		steps.Given(`^its `+pathArg+` equals its `+pathArg+`$`, s.copyField),
		steps.Given(`^the (?:count|length|tag) of its `+pathArg+` is written as `+hexArg+`$`, s.writtenAs),

		// Editing the bytes.
		steps.Given(`^byte (\d+) of the input is set to ([0-9a-f]{2})$`, s.setByte),
		steps.Given(`^the last (?:(\d+) )?bytes? of the input (?:is|are) removed$`, s.cutInput),
		steps.Given(`^the input is cut to (\d+) bytes$`, s.cutInputTo),
		steps.Given(`(?s)^(.+) (?:is|are) appended to the input$`, s.appendToInput),

		steps.Then(`^bytes (\d+) to (\d+) of the re-encoding are (.+)$`, s.reencodingRange),

		// Checks of what the steps built against the committed and
		// published files (known answers of docs/hiverelay.md).
		steps.Then(`^the input is (\d+) bytes long$`, s.inputLengthIs),
		steps.Then(`^the input contains (.+)$`, s.inputContains),
		steps.Then(`^the input equals (.+)$`, s.inputEquals),
	}
}

// catalogSteps are catalog.feature's: the schema catalog, its entries
// copied or removed, verified inside the reference format artifact.
func (s *scenario) catalogSteps() []steps.Def {
	return []steps.Def{
		steps.Given(`^the reference schema catalog$`, s.referenceCatalog),
		steps.Given(`^a copy of its `+pathArg+` is added at the end of its `+pathArg+`$`, s.appendCopy),
		steps.Given(`^element (\d+) of its `+pathArg+` is removed$`, s.removeElement),
		steps.When(`^the format artifact holding it is verified$`, s.verifyHolding),
	}
}

// formatArtifactSteps are format-artifact.feature's: the reference
// artifact, its byte fields edited, verified, and the format hash.
func (s *scenario) formatArtifactSteps() []steps.Def {
	defs := []steps.Def{
		steps.Given(`^the reference format artifact$`, s.referenceArtifact),
		steps.Given(`^the reference vector set with that format artifact$`, func() error { return s.vectorSetWith(false) }),
		steps.Given(`^the reference vector set with that format artifact and its metadata artifact$`, func() error { return s.vectorSetWith(true) }),
		steps.When(`^the format artifact is verified$`, s.verifyFormat),
		steps.Then(`^the format hash follows the formula of section 4$`, func() error {
			return s.hashIs("format_hash", domainHash(formatHashDomain, s.sentArtifact), true)
		}),
		steps.Then(`^the format hash is not the BLAKE2b-256 of the format artifact alone$`, func() error {
			h := blake2b.Sum256(s.sentArtifact)
			return s.hashIs("format_hash", fmt.Sprintf("%x", h), false)
		}),
		steps.Then(`^the spec is (\d+) bytes with SHA-256 "([0-9a-f]{64})"$`, s.specIs),
	}
	return slices.Concat(defs, s.fieldEdits(), s.hashSteps("format hash", "format_hash"))
}

// fieldEdits edit the bytes of a byte-string field: format-artifact.feature
// edits specBytes, authority.feature a declaration.
func (s *scenario) fieldEdits() []steps.Def {
	return []steps.Def{
		steps.Given(`^(.+) (?:is|are) appended to its `+pathArg+`$`, s.appendToField),
		steps.Given(`^(.+) (?:is|are) inserted into its `+pathArg+` at offset (\d+)$`, s.insertIntoField),
		steps.Given(`^the last (?:(\d+) )?bytes? of its `+pathArg+` (?:is|are) removed$`, func(n, p string) error {
			return s.editBytes(p, func(b []byte) ([]byte, error) { return cut(b, n) })
		}),
		steps.Given(`^byte (\d+) of its `+pathArg+` is set to ([0-9a-f]{2})$`, s.setFieldByte),
		steps.Given(`^`+quoted+` is replaced by `+quoted+` in its `+pathArg+`$`, s.replaceInField),
	}
}

// hashSteps compare the hash a result member holds (named by what, as
// "format hash") with a given one: equal, or not.
func (s *scenario) hashSteps(what, member string) []steps.Def {
	return []steps.Def{
		steps.Then(`^the `+what+` is "([0-9a-f]{64})"$`, func(h string) error { return s.hashIs(member, h, true) }),
		steps.Then(`^the `+what+` is not "([0-9a-f]{64})"$`, func(h string) error { return s.hashIs(member, h, false) }),
	}
}

// manifestSteps are manifest.feature's: vector manifests built, parsed, and
// their entries.
func (s *scenario) manifestSteps() []steps.Def {
	return []steps.Def{
		steps.Given(`^the reference vector manifest$`, s.referenceManifest),
		steps.Given(`^a vector manifest of the paths ((?:`+quoted+`(?:, | and )?)+)$`, s.manifestOfPaths),
		steps.Given(`^a file whose path is (.+), holding (.+), is added to the vector set$`, s.addFileAt),
		steps.Given(`^the vector manifest is left out$`, func() error {
			s.set.omitManifest = true
			return nil
		}),
		steps.When(`^the manifest is parsed$`, s.parseManifest),
		steps.Then(`^the manifest has (\d+) entries$`, s.entryCount),
		steps.Then(`^entry (\d+) of the manifest is `+quoted+`, (\d+) bytes$`, func(i int, p string, n uint64) error {
			return s.entryIs(i, p, n, "")
		}),
		steps.Then(`^entry (\d+) of the manifest is `+quoted+`, (\d+) bytes, BLAKE2b-256 ([0-9a-f]{64})$`, s.entryIs),
		steps.Then(`^every entry of the manifest holds the length and BLAKE2b-256 of its vector file$`, s.entriesHoldFiles),
		steps.Then(`^the vector manifest it used is the one the steps frame from the files$`, s.usedManifest),
	}
}

// vectorSetSteps are vector-set.feature's: the reference vector set, its
// files changed, verified, and the vector set hash.
func (s *scenario) vectorSetSteps() []steps.Def {
	defs := []steps.Def{
		steps.Given(`^the reference vector set$`, func() error { return s.vectorSet(false) }),
		steps.Given(`^the file "([^"]+)" is removed from the vector set$`, s.removeFile),
		steps.Given(`^the file "([^"]+)" of the vector set holds (.+)$`, s.setFile),
		steps.Given(`^a file "([^"]+)" holding (.+) is added to the vector set$`, s.addFile),
		steps.Given(`^the vector manifest is framed again from the files$`, func() error {
			s.set.manifest = manifest(s.set.files).encode()
			return nil
		}),
		steps.When(`^the vector set is verified$`, func() error { return s.verifySet(false) }),
		steps.Then(`^the vector set hash follows the formula of section 5$`, func() error {
			return s.hashIs("vector_set_hash", domainHash(vectorSetHashDomain, s.sentManifest), true)
		}),
		steps.Then(`^the paths of the manifest are the closed path inventory of the spec$`, s.pathsAreInventory),
	}
	return slices.Concat(defs, s.hashSteps("vector set hash", "vector_set_hash"))
}

// authoritySteps are authority.feature's: the vector set with its metadata
// artifact, the metadata edited, the authority verified.
func (s *scenario) authoritySteps() []steps.Def {
	return []steps.Def{
		steps.Given(`^the reference vector set and its metadata artifact$`, func() error { return s.vectorSet(true) }),
		// Single quotes: the JSON text holds double quotes.
		steps.Given(`(?s)^the metadata artifact has '([^']*)' replaced by '([^']*)'$`, s.replaceInMetadata),
		steps.When(`^the authority is verified$`, func() error { return s.verifySet(true) }),
		steps.Then(`^the metadata artifact equals the published file "([^"]+)"$`, s.metadataIs),
	}
}
